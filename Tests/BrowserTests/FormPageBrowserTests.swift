import Foundation
import Testing

/// `maprules inspect --format html` draws each form as a crew sees it when a new feature opens it (forms.md,
/// "inspect"): groups, inputs, required marks, calculated values, hidden elements drawn as hidden. Checked in
/// headless Chromium against the JSON report of the same map.
@Suite(.enabled(if: ChromiumLocation.testsEnabled, "Chromium is not installed (apt-get install chromium)"), .serialized)
struct FormPageBrowserTests {
    @Test(arguments: ["Samples/DamageAssessment/DamageAssessment.json", "Samples/TreesOfPortland/TreesOfPortland.json"])
    func theInspectPageDrawsEachFormAsTheJSONDescribesIt(mapPath: String) async throws {
        let folder = try MapRulesTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("form.html").path
        let result = try await MapRulesTool.run(["inspect", mapPath, "--format", "html", "--output", file])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try await MapRulesTool.run(["inspect", mapPath, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let layers = try #require(report["layers"] as? [[String: Any]])
        let withForms = layers.enumerated().filter { $0.element["form"] != nil }
        #expect(!withForms.isEmpty)

        try await withBrowserPage { page in
            try await page.navigate("file://\(file)")
            for (index, layer) in withForms {
                let form = try #require(layer["form"] as? [String: Any])
                let elements = try #require(form["elements"] as? [[String: Any]])
                let card = "#layer-\(index + 1) .phone.form"
                func count(_ key: String, type: String = "field") -> Int {
                    elements.filter { $0["type"] as? String == type && $0[key] as? Bool == true }.count
                }
                #expect(try await page.count("\(card) .row.input") == elements.filter { $0["type"] as? String == "field" }.count)
                #expect(try await page.count("\(card) .section.group") == elements.filter { $0["type"] as? String == "group" }.count)
                #expect(try await page.count("\(card) .req") == count("required"))
                #expect(try await page.count("\(card) .ctl.calculated") == count("calculated"))
                #expect(try await page.count("\(card) .hidden") == elements.filter { $0["visible"] as? Bool == false }.count)
            }
            #expect(try await page.count("script") == 0)
            #expect(page.errors().isEmpty, "\(page.errors())")
            try await page.screenshot(to: Screenshots.path("inspect-form-\(URL(fileURLWithPath: mapPath).deletingPathExtension().lastPathComponent)"))
        }
    }
}
