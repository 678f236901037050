/// The Mustache template of `maprules lint --format html`. `{{value}}` escapes; `{{{css}}}` and `{{{policy}}}`
/// are the two constants of ``PageStyle`` and the only unescaped insertions.
enum LintPageTemplate {
    static let text = """
    {{> head}}
    <title>MapRules lint report: {{headline}}</title>
    </head>
    <body>
    <input type="checkbox" class="toggle" id="show-error" checked>
    <input type="checkbox" class="toggle" id="show-warning" checked>
    <input type="checkbox" class="toggle" id="show-info" checked>
    <header class="top">
    <h1>MapRules lint report</h1>
    <p>{{headline}} · maprules {{version}}</p>
    </header>
    <nav class="filters" aria-label="Filter by severity">
    <span class="label">Show:</span>
    <label class="chip" for="show-error">Errors ({{errors}})</label>
    <label class="chip" for="show-warning">Warnings ({{warnings}})</label>
    <label class="chip" for="show-info">Infos ({{infos}})</label>
    </nav>
    <main>
    <section class="cards" aria-label="Totals">
    <div class="total"><b>{{files}}</b><span>files linted</span></div>
    <div class="total error"><b>{{errors}}</b><span>errors</span></div>
    <div class="total warning"><b>{{warnings}}</b><span>warnings</span></div>
    <div class="total info"><b>{{infos}}</b><span>infos</span></div>
    {{^hasProblems}}<div class="total ok"><b>✓</b><span>no problems found</span></div>{{/hasProblems}}
    </section>
    {{#hasProblems}}
    <h2 id="rules">By rule</h2>
    <details class="file"{{#rulesOpen}} open{{/rulesOpen}}><summary><span class="path">{{ruleCount}} rule{{rulesPlural}} found something</span></summary>
    <table class="grid rules">
    <thead><tr><th>Rule</th><th>Severity</th><th class="num">Findings</th><th>What it means</th></tr></thead>
    <tbody>
    {{#rules}}
    <tr class="sev-{{severity}}"><td><a href="#rule-{{anchor}}"><code>{{id}}</code></a></td><td><span class="badge {{severity}}">{{severity}}</span></td><td class="num">{{count}}</td><td>{{summary}}</td></tr>
    {{/rules}}
    </tbody>
    </table>
    </details>
    {{/hasProblems}}
    <h2 id="files">Files with findings ({{filesWithFindings}})</h2>
    {{#fileSections}}
    <details class="file"{{#open}} open{{/open}} id="file-{{number}}">
    <summary><span class="path">{{path}}</span>{{#counts}}<span class="badge {{severity}}">{{text}}</span>{{/counts}}</summary>
    <ol class="diagnostics">
    {{#diagnostics}}
    <li class="diagnostic sev-{{severity}}">
    <div class="headline"><span class="badge {{severity}}">{{severity}}</span><span class="where mono">{{line}}:{{column}}</span>{{#layer}}<span class="where">layer {{.}}</span>{{/layer}}<a class="rule mono" href="#rule-{{anchor}}">{{ruleId}}</a></div>
    <p class="message">{{message}}</p>
    {{#snippet}}<pre class="snippet">{{#lines}}<span class="line{{#isTarget}} target{{/isTarget}}"><span class="ln">{{number}}</span>{{before}}{{#isTarget}}<mark>{{marked}}</mark>{{after}}{{/isTarget}}</span>{{/lines}}</pre>{{/snippet}}
    {{^snippet}}<p class="where mono">at {{pointer}}</p>{{/snippet}}
    {{#autofix}}<p class="autofix"><span class="badge ok">fixable</span> {{.}} · <code>maprules lint --fix</code></p>{{/autofix}}
    {{#summary}}<details class="why"><summary>Why, and how to fix: {{summary}}</summary><p><b>Why:</b> {{rationale}}</p><p><b>Fix:</b> {{fix}}</p></details>{{/summary}}
    </li>
    {{/diagnostics}}
    </ol>
    </details>
    {{/fileSections}}
    {{^fileSections}}<p class="clean">No file has a finding.</p>{{/fileSections}}
    {{#hasCleanFiles}}
    <h2 id="clean">Files without findings ({{cleanCount}})</h2>
    <details class="file"><summary><span class="path">Show the {{cleanCount}} clean files</span></summary>
    <ol class="diagnostics">{{#cleanFiles}}<li class="diagnostic mono">{{.}}</li>{{/cleanFiles}}</ol>
    </details>
    {{/hasCleanFiles}}
    {{#hasProblems}}
    <h2 id="catalogue">The rules found</h2>
    {{#rules}}
    <section class="card sev-{{severity}}" id="rule-{{anchor}}">
    <header><h3 class="mono">{{id}}</h3><span class="badge {{severity}}">{{severity}}</span><span class="meta">{{countText}}</span></header>
    <p>{{summary}}</p>
    <dl class="facts"><dt>Why it matters</dt><dd>{{rationale}}</dd><dt>How to fix</dt><dd>{{fix}}</dd></dl>
    </section>
    {{/rules}}
    {{/hasProblems}}
    </main>
    <footer>Made by <code>maprules lint --format html</code>. Explain a rule in a terminal with <code>maprules explain RULE-ID</code>.</footer>
    </body>
    </html>

    """
}
