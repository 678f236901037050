import Foundation
import Testing
import Rules
import WebMap

/// A large map (a scaled-down `Benchmarks/lint-scale.sh`): work done aside (schema validation on a second
/// thread, the tree freed on another) gives the findings of a serial run in the same order, and expressions
/// with the same text in different layers are each reported at their own place.
@Suite struct LargeMapLintTests {
    /// Four expression texts: one that lints clean, then an unknown field and function, a syntax error, and a
    /// relationship the layer does not have with an unknown function.
    static let texts = [
        #"Upper($feature.Address) + ' (' + $feature.Condition + ')'"#,
        #"$feature.Conditon + Q()"#,
        #"var x = ; return $feature.Adress"#,
        #"FeatureSetByRelationshipName($feature, 'Inspections') + Q(1)"#,
    ]

    /// `count` Trees layers, one per line, with schema violations, unknown fields, unknown functions and syntax
    /// errors in repeated expression texts (layer `k` uses text `k % 4`).
    static func map(layers count: Int) -> String {
        let layers = (0..<count).map { k in
            let visibility = k % 7 == 3 ? #""yes""# : "true"
            let expression = Self.texts[k % Self.texts.count].replacingOccurrences(of: "\"", with: "\\\"")
            return #"{"id": "Trees_\#(k)", "title": "Trees \#(k)", "layerType": "ArcGISFeatureLayer", "url": "\#(Examples.treesURL)", "visibility": \#(visibility), "popupInfo": {"title": "{Address}", "fieldInfos": [{"fieldName": "expression/e", "label": "E", "visible": true}], "expressionInfos": [{"name": "e", "title": "E", "expression": "\#(expression)"}], "popupElements": [{"type": "fields"}]}}"#
        }
        return "{\"operationalLayers\": [\n" + layers.joined(separator: ",\n")
            + "\n], \"baseMap\": {\"title\": \"Topographic\", \"baseMapLayers\": []}, \"version\": \"2.28\"}\n"
    }

    static func lint(_ text: String, workAsideMinimumSize: Int) throws -> [Diagnostic] {
        var options = LintOptions()
        options.workAsideMinimumSize = workAsideMinimumSize
        return try lint(text, services: Examples.treesSnapshot, with: [options])[0]
    }

    /// The findings for `text` (written as `map.json`, `services` beside it as `map.services.json`, in a folder
    /// of its own) linted once with each of `options`.
    static func lint(_ text: String, services: String?, with options: [LintOptions]) throws -> [[Diagnostic]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("large-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("map.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if let services { try Data(services.utf8).write(to: folder.appendingPathComponent("map.services.json")) }
        return try options.map { try Linter(options: $0).lint(path: path, isExplicit: true)?.diagnostics ?? [] }
    }

    @Test func workAsideGivesTheSerialFindingsInTheSameOrder() throws {
        let text = Self.map(layers: 400)
        let serial = try Self.lint(text, workAsideMinimumSize: .max)
        let aside = try Self.lint(text, workAsideMinimumSize: 0)
        #expect(aside == serial)
        let rules = Set(serial.map(\.ruleId))
        for rule in ["schema/invalid", "arcade/unknown-field", "arcade/unknown-function", "arcade/syntax", "arcade/unknown-relationship"] {
            #expect(rules.contains(rule), "no \(rule) finding: \(rules.sorted())")
        }
        #expect(serial.filter { $0.ruleId == "schema/invalid" }.count >= 400 / 7)
    }

    /// Layer `k`'s expression is on line `k + 2`: each layer sharing a text has its own findings, on its line.
    @Test func expressionsWithTheSameTextAreReportedEachAtItsOwnPlace() throws {
        let count = 40
        let found = try Self.lint(Self.map(layers: count), workAsideMinimumSize: .max)
        for (rule, text) in [("arcade/unknown-field", 1), ("arcade/syntax", 2), ("arcade/unknown-field", 2), ("arcade/unknown-function", 3)] {
            let layers = (0..<count).filter { $0 % 4 == text }
            let lines = found.filter { $0.ruleId == rule && $0.pointer.hasSuffix("/expression") }.map(\.line)
            for k in layers {
                #expect(lines.contains(k + 2), "\(rule): nothing on line \(k + 2) (layer \(k))")
            }
        }
        let unknownFields = found.filter { $0.ruleId == "arcade/unknown-field" }
        #expect(Set(unknownFields.map(\.pointer)).count == unknownFields.count, "one unknown field per expression")
        #expect(unknownFields.count == count / 2)
    }
}
