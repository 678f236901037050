/// The Mustache template of `maprules inspect --format html` (see ``InspectPage``). `{{value}}` escapes; the
/// two constants of ``PageStyle`` are the only unescaped insertions.
enum InspectPageTemplate {
    static let text = """
    {{> head}}
    <title>{{title}}: what the app will do</title>
    </head>
    <body>
    <header class="top">
    <h1>{{title}}</h1>
    <p>{{path}} · what a field app will do with this map</p>
    </header>
    <main>
    <section class="cards" aria-label="Summary">
    <div class="total{{#hasAdds}} ok{{/hasAdds}}"><b>{{addCount}}</b><span>layers a crew can add to: {{addLayers}}</span></div>
    </section>
    {{#picture}}
    <h2 id="drawing">Draw order and scale ranges</h2>
    <svg class="scales" role="img" aria-label="Draw order and scale ranges" viewBox="0 0 {{width}} {{height}}" width="{{width}}" height="{{height}}" xmlns="http://www.w3.org/2000/svg">
    <rect x="{{plotLeft}}" y="4" width="680" height="{{axisY}}" fill="#f5f7fa"/>
    {{#ticks}}<line x1="{{x}}" x2="{{x}}" y1="4" y2="{{axisY}}" stroke="#dde2ea"/><text class="axis" x="{{x}}" y="{{axisY}}" dy="16" text-anchor="middle">{{label}}</text>{{/ticks}}
    {{#bars}}<g><title>{{label}}: {{range}}</title><text x="12" y="{{textY}}">{{label}}</text><rect x="{{x}}" y="{{y}}" width="{{width}}" height="20" rx="4" fill="{{fill}}" fill-opacity="{{opacity}}"{{#hidden}} stroke="#0b5cad" stroke-dasharray="4 3"{{/hidden}}/></g>
    {{/bars}}
    </svg>
    <p class="clean">Top row: drawn last, on top. A bar spans the scales at which the layer is drawn (left: zoomed out, right: zoomed in); a pale, dashed bar is a layer hidden when the map opens.</p>
    {{/picture}}
    <h2 id="layers">Layers and tables</h2>
    {{#cards}}
    <section class="card" id="{{anchor}}">
    <header><h3>{{title}}</h3><span class="badge off">{{kind}}</span><span class="meta">{{meta}}</span></header>
    {{#identifiable}}
    <div class="columns">
    <div class="phone" aria-label="The pop-up in edit mode">
    <div class="bar">{{popupTitle}}{{#identify}}<small>{{.}}</small>{{/identify}}{{^popupEnabled}}<small>pop-up disabled: never shown</small>{{/popupEnabled}}</div>
    {{#rows}}<div class="row field"><div class="lbl">{{label}}</div><div class="ctl {{controlClass}}">{{control}}</div>{{#hasChoices}}<div class="choices">{{#choices}}<span>{{.}}</span>{{/choices}}</div>{{/hasChoices}}{{#note}}<div class="lbl">{{.}}</div>{{/note}}</div>
    {{/rows}}
    {{^hasRows}}<div class="row"><div class="lbl">No display fields: the pop-up lists nothing.</div></div>{{/hasRows}}
    {{#hasRelated}}<div class="section">Related</div>{{#related}}<div class="action{{^actionable}} disabled{{/actionable}} related">{{text}}<div class="lbl">{{detail}}</div></div>{{/related}}{{/hasRelated}}
    {{#attachments}}<div class="section">Attachments</div><div class="action">{{.}}</div>{{/attachments}}
    <div class="section">Actions</div>
    <div class="action{{^canEdit}} disabled{{/canEdit}}">Edit{{^canEdit}} (no editable field){{/canEdit}}</div>
    <div class="action danger{{^canDelete}} disabled{{/canDelete}}">Delete{{^canDelete}} (not allowed){{/canDelete}}</div>
    </div>
    <div>
    {{^isTable}}<p><span class="addbutton {{#addEligible}}on{{/addEligible}}{{^addEligible}}off{{/addEligible}}">+ Add feature</span></p>
    {{^addEligible}}<p>The add button leaves this layer out because:</p><ul class="failures">{{#addFailures}}<li>{{.}}</li>{{/addFailures}}</ul>{{/addEligible}}{{/isTable}}
    <dl class="facts">{{#facts}}<dt>{{term}}</dt><dd>{{value}}{{#hasItems}}<ul>{{#items}}<li>{{.}}</li>{{/items}}</ul>{{/hasItems}}</dd>{{/facts}}</dl>
    </div>
    {{#form}}
    <div class="phone form" aria-label="The form for a new feature">
    <div class="bar">{{title}}<small>the form, as a new feature opens it</small></div>
    {{#rows}}{{#isGroup}}<div class="section group{{#hidden}} hidden{{/hidden}}">{{label}} <small>{{detail}}</small>{{#badges}}<span class="tag">{{.}}</span>{{/badges}}</div>{{/isGroup}}{{#isField}}<div class="row input{{#hidden}} hidden{{/hidden}}{{#nested}} nested{{/nested}}"><div class="lbl">{{label}}{{#required}} <b class="req" title="required">*</b>{{/required}} <small>{{detail}}</small></div><div class="ctl {{controlClass}}">{{control}}</div>{{#hasChoices}}<div class="choices">{{#choices}}<span>{{.}}</span>{{/choices}}</div>{{/hasChoices}}{{#badges}}<span class="tag">{{.}}</span>{{/badges}}</div>{{/isField}}{{#isOther}}<div class="row other{{#hidden}} hidden{{/hidden}}{{#nested}} nested{{/nested}}"><div class="lbl">{{label}} <small>{{detail}}</small></div>{{#badges}}<span class="tag">{{.}}</span>{{/badges}}</div>{{/isOther}}
    {{/rows}}
    {{#hasProblems}}<div class="section">Problems</div>{{#problems}}<div class="row"><div class="lbl">{{.}}</div></div>{{/problems}}{{/hasProblems}}
    </div>
    {{/form}}
    </div>
    {{/identifiable}}
    {{#note}}<p class="clean">{{.}}</p>{{/note}}
    </section>
    {{/cards}}
    </main>
    <footer>Made by <code>maprules inspect --format html</code>. The same facts as text: <code>maprules inspect MAP</code>.</footer>
    </body>
    </html>

    """
}
