import Foundation
import Report
import Rules
import Testing

@Suite struct JSONReportTests {
    let output = ReportFixtures.render(.json)

    @Test func decodesBackToTheSameReport() throws {
        let decoded = try JSONDecoder().decode(LintReport.self, from: Data(output.utf8))
        #expect(decoded == ReportFixtures.report)
        #expect(decoded.files[0].diagnostics[1].message == ReportFixtures.trickyMessage)
    }

    @Test func hasTheKeysOfCLIMarkdown() throws {
        let root = try #require(try ReportFixtures.jsonObject(output) as? [String: Any])
        #expect(Set(root.keys) == ["tool", "files", "summary"])
        let tool = try #require(root["tool"] as? [String: Any])
        #expect(tool["name"] as? String == "maprules")
        #expect(tool["version"] as? String == MapRulesVersion.current)
        let summary = try #require(root["summary"] as? [String: Int])
        #expect(summary == ["files": 3, "errors": 3, "warnings": 1, "infos": 1])
        let files = try #require(root["files"] as? [[String: Any]])
        #expect(files.count == 3)
        for file in files { #expect(Set(file.keys) == ["path", "kind", "diagnostics"]) }
        let diagnostics = try #require(files[0]["diagnostics"] as? [[String: Any]])
        let base: Set<String> = ["ruleId", "severity", "message", "pointer", "line", "column"]
        #expect(Set(diagnostics[0].keys) == base)
        #expect(Set(diagnostics[1].keys) == base.union(["layer"]))
        #expect(Set(diagnostics[2].keys) == base.union(["layer", "metadataSource"]))
        let layer = try #require(diagnostics[2]["layer"] as? [String: Any])
        #expect(layer["id"] as? String == "Trees_1234")
        #expect(layer["title"] as? String == "Trees")
        #expect(diagnostics[2]["metadataSource"] as? String == "snapshot")
        #expect(diagnostics[2]["line"] as? Int == 41)
        // A layer without a title still has the key.
        let untitled = try #require(diagnostics[3]["layer"] as? [String: Any])
        #expect(untitled["title"] is NSNull)
    }

    @Test func keysComeInTheOrderCLIMarkdownShows() throws {
        func offset(_ key: String) throws -> Int {
            let range = try #require(output.range(of: "\"\(key)\":"))
            return output.distance(from: output.startIndex, to: range.lowerBound)
        }
        #expect(try offset("tool") < offset("files"))
        #expect(try offset("files") < offset("summary"))
        let order = ["ruleId", "severity", "message", "pointer", "line", "column", "layer", "metadataSource"]
        let offsets = try order.map(offset)
        #expect(offsets == offsets.sorted())
        #expect(output.hasPrefix("{\n  \"tool\": {\n    \"name\": \"maprules\",\n"))
        #expect(!output.contains("\\/"), "slashes are not escaped")
        #expect(output.contains("Bäume, 🌳"), "non-ASCII is written as UTF-8")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(output.contains("\\u001b[31m"))
        #expect(output.contains("\\r\\nsecond line\\nthird"))
    }

    @Test func validatesAgainstTheReportSchema() throws {
        let schemaURL = ReportFixtures.packageRoot.appendingPathComponent("Schemas/report.schema.json")
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL))
        let validator = MiniSchemaValidator(root: schema)
        let instance = try ReportFixtures.jsonObject(output)
        #expect(validator.errors(instance) == [])
        let empty = try ReportFixtures.jsonObject(ReportFixtures.render(.json, LintReport(files: [])))
        #expect(validator.errors(empty) == [])

        // The schema is strict: an unknown key, a wrong enum value, a missing key are all reported.
        var root = try #require(instance as? [String: Any])
        root["extra"] = true
        #expect(!validator.errors(root).isEmpty)
        var bad = try #require(instance as? [String: Any])
        var files = try #require(bad["files"] as? [[String: Any]])
        var diagnostics = try #require(files[0]["diagnostics"] as? [[String: Any]])
        diagnostics[0]["severity"] = "fatal"
        diagnostics[1]["metadataSource"] = "cache"
        diagnostics[2].removeValue(forKey: "pointer")
        files[0]["diagnostics"] = diagnostics
        files[1]["kind"] = "layer"
        bad["files"] = files
        #expect(validator.errors(bad).count == 4)
    }
}
