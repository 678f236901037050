import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// The HTML services directory over HTTP: pages for `f=html` and browsers, JSON unchanged for every
/// other client, values escaped, and the sign-in cookie.
@Suite struct HTMLDirectoryTests {
    static let browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
    static let browser: HTTPFields = [.accept: browserAccept]
    static let trees = "/arcgis/rest/services/TreesOfPortland/FeatureServer"
    static let vms = "/arcgis/rest/services/DamageAssessment/VersionManagementServer"
    static let hostile = "/arcgis/rest/services/Hostile/FeatureServer"
    static let img = "<img src=x onerror=alert(1)>"
    static let script = "\"><script>alert(1)</script>"

    /// Every kind of page: the catalogue, a FeatureServer, a layer, a table, the query form, a query result,
    /// a VersionManagementServer and its versions listing.
    static let pages = [
        "/arcgis/rest/services", trees, "\(trees)/0", "\(trees)/1", "\(trees)/2", "\(trees)/0/query", "\(trees)/0/query?where=1%3D1",
        vms, "\(vms)/versions",
    ]

    static let hostileFolder: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile-service").path
    }()

    /// The router over a fresh core with both samples and the hostile service, and that core.
    static func app() async throws -> (ServiceCore, Application<RouterResponder<MapRulesRequestContext>>) {
        let core = try await ServiceCore.open(.init(database: ":memory:", sampleFolders: Fixtures.folders + [hostileFolder], usersFile: Fixtures.usersFile))
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let router = MapRulesServer.router(core: core, site: SiteInfo(tls: false, fallbackAuthority: "127.0.0.1:8080"),
                                           items: PortalItems.load(folders: Fixtures.folders), logger: logger)
        return (core, Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger))
    }

    static func with(_ uri: String, _ parameter: String) -> String { uri + (uri.contains("?") ? "&" : "?") + parameter }

    static func expectPage(_ response: TestResponse, _ uri: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == .ok, "\(uri): HTTP \(response.status)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(uri)", sourceLocation: sourceLocation)
        let policy = response.headers[.contentSecurityPolicy] ?? ""
        #expect(policy.contains("default-src 'none'") && policy.contains("style-src 'self'") && !policy.contains("unsafe-inline")
                && !policy.contains("script-src"), "\(uri): \(policy)", sourceLocation: sourceLocation)
        #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(uri)", sourceLocation: sourceLocation)
        #expect(response.text.hasPrefix("<!DOCTYPE html>"), "\(uri)", sourceLocation: sourceLocation)
        #expect(!response.text.contains("<script"), "\(uri)", sourceLocation: sourceLocation)
        #expect(response.text.contains("/arcgis/rest/static/maprules.css"), "\(uri)", sourceLocation: sourceLocation)
    }

    // MARK: Pages and negotiation

    @Test func everyPageAnswersHTMLForFormatHTMLAndForABrowser() async throws {
        let (_, app) = try await Self.app()
        try await app.test(.router) { client in
            for uri in Self.pages {
                Self.expectPage(try await client.execute(uri: Self.with(uri, "f=html"), method: .get), uri)
                Self.expectPage(try await client.execute(uri: uri, method: .get, headers: Self.browser), uri)
            }
            let css = try await client.execute(uri: Stylesheet.path, method: .get)
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8" && css.text.contains("nth-child(even)"))
        }
    }

    @Test func negotiationNeedsAnExplicitPreferenceForHTML() {
        #expect(HTMLNegotiation.prefersHTML(accept: Self.browserAccept))
        #expect(HTMLNegotiation.prefersHTML(accept: "text/html"))
        #expect(!HTMLNegotiation.prefersHTML(accept: "*/*"))
        #expect(!HTMLNegotiation.prefersHTML(accept: ""))
        #expect(!HTMLNegotiation.prefersHTML(accept: "application/json"))
        #expect(!HTMLNegotiation.prefersHTML(accept: "application/json, text/html"))
        #expect(!HTMLNegotiation.prefersHTML(accept: "text/html;q=0.5, application/json"))
        #expect(!HTMLNegotiation.prefersHTML(accept: "text/html;q=0"))
    }

    /// `f=json`, no `f` with `Accept: */*`, with JSON or with no `Accept`, and a browser's `Accept` with `f=json`
    /// all answer the very bytes the core's answer encodes to; `f=pjson` its indented text.
    @Test func jsonAnswersAreUnchanged() async throws {
        let (core, app) = try await Self.app()
        let anonymous = Caller.anonymous
        let query = QueryParameters(where: "1=1")
        let expected: [(String, JSON)] = [
            ("/arcgis/rest/services", core.catalogueInfo()),
            (Self.trees, try core.serviceInfo(service: "TreesOfPortland", as: anonymous)),
            ("\(Self.trees)/0", try core.layerInfo(service: "TreesOfPortland", layer: 0, as: anonymous)),
            ("\(Self.trees)/2", try core.layerInfo(service: "TreesOfPortland", layer: 2, as: anonymous)),
            ("\(Self.trees)/0/query?where=1%3D1", try OrderedJSONEncoder().encode(try await core.query(service: "TreesOfPortland", layer: 0, query, as: anonymous))),
            (Self.vms, try OrderedJSONEncoder().encode(try await core.versionManagementInfo(service: "DamageAssessment", as: anonymous))),
            ("\(Self.vms)/versions", try OrderedJSONEncoder().encode(try await core.versionInfos(service: "DamageAssessment", as: anonymous))),
        ]
        let queryBytes = try await core.queryText(service: "TreesOfPortland", layer: 0, query, as: anonymous)
        try await app.test(.router) { client in
            for (uri, document) in expected {
                let compact = uri.contains("/query") ? String(decoding: queryBytes, as: UTF8.self) : String(buffer: JSONBytes.buffer(document))
                let variants: [(String, HTTPFields)] = [
                    (Self.with(uri, "f=json"), [:]), (Self.with(uri, "f=json"), Self.browser), (uri, [:]), (uri, [.accept: "*/*"]),
                    (uri, [.accept: "application/json"]), (uri, [.accept: "application/json, text/html"]),
                ]
                for (variant, headers) in variants {
                    let response = try await client.execute(uri: variant, method: .get, headers: headers)
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(variant)")
                    #expect(response.headers[.contentSecurityPolicy] == nil, "\(variant)")
                    #expect(response.text == compact, "\(variant) \(headers)")
                }
                let pretty = try await client.execute(uri: Self.with(uri, "f=pjson"), method: .get, headers: Self.browser)
                #expect(pretty.text == PrettyJSON.text(document), "\(uri) f=pjson")
                // A POST without f is a client's, never a page.
                let posted = try await client.execute(uri: uri, method: .post, headers: Self.browser)
                #expect(posted.text == compact, "POST \(uri)")
            }
            // A resource without a page answers f=html as it answered any unknown f before: JSON.
            let info = try await client.execute(uri: "/arcgis/rest/info?f=json", method: .get)
            for headers in [HTTPFields(), Self.browser] {
                let asHTML = try await client.execute(uri: "/arcgis/rest/info?f=html", method: .get, headers: headers)
                #expect(asHTML.text == info.text && asHTML.headers[.contentType] == "application/json; charset=utf-8")
            }
            let feature = try await client.execute(uri: "\(Self.trees)/0/1?f=html", method: .get, headers: Self.browser)
            #expect(try feature.json["feature"] != nil)
        }
    }

    // MARK: Content

    @Test func pagesShowTheLayerFieldsDomainsRelationshipsAndDrawing() async throws {
        let (_, app) = try await Self.app()
        try await app.test(.router) { client in
            let catalogue = try await client.execute(uri: "/arcgis/rest/services?f=html", method: .get).text
            #expect(catalogue.contains("href=\"/arcgis/rest/services/DamageAssessment/VersionManagementServer\""))
            #expect(catalogue.contains("href=\"/arcgis/rest/services/TreesOfPortland/FeatureServer\""))
            #expect(catalogue.contains("Sign in"))

            let service = try await client.execute(uri: "\(Self.trees)?f=html", method: .get).text
            #expect(service.contains("href=\"/arcgis/rest/services/TreesOfPortland/FeatureServer/0\""))
            #expect(service.contains("Neighborhoods") && service.contains("Species") && service.contains("102100 (3857)"))

            let trees = try await client.execute(uri: "\(Self.trees)/0?f=html", method: .get).text
            #expect(trees.contains("<svg") && trees.contains("<circle"))
            #expect(trees.contains("Site_Type") && trees.contains("Tree lawn / parkway") && trees.contains("SiteType"))
            #expect(trees.contains("href=\"/arcgis/rest/services/TreesOfPortland/FeatureServer/2\""), "relationship to Species")
            #expect(trees.contains("A newly planted or newly surveyed tree."), "template")
            #expect(trees.contains("<li>Home</li>") == false && trees.contains(">Home</a>"))

            let neighborhoods = try await client.execute(uri: "\(Self.trees)/1?f=html", method: .get).text
            #expect(neighborhoods.contains("<path class=\"ar\""))
            let species = try await client.execute(uri: "\(Self.trees)/2?f=html", method: .get).text
            #expect(!species.contains("<svg"))
        }
    }

    @Test func queryPageShowsAFormThenATableWithPagingAndAJSONLink() async throws {
        let (_, app) = try await Self.app()
        try await app.test(.router) { client in
            let form = try await client.execute(uri: "\(Self.trees)/0/query", method: .get, headers: Self.browser).text
            #expect(form.contains("<form class=\"query\" method=\"get\"") && form.contains("name=\"where\"") && form.contains("name=\"gdbVersion\""))
            #expect(!form.contains("<table"))

            let first = try await client.execute(uri: "\(Self.trees)/0/query?f=html&where=1%3D1&outFields=OBJECTID,Address&orderByFields=OBJECTID&resultRecordCount=2",
                                                 method: .get).text
            #expect(first.components(separatedBy: "<tr>").count - 1 == 3, "a header row and two feature rows")
            #expect(first.contains(">Address</th>") && first.contains("Features 1–2 of"))
            #expect(first.contains("resultOffset=2&amp;resultRecordCount=2"), "next page link")
            #expect(first.contains("where=1%3D1&amp;outFields=OBJECTID%2CAddress&amp;orderByFields=OBJECTID&amp;resultOffset=0&amp;resultRecordCount=2&amp;returnGeometry=true&amp;f=json"))
            #expect(!first.contains("Previous"))

            let bad = try await client.execute(uri: "\(Self.trees)/0/query?f=html&where=drop%20table", method: .get)
            #expect(bad.status == .badRequest && bad.headers[.contentType] == "text/html; charset=utf-8" && bad.text.contains("notice error"))
            #expect(bad.text.contains("value=\"drop table\"") && bad.text.contains("character offset 0"), "the form stays, with the refusal")
            let missing = try await client.execute(uri: "/arcgis/rest/services/Nowhere/FeatureServer?f=html", method: .get)
            #expect(missing.status == .notFound && missing.headers[.contentType] == "text/html; charset=utf-8" && missing.text.contains("notice error"))

            let dates = try await client.execute(uri: "\(Self.trees)/0/query?f=html&where=OBJECTID%3D1&outFields=Planted_Date,Site_Type", method: .get).text
            #expect(dates.contains("2019-04-11") && dates.contains("Tree lawn / parkway (TL)"), "dates and coded values read as text")
        }
    }

    @Test func hostileValuesShowAsText() async throws {
        let (_, app) = try await Self.app()
        let escapedImage = "&lt;img src=x onerror=alert(1)&gt;"
        let escapedScript = "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
        try await app.test(.router) { client in
            for uri in ["/arcgis/rest/services", Self.hostile, "\(Self.hostile)/0", "\(Self.hostile)/1", "\(Self.hostile)/0/query?where=1%3D1",
                        "\(Self.hostile)/1/query?where=1%3D1&outFields=*"] {
                let response = try await client.execute(uri: Self.with(uri, "f=html"), method: .get)
                let page = response.text
                #expect(response.status == .ok && !page.contains("<img") && !page.contains("<script"), "\(uri)")
                #expect(page.contains(escapedImage) || page.contains(escapedScript), "\(uri)")
            }
            let layer = try await client.execute(uri: "\(Self.hostile)/0?f=html", method: .get).text
            for shown in ["Kinds \(escapedImage)", "Heights \(escapedScript)", "Template \(escapedScript)", "Notes \(escapedImage)", escapedImage, "0 – 100"] {
                #expect(layer.contains(shown), "layer page shows \(shown)")
            }
            let rows = try await client.execute(uri: "\(Self.hostile)/0/query?f=html&where=1%3D1", method: .get).text
            #expect(rows.contains("<td>\(escapedImage)</td>") && rows.contains("<td>\(escapedScript)</td>") && rows.contains("Plain &amp; simple"))
            #expect(rows.contains("title=\"\(escapedImage)\""), "an alias in an attribute")
        }
    }

    @Test func templatesNeverWriteUnescapedValues() {
        for (name, text) in HTMLTemplates.all {
            #expect(!text.contains("{{{") && !text.contains("{{&"), "\(name)")
            #expect(!text.contains("<script") && !text.contains("style=") && text.range(of: #" on[a-z]+="#, options: .regularExpression) == nil, "\(name)")
            #expect(HTMLTemplates.library.getTemplate(named: name) != nil)
        }
    }

    // MARK: Signing in

    static func signIn(_ client: some TestClientProtocol, _ username: String, password: String? = nil, next: String = "/arcgis/rest/services")
        async throws -> TestResponse {
        try await client.execute(uri: "/arcgis/rest/login", method: .post, headers: Form.headers,
                                 body: Form.body([("username", username), ("password", password ?? "sample-\(username)"), ("next", next)]))
    }

    /// The token in a `Set-Cookie` header.
    static func cookieToken(_ response: TestResponse) -> String? {
        guard let header = response.headers[.setCookie], header.hasPrefix("\(BrowserSession.cookieName)=") else { return nil }
        return header.dropFirst(BrowserSession.cookieName.count + 1).split(separator: ";").first.map(String.init)
    }

    @Test func signInSetsAStrictHttpOnlyCookieAndNeverShowsTheToken() async throws {
        let (_, app) = try await Self.app()
        try await app.test(.live) { client in
            let page = try await client.execute(uri: "/arcgis/rest/login?next=%2Farcgis%2Frest%2Fservices%2FTreesOfPortland%2FFeatureServer", method: .get,
                                                headers: Self.browser)
            Self.expectPage(page, "login")
            #expect(page.text.contains("method=\"post\" action=\"/arcgis/rest/login\"") && page.text.contains("value=\"/arcgis/rest/services/TreesOfPortland/FeatureServer\""))

            let next = "/arcgis/rest/services/TreesOfPortland/FeatureServer?f=html"
            let response = try await Self.signIn(client, "editor01", next: next)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == next)
            let header = response.headers[.setCookie] ?? ""
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/arcgis", "Max-Age="] { #expect(header.contains(attribute), "\(header)") }
            #expect(!header.contains("Secure"), "no TLS here")
            let token = try #require(Self.cookieToken(response))
            #expect(token.count >= 32)
            #expect(!(response.headers[.location] ?? "").contains(token) && !response.text.contains(token))

            let signedIn = try await client.execute(uri: next, method: .get, headers: [.cookie: "\(BrowserSession.cookieName)=\(token)"])
            Self.expectPage(signedIn, next)
            #expect(signedIn.text.contains("Signed in as <strong>editor01</strong>") && signedIn.text.contains("action=\"/arcgis/rest/logout\""))
            #expect(!signedIn.text.contains(token))
            #expect(!signedIn.text.contains("token="))

            // Sign out revokes the token and clears the cookie.
            let out = try await client.execute(uri: "/arcgis/rest/logout", method: .post, headers: [.cookie: "\(BrowserSession.cookieName)=\(token)"])
            #expect(out.status == .seeOther && out.headers[.location] == "/arcgis/rest/services")
            #expect((out.headers[.setCookie] ?? "").contains("Max-Age=0"))
            let after = try await client.execute(uri: next, method: .get, headers: [.cookie: "\(BrowserSession.cookieName)=\(token)"])
            #expect(after.status == .ok && after.text.contains(">Sign in</a>") && !after.text.contains("Signed in as"))
        }
    }

    @Test func wrongPasswordShowsTheFormAgainWithoutACookie() async throws {
        let (_, app) = try await Self.app()
        try await app.test(.router) { client in
            let response = try await Self.signIn(client, "editor01", password: "wrong", next: Self.vms)
            #expect(response.status == .ok && response.headers[.setCookie] == nil && response.headers[.location] == nil)
            Self.expectPage(response, "wrong password")
            #expect(response.text.contains("Wrong user name or password.") && response.text.contains("value=\"editor01\""))
            #expect(!response.text.contains("value=\"wrong\""), "the password is never written back")
        }
    }

    @Test func nextMustBeALocalPath() async throws {
        let (_, app) = try await Self.app()
        try await app.test(.router) { client in
            for next in ["https://evil.example/arcgis/", "//evil.example/arcgis/", "/\\evil.example", "/other/path", "javascript:alert(1)",
                         "/arcgis/rest/services\r\nSet-Cookie: x=y", ""] {
                let response = try await Self.signIn(client, "editor02", next: next)
                #expect(response.status == .seeOther && response.headers[.location] == "/arcgis/rest/services", "\(next)")
            }
            #expect(BrowserSession.safeNext("/arcgis/rest/services/DamageAssessment/VersionManagementServer") == "/arcgis/rest/services/DamageAssessment/VersionManagementServer")
        }
    }

    /// The cookie lets the person see their own private version on the VersionManagementServer page; other
    /// people and anonymous visitors do not, and the cookie does not sign in JSON requests or operations.
    @Test func aCookieShowsTheViewersPrivateVersion() async throws {
        let (_, app) = try await Self.app()
        try await app.test(.router) { client in
            let token = try await client.token("editor01")
            let created = try await client.post("\(Self.vms)/create", [("versionName", "mine"), ("description", "Mine \(Self.img)"),
                                                                         ("accessPermission", "private"), ("token", token)])
            #expect(created["success"]?.bool == true, "\(created)")
            let editor01 = try #require(Self.cookieToken(try await Self.signIn(client, "editor01")))
            let editor02 = try #require(Self.cookieToken(try await Self.signIn(client, "editor02")))
            func page(_ uri: String, cookie: String?) async throws -> String {
                var headers = Self.browser
                if let cookie { headers[.cookie] = "\(BrowserSession.cookieName)=\(cookie)" }
                return try await client.execute(uri: uri, method: .get, headers: headers).text
            }
            for uri in [Self.vms, "\(Self.vms)/versions"] {
                let own = try await page(uri, cookie: editor01)
                #expect(own.contains("editor01.mine") && own.contains("Private") && own.contains("Mine &lt;img"), "\(uri)")
                #expect(own.contains("Signed in as <strong>editor01</strong>"))
                #expect(!(try await page(uri, cookie: editor02)).contains("editor01.mine"))
                #expect(!(try await page(uri, cookie: nil)).contains("editor01.mine"))
                #expect(try await page(uri, cookie: nil).contains("sde.DEFAULT"))
            }
            // The version is a choice of the query form for its owner only.
            #expect(try await page("\(Self.trees.replacingOccurrences(of: "TreesOfPortland", with: "DamageAssessment"))/0/query", cookie: editor01)
                .contains("<option value=\"editor01.mine\""))
            // JSON is never signed in by the cookie.
            let json = try await client.execute(uri: "\(Self.vms)/versions?f=json", method: .get, headers: [.cookie: "\(BrowserSession.cookieName)=\(editor01)"])
            #expect(!json.text.contains("editor01.mine"))
            let operation = try await client.execute(uri: "\(Self.vms)/create?f=html&versionName=forged", method: .get,
                                                     headers: [.cookie: "\(BrowserSession.cookieName)=\(editor01)", .accept: Self.browserAccept])
            #expect(try operation.json["error"]?["code"]?.int == 499, "\(operation.text)")
            // A stale cookie reads as signed out, not as 498.
            let stale = try await client.execute(uri: Self.vms, method: .get, headers: [.cookie: "\(BrowserSession.cookieName)=0123", .accept: Self.browserAccept])
            #expect(stale.status == .ok && stale.text.contains(">Sign in</a>"))
        }
    }
}
