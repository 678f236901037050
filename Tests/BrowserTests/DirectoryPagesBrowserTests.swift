import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The services directory of `maprules serve` walked in headless Chromium as a person walks it: catalogue,
/// service, layer, a query and its result, signing in to see a private version; hostile values stay text.
@Suite(.enabled(if: ChromiumLocation.testsEnabled, "Chromium is not installed (apt-get install chromium)"), .serialized)
struct DirectoryPagesBrowserTests {
    @Test func aPersonWalksFromTheCatalogueToAQueryResult() async throws {
        let server = try ServedSamples()
        defer { server.stop() }
        try await withBrowserPage { page in
            try await page.navigate("\(server.baseURL)/arcgis/rest/services")
            #expect(try await page.count("a[href$='/TreesOfPortland/FeatureServer']") >= 1)
            #expect(try await page.count("script") == 0)
            try await page.screenshot(to: Screenshots.path("directory-catalogue"))

            try await page.click("a[href$='/TreesOfPortland/FeatureServer']")
            #expect((try await page.evaluate("location.pathname") as? String)?.hasSuffix("/TreesOfPortland/FeatureServer") == true)
            let text = try await page.evaluate("document.body.textContent") as? String ?? ""
            #expect(text.contains("Trees") && text.contains("Inspections"))
            try await page.screenshot(to: Screenshots.path("directory-service"))

            // The Trees layer: its fields with types, aliases and coded values, and a drawing of its features.
            try await page.navigate("\(server.baseURL)/arcgis/rest/services/TreesOfPortland/FeatureServer/0")
            let layerText = try await page.evaluate("document.body.textContent") as? String ?? ""
            for expected in ["Condition", "Site_Type", "Tree lawn / parkway", "Double"] { #expect(layerText.contains(expected), "\(expected)") }
            #expect(try await page.count("svg circle, svg path") >= 1)
            try await page.screenshot(to: Screenshots.path("directory-layer"))

            // The query form, submitted like a person: a table of results and a link to the same query as JSON.
            try await page.navigate("\(server.baseURL)/arcgis/rest/services/TreesOfPortland/FeatureServer/0/query")
            try await page.submitForm("form.query", fields: ["where": "1=1", "outFields": "*", "resultRecordCount": "5"])
            #expect((try await page.evaluate("location.search") as? String)?.contains("where=1%3D1") == true)
            #expect(try await page.count("table tbody tr") >= 1)
            let json = try await page.evaluate("Array.from(document.querySelectorAll('a')).map(a => a.href).filter(h => h.includes('f=json') || h.includes('f=pjson'))") as? [String] ?? []
            #expect(!json.isEmpty)
            #expect(page.errors().isEmpty, "\(page.errors())")
            try await page.screenshot(to: Screenshots.path("directory-query"))
            // The JSON link answers the same features as JSON.
            if let link = json.first {
                let (data, _) = try await URLSession.shared.data(from: URL(string: link)!)
                let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect((answer?["features"] as? [Any])?.isEmpty == false)
            }
        }
    }

    @Test func signingInShowsThePrivateVersionOfThatUserOnly() async throws {
        let server = try ServedSamples()
        defer { server.stop() }
        let token = try await server.json("/arcgis/sharing/rest/generateToken",
                                          form: ["username": "editor01", "password": "sample-editor01", "f": "json", "client": "requestip"])
        let value = try #require(token["token"] as? String)
        let versions = "/arcgis/rest/services/DamageAssessment/VersionManagementServer"
        let created = try await server.json("\(versions)/create", form: [
            "versionName": "SecretSurvey", "accessPermission": "private", "description": "only editor01", "f": "json", "token": value,
        ])
        #expect((created["versionInfo"] as? [String: Any])?["versionName"] as? String == "editor01.SecretSurvey", "\(created)")

        try await withBrowserPage { page in
            try await page.navigate("\(server.baseURL)\(versions)")
            #expect(!(try await page.evaluate("document.body.textContent") as? String ?? "").contains("SecretSurvey"))
            try await page.navigate("\(server.baseURL)/arcgis/rest/login?next=\(versions)")
            try await page.screenshot(to: Screenshots.path("directory-sign-in"))
            try await page.submitForm("form[action='/arcgis/rest/login']", fields: ["username": "editor01", "password": "sample-editor01"])
            #expect((try await page.evaluate("location.pathname") as? String) == versions)
            let text = try await page.evaluate("document.body.textContent") as? String ?? ""
            #expect(text.contains("editor01.SecretSurvey"))
            #expect(text.contains("editor01"))
            // The token is in an HttpOnly cookie: never in the URL, the page, or a script's reach.
            #expect(try await page.evaluate("document.cookie") as? String == "")
            #expect(!(try await page.evaluate("location.href") as? String ?? "").contains(value))
            #expect(!(try await page.dom()).contains(value))
            try await page.screenshot(to: Screenshots.path("directory-versions"))

            // A wrong password: the form again, no session.
            try await page.navigate("\(server.baseURL)/arcgis/rest/login?next=\(versions)")
            try await page.submitForm("form[action='/arcgis/rest/login']", fields: ["username": "editor02", "password": "wrong"])
            #expect((try await page.evaluate("location.pathname") as? String) == "/arcgis/rest/login")
            #expect(page.errors().filter { !$0.contains("401") }.isEmpty, "\(page.errors())")
        }
    }

    @Test func hostileValuesOfAServiceStayTextOnEveryPage() async throws {
        let fixture = MapRulesTool.packageRoot.appendingPathComponent("Tests/Fixtures/hostile-service").path
        let server = try ServedSamples(arguments: [fixture])
        defer { server.stop() }
        try await withBrowserPage { page in
            try await page.navigate("\(server.baseURL)/arcgis/rest/services")
            let service = try #require(try await page.evaluate("(document.querySelector(\"a[href$='/FeatureServer']\") || {}).href") as? String)
            for (url, name) in [(service, "hostile-service"), ("\(service)/0", "hostile-layer"),
                                ("\(service)/0/query?where=1%3D1&outFields=*", "hostile-query")] {
                try await page.navigate(url)
                #expect(try await page.count("img") == 0, "\(name): markup became an element")
                #expect(try await page.count("script") == 0, "\(name): markup became a script")
                #expect((try await page.evaluate("document.body.textContent") as? String ?? "").contains("<img src=x onerror=alert(1)>"), "\(name)")
                #expect(page.errors().isEmpty, "\(name): \(page.errors())")
                try await page.screenshot(to: Screenshots.path(name))
            }
        }
    }
}
