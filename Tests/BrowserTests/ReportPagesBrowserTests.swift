import Foundation
import Testing

/// `maprules lint --format html` and `maprules inspect --format html` opened from disk in headless Chromium:
/// what must be on the rendered page, that hostile values stay text, and that the pages need nothing but
/// themselves (no request, no script, no policy violation).
@Suite(.enabled(if: ChromiumLocation.testsEnabled, "Chromium is not installed (apt-get install chromium)"), .serialized)
struct ReportPagesBrowserTests {
    @Test func theLintReportOfTheSamplesShowsEveryFindingWithItsSourceAndFiltersBySeverity() async throws {
        let folder = try MapRulesTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report.html").path
        let html = try await MapRulesTool.run(["lint", "Samples", "--format", "html", "--output", file])
        #expect(html.exitCode == 1, "\(html.stderr)")
        let json = try await MapRulesTool.run(["lint", "Samples", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Int])
        let files = try #require(report["files"] as? [[String: Any]])
        let withFindings = files.filter { !(($0["diagnostics"] as? [Any]) ?? []).isEmpty }
        let diagnostics = withFindings.flatMap { $0["diagnostics"] as? [[String: Any]] ?? [] }

        try await withBrowserPage { page in
            try await page.navigate("file://\(file)")
            #expect(try await page.evaluate("document.title") as? String ?? "" == "MapRules lint report: \(diagnostics.count) problems in \(withFindings.count) files of \(summary["files"]!)")
            let totals = try await page.texts(".cards .total b")
            #expect(totals.prefix(4) == ["\(summary["files"]!)", "\(summary["errors"]!)", "\(summary["warnings"]!)", "\(summary["infos"]!)"])
            #expect(try await page.count("details.file[id^=file-]") == withFindings.count)
            #expect(try await page.count("li.diagnostic[class*=sev-]") == diagnostics.count)
            // Every finding with a position in a readable file shows its source lines with the position marked.
            #expect(try await page.count("li.diagnostic pre.snippet .line.target mark") == diagnostics.count)
            // The first finding's marked line is the line the JSON report gives, and its message is the same.
            let first = try #require(diagnostics.first)
            #expect(try await page.texts("li.diagnostic .line.target .ln").first == "\(first["line"]!)")
            #expect(try await page.texts("li.diagnostic .message").first == first["message"] as? String)
            // The rule's summary, rationale and fix come with every finding.
            #expect(try await page.count("li.diagnostic details.why") == diagnostics.count)
            let ruleIds = Set(diagnostics.compactMap { $0["ruleId"] as? String })
            #expect(try await page.count("table.rules tbody tr") == ruleIds.count)
            try await page.screenshot(to: Screenshots.path("lint-report"))
            // Opening files (a click on each summary) shows their findings.
            _ = try await page.evaluate("Array.from(document.querySelectorAll('details.file[id^=file-] > summary')).slice(0, 3).forEach(s => s.click())")
            #expect(try await page.count("details.file[id^=file-][open]") == 3)
            try await page.screenshot(to: Screenshots.path("lint-report-expanded"))

            // Filters: un-ticking "Errors" hides every error and nothing else, without a server or script.
            // Shown: not hidden by the filter's style (files may be collapsed, which is another matter).
            let visibleErrors = "Array.from(document.querySelectorAll('li.sev-error')).filter(e => getComputedStyle(e).display !== 'none').length"
            let visibleWarnings = "Array.from(document.querySelectorAll('li.sev-warning')).filter(e => getComputedStyle(e).display !== 'none').length"
            let errors = diagnostics.filter { $0["severity"] as? String == "error" }.count
            let warnings = diagnostics.filter { $0["severity"] as? String == "warning" }.count
            #expect(try await page.evaluate(visibleErrors) as? Int == errors)
            _ = try await page.evaluate("document.querySelector('label[for=show-error]').click()")
            #expect(try await page.evaluate(visibleErrors) as? Int == 0)
            #expect(try await page.evaluate(visibleWarnings) as? Int == warnings)
            try await page.screenshot(to: Screenshots.path("lint-report-warnings-only"))

            // Self-contained: no request for anything, no script element, no policy violation.
            #expect(try await page.evaluate("performance.getEntriesByType('resource').length") as? Int == 0)
            #expect(try await page.count("script") == 0)
            #expect(page.errors().isEmpty, "\(page.errors())")
        }
    }

    @Test func hostileValuesInAMapStayTextInBothReports() async throws {
        let folder = try MapRulesTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = try HostileMaps.write(into: folder)
        let lint = folder.appendingPathComponent("lint.html").path
        let inspect = folder.appendingPathComponent("inspect.html").path
        _ = try await MapRulesTool.run(["lint", map.path, "--format", "html", "--output", lint])
        let inspected = try await MapRulesTool.run(["inspect", map.path, "--format", "html", "--output", inspect])
        #expect(inspected.exitCode == 0, "\(inspected.stderr)")

        try await withBrowserPage { page in
            for (file, name) in [(lint, "hostile-lint"), (inspect, "hostile-inspect")] {
                try await page.navigate("file://\(file)")
                #expect(try await page.count("img") == 0, "\(name): markup became an element")
                #expect(try await page.count("script") == 0, "\(name): markup became a script")
                let text = try await page.evaluate("document.body.innerText") as? String ?? ""
                #expect(text.contains(HostileMaps.image), "\(name): the value is not shown as text")
                #expect(page.errors().isEmpty, "\(name): \(page.errors())")
                try await page.screenshot(to: Screenshots.path(name))
            }
            // The inspect page shows the hostile alias-free label, the choice values and the map title as text.
            let choices = try await page.texts(".phone .choices span")
            #expect(choices == ["Choice \(HostileMaps.image)", "Choice \(HostileMaps.script)"])
            #expect(try await page.texts("header.top h1") == ["Map \(HostileMaps.image)"])
        }
    }

    @Test func theInspectPageDrawsWhatTheAppWillDoWithTheTreesMap() async throws {
        let folder = try MapRulesTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mapPath = "Samples/TreesOfPortland/TreesOfPortland.json"
        let file = folder.appendingPathComponent("trees.html").path
        let result = try await MapRulesTool.run(["inspect", mapPath, "--format", "html", "--output", file])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try await MapRulesTool.run(["inspect", mapPath, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let layers = try #require(report["layers"] as? [[String: Any]])

        try await withBrowserPage { page in
            try await page.navigate("file://\(file)")
            #expect(try await page.texts("section.card h3") == layers.map { $0["title"] as? String ?? "(untitled)" })
            for (index, layer) in layers.enumerated() {
                let card = "#layer-\(index + 1)"
                // Display fields in the map's order; editable ones with the control the app shows.
                let display = layer["displayFields"] as? [String] ?? []
                #expect(try await page.count("\(card) .phone .row.field") == display.count, "\(layer["title"]!)")
                let editable = layer["editableFields"] as? [[String: Any]] ?? []
                let controls = try await page.evaluate("""
                    Array.from(document.querySelectorAll('\(card) .phone .row.field .ctl')).filter(c => !c.classList.contains('readonly') && !c.classList.contains('unsupported')).length
                    """) as? Int
                #expect(controls == editable.filter { !["read-only", "unsupported"].contains($0["editor"] as? String ?? "") }.count, "\(layer["title"]!)")
                if layer["kind"] as? String == "feature layer" {
                    let add = layer["addFeature"] as? [String: Any]
                    let eligible = add?["eligible"] as? Bool ?? false
                    #expect(try await page.count("\(card) .addbutton.\(eligible ? "on" : "off")") == 1)
                    #expect(try await page.count("\(card) ul.failures li") == (add?["failed"] as? [Any])?.count ?? 0)
                }
                let relationships = layer["relationships"] as? [Any] ?? []
                #expect(try await page.count("\(card) .phone .related") == relationships.count, "\(layer["title"]!)")
            }
            // Choice lists show their values.
            #expect(try await page.count(".phone .ctl.choice") >= 1)
            #expect(try await page.count(".phone .choices span") >= 2)
            // The draw-order picture has a bar per operational layer.
            let operational = layers.filter { $0["kind"] as? String != "table" }.count
            #expect(try await page.count("svg.scales g") == operational)
            #expect(try await page.count("script") == 0)
            #expect(page.errors().isEmpty, "\(page.errors())")
            try await page.screenshot(to: Screenshots.path("inspect-trees"))
        }
    }

    @Test func aReportOfAThousandFilesOpensCollapsed() async throws {
        let folder = try MapRulesTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = MapRulesTool.packageRoot.appendingPathComponent("Samples/Broken/popup--unknown-field.json")
        let text = try String(contentsOf: source, encoding: .utf8)
        let maps = folder.appendingPathComponent("maps")
        try FileManager.default.createDirectory(at: maps, withIntermediateDirectories: true)
        for index in 0..<1_000 { try text.write(to: maps.appendingPathComponent("map-\(index).json"), atomically: false, encoding: .utf8) }
        // One snapshot for the folder (services.json), so that every copy's layer resolves and its error is found.
        try FileManager.default.copyItem(at: source.deletingLastPathComponent().appendingPathComponent("popup--unknown-field.services.json"),
                                         to: maps.appendingPathComponent("services.json"))
        let file = folder.appendingPathComponent("big.html").path
        let result = try await MapRulesTool.run(["lint", maps.path, "--format", "html", "--output", file])
        // Every copy has the error popup/unknown-field: exit 1.
        #expect(result.exitCode == 1, "\(result.stderr)")

        try await withBrowserPage { page in
            try await page.navigate("file://\(file)")
            let files = try await page.count("details.file[id^=file-]")
            #expect(files == 1_000)
            #expect(try await page.count("li.diagnostic.sev-error") == 1_000)
            #expect(try await page.count("details.file[id^=file-][open]") == 0)
            // Opening one file shows its findings.
            _ = try await page.evaluate("document.querySelector('#file-1 > summary').click()")
            #expect(try await page.evaluate("document.querySelector('#file-1 li.diagnostic').offsetParent !== null") as? Bool == true)
            try await page.screenshot(to: Screenshots.path("lint-report-1000-files"))
        }
    }
}
