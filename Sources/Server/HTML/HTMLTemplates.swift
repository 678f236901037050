import Foundation
import Mustache

/// The templates of the HTML services directory, as Swift constants so that the binary carries them (no
/// resource bundle). Mustache escapes every `{{value}}` for HTML (`<`, `>`, `&`, `"`, `'`); these templates
/// never use the unescaped forms (`{{{ }}}`, `{{& }}`), which `HTMLDirectoryTests` checks. Every page
/// starts with the `head` partial (header bar, breadcrumbs, title) and ends with `foot`.
enum HTMLTemplates {
    /// The library, parsed once.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in all {
            do { try library.register(text, named: name) } catch {
                // The templates are constants of this file, never input: a parse failure is a defect caught by the tests.
                preconditionFailure("The HTML template '\(name)' does not parse: \(error)")
            }
        }
        return library
    }()

    static let all: [(String, String)] = [
        ("head", head), ("foot", foot), ("catalogue", catalogue), ("service", service), ("layer", layer),
        ("query", query), ("versions", versions), ("signin", signIn), ("signout", signOut), ("error", error),
    ]

    static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="same-origin">
    {{#chrome}}<title>{{title}} · MapRules</title>{{/chrome}}
    <link rel="stylesheet" href="/arcgis/rest/static/maprules.css">
    </head>
    <body>
    {{#chrome}}
    <header class="bar"><div class="bar-inner">
    <a class="brand" href="/arcgis/rest/services">MapRules<span>ArcGIS REST Services Directory</span></a>
    <div class="who">
    {{#signedInAs}}<span>Signed in as <strong>{{signedInAs}}</strong></span>{{#canSignOut}}<span>·</span><form class="inline" method="post" action="/arcgis/rest/logout"><button type="submit" class="link">Sign out</button></form>{{/canSignOut}}{{/signedInAs}}
    {{^signedInAs}}<a href="{{signInHref}}">Sign in</a>{{/signedInAs}}
    </div>
    </div></header>
    <div class="wrap">
    <nav class="crumbs" aria-label="Breadcrumb"><ol>{{#crumbs}}<li>{{#href}}<a href="{{href}}">{{label}}</a>{{/href}}{{^href}}<span aria-current="page">{{label}}</span>{{/href}}</li>{{/crumbs}}</ol></nav>
    <main>
    <div class="title-row"><h1>{{title}}{{#kind}}<span class="kind">{{kind}}</span>{{/kind}}</h1>{{#jsonHref}}<a class="json" href="{{jsonHref}}">View as JSON</a>{{/jsonHref}}</div>
    {{/chrome}}

    """

    static let foot = """
    </main>
    </div>
    <footer class="foot">MapRules embedded feature service · ArcGIS REST API {{version}}</footer>
    </body>
    </html>

    """

    static let catalogue = """
    {{>head}}
    <p class="lead">The feature services of this server. Open one to see its layers and tables, their fields, domains and features, and to query them.</p>
    {{#hasServices}}
    <div class="table-scroll"><table>
    <thead><tr><th>Service</th><th>Resources</th><th>Description</th></tr></thead>
    <tbody>
    {{#services}}<tr><td><a href="{{href}}">{{name}}</a></td><td>{{#resources}}<a class="tag" href="{{link}}">{{type}}</a>{{/resources}}</td><td>{{#summary}}{{summary}}{{/summary}}</td></tr>
    {{/services}}
    </tbody></table></div>
    {{/hasServices}}
    {{^services}}<p class="empty">No services are loaded.</p>{{/services}}
    {{>foot}}
    """

    static let service = """
    {{>head}}
    {{#serviceDescription}}<p class="lead">{{serviceDescription}}</p>{{/serviceDescription}}
    <div class="card"><dl class="facts">
    {{#facts}}<dt>{{term}}</dt><dd>{{detail}}</dd>{{/facts}}
    <dt>Capabilities</dt><dd>{{#capabilities}}<span class="tag">{{.}}</span>{{/capabilities}}</dd>
    {{#versionManagementHref}}<dt>Versions</dt><dd><a href="{{versionManagementHref}}">VersionManagementServer</a></dd>{{/versionManagementHref}}
    </dl></div>
    <h2>Layers</h2>
    {{#hasLayers}}<div class="table-scroll"><table>
    <thead><tr><th>ID</th><th>Layer</th><th>Geometry</th><th></th></tr></thead>
    <tbody>{{#layers}}<tr><td class="num">{{id}}</td><td><a href="{{href}}">{{name}}</a></td><td>{{geometry}}</td><td><a href="{{queryHref}}">Query</a></td></tr>
    {{/layers}}</tbody></table></div>{{/hasLayers}}
    {{^layers}}<p class="empty">No layers.</p>{{/layers}}
    <h2>Tables</h2>
    {{#hasTables}}<div class="table-scroll"><table>
    <thead><tr><th>ID</th><th>Table</th><th></th></tr></thead>
    <tbody>{{#tables}}<tr><td class="num">{{id}}</td><td><a href="{{href}}">{{name}}</a></td><td><a href="{{queryHref}}">Query</a></td></tr>
    {{/tables}}</tbody></table></div>{{/hasTables}}
    {{^tables}}<p class="empty">No tables.</p>{{/tables}}
    {{>foot}}
    """

    static let layer = """
    {{>head}}
    {{#layerDescription}}<p class="lead">{{layerDescription}}</p>{{/layerDescription}}
    <div class="card"><dl class="facts">
    {{#facts}}<dt>{{term}}</dt><dd>{{detail}}</dd>{{/facts}}
    <dt>Capabilities</dt><dd>{{#capabilities}}<span class="tag">{{.}}</span>{{/capabilities}}</dd>
    <dt>Operations</dt><dd><a href="{{queryHref}}">Query</a></dd>
    </dl></div>
    {{#drawing}}
    <figure class="drawing">
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="{{viewBox}}" role="img" aria-label="{{caption}}">
    {{#paths}}<path class="{{style}}" d="{{d}}"/>{{/paths}}
    {{#circles}}<circle class="pt" cx="{{x}}" cy="{{y}}" r="5"/>{{/circles}}
    </svg>
    <figcaption>{{caption}}</figcaption>
    </figure>
    {{/drawing}}
    <h2 id="fields">Fields</h2>
    <div class="table-scroll"><table>
    <thead><tr><th>Name</th><th>Type</th><th>Alias</th><th>Length</th><th>Nullable</th><th>Editable</th><th>Domain</th></tr></thead>
    <tbody>{{#fields}}<tr><td><code>{{name}}</code></td><td>{{type}}</td><td>{{alias}}</td><td class="num">{{length}}</td><td>{{nullable}}</td><td>{{editable}}</td><td>{{#domain}}<span class="domain-name">{{domainName}}</span> <span class="muted">{{domainKind}}</span>{{#hasCodedValues}}<ul class="values">{{#codedValues}}<li><code>{{code}}</code> {{label}}</li>{{/codedValues}}</ul>{{/hasCodedValues}}{{#range}}<div>{{range}}</div>{{/range}}{{/domain}}</td></tr>
    {{/fields}}</tbody></table></div>
    {{#hasRelationships}}
    <h2>Relationships</h2>
    <div class="table-scroll"><table>
    <thead><tr><th>ID</th><th>Name</th><th>Related</th><th>Cardinality</th><th>Role</th><th>Key field</th></tr></thead>
    <tbody>{{#relationships}}<tr><td class="num">{{id}}</td><td>{{name}}</td><td><a href="{{relatedHref}}">{{relatedLabel}}</a></td><td>{{cardinality}}</td><td>{{role}}</td><td><code>{{keyField}}</code></td></tr>
    {{/relationships}}</tbody></table></div>
    {{/hasRelationships}}
    {{#hasTemplates}}
    <h2>Templates</h2>
    <div class="table-scroll"><table>
    <thead><tr><th>Name</th><th>Description</th><th>Prototype attributes</th></tr></thead>
    <tbody>{{#templates}}<tr><td>{{name}}</td><td>{{description}}</td><td>{{#attributes}}<div><code>{{field}}</code> = {{value}}</div>{{/attributes}}</td></tr>
    {{/templates}}</tbody></table></div>
    {{/hasTemplates}}
    {{>foot}}
    """

    static let query = """
    {{>head}}
    <div class="card">
    <form class="query" method="get" action="{{action}}">
    <input type="hidden" name="f" value="html">
    <div class="wide"><label for="where">Where <span class="hint">A SQL condition, e.g. 1=1 or OBJECTID &lt; 10</span></label><input type="text" id="where" name="where" value="{{form.whereClause}}"></div>
    <div><label for="outFields">Out fields <span class="hint">Comma list, or * for all</span></label><input type="text" id="outFields" name="outFields" value="{{form.outFields}}"></div>
    <div><label for="orderByFields">Order by fields <span class="hint">e.g. OBJECTID DESC</span></label><input type="text" id="orderByFields" name="orderByFields" value="{{form.orderByFields}}"></div>
    <div><label for="resultOffset">Result offset</label><input type="number" min="0" id="resultOffset" name="resultOffset" value="{{form.resultOffset}}"></div>
    <div><label for="resultRecordCount">Result record count</label><input type="number" min="1" id="resultRecordCount" name="resultRecordCount" value="{{form.resultRecordCount}}"></div>
    <div><label for="returnGeometry">Return geometry</label><select id="returnGeometry" name="returnGeometry">{{#form.geometryChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/form.geometryChoices}}</select></div>
    <div><label for="gdbVersion">Version <span class="hint">gdbVersion; empty for the default</span></label>{{#form.hasVersionChoices}}<select id="gdbVersion" name="gdbVersion">{{#form.versionChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/form.versionChoices}}</select>{{/form.hasVersionChoices}}{{^form.versionChoices}}<input type="text" id="gdbVersion" name="gdbVersion" value="{{form.gdbVersion}}">{{/form.versionChoices}}</div>
    <div class="wide actions"><button type="submit" class="primary">Query (GET)</button></div>
    </form>
    </div>
    {{#refusal}}<div class="notice error" role="alert"><strong>{{message}}</strong>{{#details}}<div>{{.}}</div>{{/details}}</div>{{/refusal}}
    {{#result}}
    <div class="pager"><div>{{summary}}</div><div class="links">{{#previousHref}}<a href="{{previousHref}}">‹ Previous</a>{{/previousHref}}{{#nextHref}}<a href="{{nextHref}}">Next ›</a>{{/nextHref}}<a href="{{resultJSONHref}}">This query as JSON</a></div></div>
    {{#hasRows}}
    <div class="table-scroll"><table class="results">
    <thead><tr>{{#columns}}<th title="{{alias}}">{{name}}</th>{{/columns}}{{#showGeometry}}<th>Geometry</th>{{/showGeometry}}</tr></thead>
    <tbody>{{#rows}}<tr>{{#cells}}<td{{#numeric}} class="num"{{/numeric}}>{{#isNull}}<span class="null">null</span>{{/isNull}}{{^isNull}}{{text}}{{/isNull}}</td>{{/cells}}{{#showGeometry}}<td class="mono">{{geometryText}}</td>{{/showGeometry}}</tr>
    {{/rows}}</tbody></table></div>
    {{/hasRows}}
    {{/result}}
    {{>foot}}
    """

    static let versions = """
    {{>head}}
    <div class="card"><dl class="facts">
    {{#facts}}<dt>{{term}}</dt><dd>{{detail}}</dd>{{/facts}}
    <dt>Capabilities</dt><dd>{{#capabilities}}<span class="tag">{{.}}</span>{{/capabilities}}</dd>
    </dl></div>
    <h2>Versions</h2>
    <p class="muted">{{visibility}}</p>
    {{#hasRows}}<div class="table-scroll"><table>
    <thead><tr><th>Name</th><th>Owner</th><th>Access</th><th>Description</th><th>Modified (UTC)</th><th></th></tr></thead>
    <tbody>{{#rows}}<tr><td><strong>{{versionName}}</strong></td><td>{{owner}}</td><td><span class="tag {{accessClass}}">{{access}}</span></td><td>{{description}}</td><td>{{modified}}</td><td><a href="{{infoHref}}">JSON</a></td></tr>
    {{/rows}}</tbody></table></div>{{/hasRows}}
    {{^rows}}<p class="empty">No versions you may see.</p>{{/rows}}
    {{>foot}}
    """

    static let signIn = """
    {{>head}}
    <div class="card signin">
    {{#failure}}<div class="notice error" role="alert">{{failure}}</div>{{/failure}}
    <form method="post" action="/arcgis/rest/login">
    <input type="hidden" name="next" value="{{next}}">
    <div class="field"><label for="username">User name</label><input type="text" id="username" name="username" value="{{username}}" autocomplete="username" required autofocus></div>
    <div class="field"><label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required></div>
    <div class="actions"><button type="submit" class="primary">Sign in</button><a href="{{next}}">Cancel</a></div>
    </form>
    </div>
    <p class="muted">Signing in keeps a token in a cookie of this browser for {{hours}} hours, so that pages show what your user may see (your private versions among them). Sign out ends it.</p>
    {{>foot}}
    """

    static let signOut = """
    {{>head}}
    <div class="card signin">
    {{#chrome.signedInAs}}<p>You are signed in as <strong>{{chrome.signedInAs}}</strong> in this browser.</p>
    <form method="post" action="/arcgis/rest/logout"><div class="actions"><button type="submit" class="primary">Sign out</button><a href="/arcgis/rest/services">Cancel</a></div></form>{{/chrome.signedInAs}}
    {{^chrome.signedInAs}}<p>You are not signed in.</p><p><a href="/arcgis/rest/login">Sign in</a></p>{{/chrome.signedInAs}}
    </div>
    {{>foot}}
    """

    static let error = """
    {{>head}}
    <div class="notice error" role="alert"><strong>{{message}}</strong> <span class="muted">(code {{code}})</span>
    {{#hasDetails}}<ul class="values">{{#details}}<li>{{.}}</li>{{/details}}</ul>{{/hasDetails}}</div>
    {{#needsSignIn}}<p><a href="{{signInLink}}">Sign in</a> to see this page.</p>{{/needsSignIn}}
    <p><a href="/arcgis/rest/services">Back to the services</a></p>
    {{>foot}}
    """
}
