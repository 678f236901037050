import Foundation
import Report
import Rules
import Testing
import WebMap

/// Fixes in the JSON report and the unified diff of `--fix-dry-run`.
@Suite struct FixReportTests {
    static let fix = Fix(
        description: "Set `isEditable` to false for field 'Ward'.",
        patch: [PatchOperation(op: .replace, path: "/operationalLayers/0/popupInfo/fieldInfos/2/isEditable", value: .bool(false))],
        edits: [TextEdit(offset: 120, length: 4, text: "false", start: SourcePosition(line: 9, column: 70), end: SourcePosition(line: 9, column: 74))])

    static var report: LintReport {
        var files = ReportFixtures.report.files
        files[0].diagnostics[2].fix = fix
        files[0].diagnostics[3].fix = Fix(description: "Remove the repeated entry.",
                                          patch: [PatchOperation(op: .remove, path: "/operationalLayers/0/popupInfo/fieldInfos/7")], edits: [])
        return LintReport(files: files)
    }

    @Test func jsonReportWritesDescriptionAndPatchAndValidates() throws {
        let output = ReportFixtures.render(.json, Self.report)
        let root = try #require(try ReportFixtures.jsonObject(output) as? [String: Any])
        let files = try #require(root["files"] as? [[String: Any]])
        let diagnostics = try #require(files[0]["diagnostics"] as? [[String: Any]])
        let fix = try #require(diagnostics[2]["fix"] as? [String: Any])
        #expect(Set(fix.keys) == ["description", "patch"])
        let patch = try #require(fix["patch"] as? [[String: Any]])
        #expect(patch.count == 1 && patch[0]["op"] as? String == "replace" && patch[0]["value"] as? Bool == false)
        let removal = try #require((diagnostics[3]["fix"] as? [String: Any])?["patch"] as? [[String: Any]])
        #expect(Set(removal[0].keys) == ["op", "path"])
        #expect(diagnostics[0]["fix"] == nil)
        #expect(output.contains(#""path": "/operationalLayers/0/popupInfo/fieldInfos/2/isEditable","#))

        let schemaURL = ReportFixtures.packageRoot.appendingPathComponent("Schemas/report.schema.json")
        let validator = MiniSchemaValidator(root: try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)))
        #expect(validator.errors(root) == [])
        // The fix part of the schema has teeth too.
        var bad = root
        var badFiles = files
        var badDiagnostics = diagnostics
        badDiagnostics[2]["fix"] = ["description": "x", "patch": [["op": "move", "path": "/a"]]] as [String: Any]
        badDiagnostics[3]["fix"] = ["patch": [Any]()] as [String: Any]
        badFiles[0]["diagnostics"] = badDiagnostics
        bad["files"] = badFiles
        #expect(validator.errors(bad).count == 3, "\(validator.errors(bad))")

        // It decodes back to the same report.
        let decoded = try JSONDecoder().decode(LintReport.self, from: Data(output.utf8))
        #expect(decoded.files[0].diagnostics[2].fix == Self.fix)
    }

    @Test func stylishSaysHowManyProblemsAreFixable() {
        let output = ReportFixtures.render(.stylish, Self.report)
        #expect(output.hasSuffix("✖ 5 problems (3 errors, 1 warning, 1 info)\n  2 problems fixable with --fix (see the changes first with --fix-dry-run)\n"), "\(output)")
        #expect(!ReportFixtures.render(.stylish).contains("fixable"))
    }

    @Test func unifiedDiffShowsOnlyTheChangedLinesWithContext() {
        let old = (1...20).map { "line \($0)\n" }.joined()
        var new = old.replacingOccurrences(of: "line 5\n", with: "line five\n").replacingOccurrences(of: "line 17\n", with: "")
        new += "line 21"
        let diff = UnifiedDiff.render(path: "map.json", old: Array(old.utf8), new: Array(new.utf8))
        #expect(diff == """
            --- a/map.json
            +++ b/map.json
            @@ -2,7 +2,7 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8
            @@ -14,7 +14,7 @@
             line 14
             line 15
             line 16
            -line 17
             line 18
             line 19
             line 20
            +line 21
            \\ No newline at end of file

            """, "\(diff)")
        #expect(UnifiedDiff.render(path: "x", old: Array(old.utf8), new: Array(old.utf8)) == "")
        // One long minified line: one line out, one in.
        let minified = Array(("{" + String(repeating: "\"a\": 1, ", count: 10_000) + "\"b\": true}").utf8)
        var changed = minified
        changed.replaceSubrange((minified.count - 5)..<(minified.count - 1), with: Array("false".utf8))
        let single = UnifiedDiff.render(path: "m.json", old: minified, new: changed)
        #expect(single.hasPrefix("--- a/m.json\n+++ b/m.json\n@@ -1 +1 @@\n-{"))
        #expect(single.split(separator: "\n").count == 7)
    }
}
