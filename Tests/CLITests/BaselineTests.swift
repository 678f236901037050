import Foundation
import Testing

/// `maprules lint --write-baseline` and `--baseline`: fingerprints that survive reformatting, reordering
/// layers and moving files.
@Suite(.serialized) struct BaselineTests {
    /// A map with two layers, each with its own findings (an unknown field, a missing label, a duplicate).
    static let map = """
        {
          "operationalLayers": [
            {
              "id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer",
              "url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/0",
              "popupInfo": {"title": "{Address}", "fieldInfos": [
                {"fieldName": "Conditon", "label": "Condition", "visible": true},
                {"fieldName": "Address", "visible": true}
              ], "popupElements": [{"type": "fields"}]}
            },
            {
              "id": "Trees_copy", "title": "Trees (copy)", "layerType": "ArcGISFeatureLayer",
              "url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/0",
              "popupInfo": {"title": "{Address}", "fieldInfos": [
                {"fieldName": "Address", "label": "Address", "visible": true},
                {"fieldName": "ADDRESS", "label": "Address again", "visible": true}
              ], "popupElements": [{"type": "fields"}]}
            }
          ],
          "baseMap": {"title": "Topographic", "baseMapLayers": []}
        }
        """

    static func setUp() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("maps"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("ci"), withIntermediateDirectories: true)
        try Data(map.utf8).write(to: dir.appendingPathComponent("maps/trees.json"))
        let services = CLI.packageRoot.appendingPathComponent("Samples/Broken/popup--missing-label.services.json")
        try FileManager.default.copyItem(at: services, to: dir.appendingPathComponent("maps/services.json"))
        return dir
    }

    static func count(_ result: CLIResult) throws -> Int {
        let report = try #require(try CLI.json(result.stdout) as? [String: Any], "\(result.stdout.prefix(300)) \(result.stderr)")
        let summary = try #require(report["summary"] as? [String: Int])
        return (summary["errors"] ?? 0) + (summary["warnings"] ?? 0) + (summary["infos"] ?? 0)
    }

    @Test func baselineFileIsSortedStableAndRelativeToItsFolder() throws {
        let dir = try Self.setUp()
        let written = try CLI.run(["lint", "maps", "--write-baseline", "ci/baseline.json", "--format", "json"], in: dir)
        #expect(written.exitCode == 0, "\(written.stderr)")
        #expect(try Self.count(written) >= 3)
        let text = try String(contentsOf: dir.appendingPathComponent("ci/baseline.json"), encoding: .utf8)
        let baseline = try #require(try CLI.json(text) as? [String: Any])
        #expect(baseline["tool"] as? String == "maprules" && baseline["version"] as? Int == 1)
        let entries = try #require(baseline["entries"] as? [[String: Any]])
        #expect(entries.count >= 3)
        for entry in entries {
            #expect(entry["file"] as? String == "../maps/trees.json", "\(entry)")
            #expect(Set(entry.keys) == ["file", "ruleId", "layer", "subject", "fingerprint", "count"])
            #expect((entry["fingerprint"] as? String)?.count == 64)
            #expect(!((entry["subject"] as? String) ?? "").contains("/0/"), "no array index: \(entry)")
        }
        let keys = entries.map { "\($0["file"]!)\u{0}\($0["ruleId"]!)\u{0}\($0["subject"]!)" }
        #expect(keys == keys.sorted())
        let unknown = try #require(entries.first { $0["ruleId"] as? String == "popup/unknown-field" })
        #expect(unknown["layer"] as? String == "id:Trees_1234")
        #expect((unknown["subject"] as? String)?.hasPrefix("operationalLayers[id=Trees_1234]/popupInfo/fieldInfos[fieldName=Conditon]/fieldName=") == true)
        // The same findings give the same bytes, whatever the current folder.
        _ = try CLI.run(["lint", "trees.json", "--write-baseline", "../ci/baseline.json"], in: dir.appendingPathComponent("maps"))
        #expect(try String(contentsOf: dir.appendingPathComponent("ci/baseline.json"), encoding: .utf8) == text)
        // Nothing new: exit 0, nothing reported.
        let checked = try CLI.run(["lint", "maps", "--baseline", "ci/baseline.json", "--format", "json"], in: dir)
        #expect(checked.exitCode == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(try Self.count(checked) == 0)
        #expect(checked.stderr.contains("0 baseline entries no longer occur"), "\(checked.stderr)")
    }

    @Test func fingerprintsSurviveReformattingReorderingAndMoving() throws {
        let dir = try Self.setUp()
        #expect(try CLI.run(["lint", "maps", "--write-baseline", "baseline.json"], in: dir).exitCode == 0)
        let mapURL = dir.appendingPathComponent("maps/trees.json")

        // Reformatted: minified onto one line, keys in another order.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: mapURL))
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: mapURL)
        var result = try CLI.run(["lint", "maps", "--baseline", "baseline.json", "--format", "json"], in: dir)
        #expect(try Self.count(result) == 0, "reformatted: \(result.stdout)")
        #expect(result.stderr.contains("0 baseline entries no longer occur"), "\(result.stderr)")

        // Layers (and fields) reordered.
        var map = try #require(object as? [String: Any])
        var layers = try #require(map["operationalLayers"] as? [[String: Any]])
        layers.reverse()
        var popup = try #require(layers[1]["popupInfo"] as? [String: Any])
        popup["fieldInfos"] = (popup["fieldInfos"] as? [Any]).map { Array($0.reversed()) }
        layers[1]["popupInfo"] = popup
        map["operationalLayers"] = layers
        try JSONSerialization.data(withJSONObject: map, options: [.prettyPrinted]).write(to: mapURL)
        result = try CLI.run(["lint", "maps", "--baseline", "baseline.json", "--format", "json"], in: dir)
        #expect(try Self.count(result) == 0, "reordered: \(result.stdout)")
        #expect(result.stderr.contains("0 baseline entries no longer occur"), "\(result.stderr)")

        // Moved and renamed (with its snapshot).
        let moved = dir.appendingPathComponent("elsewhere/deeper")
        try FileManager.default.createDirectory(at: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: mapURL, to: moved.appendingPathComponent("renamed.json"))
        try FileManager.default.moveItem(at: dir.appendingPathComponent("maps/services.json"), to: moved.appendingPathComponent("services.json"))
        result = try CLI.run(["lint", "elsewhere", "--baseline", "baseline.json", "--format", "json"], in: dir)
        #expect(result.exitCode == 0)
        #expect(try Self.count(result) == 0, "moved: \(result.stdout)")
        #expect(result.stderr.contains("0 baseline entries no longer occur"), "\(result.stderr)")
    }

    @Test func newFindingsAreReportedAndFixedOnesCounted() throws {
        let dir = try Self.setUp()
        #expect(try CLI.run(["lint", "maps", "--write-baseline", "baseline.json"], in: dir).exitCode == 0)
        let mapURL = dir.appendingPathComponent("maps/trees.json")
        // One finding fixed (the unknown field), one new (another unknown field on the other layer).
        let changed = Self.map
            .replacingOccurrences(of: #""fieldName": "Conditon""#, with: #""fieldName": "Condition""#)
            .replacingOccurrences(of: #""fieldName": "ADDRESS", "label": "Address again""#, with: #""fieldName": "Adress", "label": "Address again""#)
        try Data(changed.utf8).write(to: mapURL)
        let result = try CLI.run(["lint", "maps", "--baseline", "baseline.json", "--format", "json"], in: dir)
        #expect(result.exitCode == 1)
        let report = try #require(try CLI.json(result.stdout) as? [String: Any])
        let diagnostics = ((report["files"] as? [[String: Any]]) ?? []).flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
        #expect(diagnostics.map { $0["ruleId"] as? String } == ["popup/unknown-field"], "\(diagnostics)")
        #expect((diagnostics.first?["message"] as? String)?.contains("'Adress'") == true)
        // The fixed unknown field and the duplicate that went with 'ADDRESS' no longer occur.
        #expect(result.stderr.contains("2 baseline entries no longer occur"), "\(result.stderr)")
    }

    /// An Arcade finding is matched by the name it is about: editing the rest of the expression (a comment,
    /// another line) keeps it known, and only a new unknown name is reported.
    @Test func arcadeFindingsAreMatchedByTheNameTheyAreAbout() throws {
        let dir = try CLI.temporaryDirectory()
        let broken = CLI.packageRoot.appendingPathComponent("Samples/Broken")
        for name in ["arcade--unknown-field.json", "arcade--unknown-field.services.json"] {
            try FileManager.default.copyItem(at: broken.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        #expect(try CLI.run(["lint", ".", "--write-baseline", "baseline.json"], in: dir).exitCode == 0)
        let mapURL = dir.appendingPathComponent("arcade--unknown-field.json")
        let original = try String(contentsOf: mapURL, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "does not count", with: "never counts")
        #expect(edited != original)
        try Data(edited.utf8).write(to: mapURL)
        let same = try CLI.run(["lint", ".", "--baseline", "baseline.json", "--format", "json"], in: dir)
        #expect(same.exitCode == 0, "\(same.stdout.prefix(600))")
        #expect(same.stderr.contains("0 baseline entries no longer occur"), "\(same.stderr)")
        let added = edited.replacingOccurrences(of: "never counts", with: "never counts\\nvar extra = $feature.Nope2")
        try Data(added.utf8).write(to: mapURL)
        let result = try CLI.run(["lint", ".", "--baseline", "baseline.json", "--format", "json"], in: dir)
        let report = try #require(try CLI.json(result.stdout) as? [String: Any])
        let diagnostics = ((report["files"] as? [[String: Any]]) ?? []).flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
        #expect(diagnostics.map { $0["ruleId"] as? String } == ["arcade/unknown-field"], "\(diagnostics)")
        #expect((diagnostics.first?["message"] as? String)?.contains("Nope2") == true, "\(diagnostics)")
    }

    @Test func unusableBaselineIsAnErrorWithAHint() throws {
        let dir = try Self.setUp()
        let missing = try CLI.run(["lint", "maps", "--baseline", "nope.json"], in: dir)
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("nope.json") && missing.stderr.contains("--write-baseline"), "\(missing.stderr)")
        try Data(#"{"tool": "maprules", "version": 1, "entries": [{"file": 3}]}"#.utf8).write(to: dir.appendingPathComponent("bad.json"))
        let bad = try CLI.run(["lint", "maps", "--baseline", "bad.json"], in: dir)
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("bad.json") && bad.stderr.contains("not a MapRules baseline"), "\(bad.stderr)")
        // Where in the file, when there is a where; "not JSON" for what is not JSON at all.
        #expect(bad.stderr.contains("(/entries/0/file: "), "\(bad.stderr)")
        try Data([0xFF, 0xFE, 0x00, 0x7B]).write(to: dir.appendingPathComponent("binary.json"))
        let binary = try CLI.run(["lint", "maps", "--baseline", "binary.json"], in: dir)
        #expect(binary.exitCode == 2 && binary.stderr.contains("(not JSON)"), "\(binary.stderr)")
        let both = try CLI.run(["lint", "maps", "--baseline", "a.json", "--write-baseline", "b.json"], in: dir)
        #expect(both.exitCode == 2 && both.stderr.contains("exclude each other"), "\(both.stderr)")
    }
}
