import Testing
import Rules
import WebMap

/// The fixes rules attach to their diagnostics, applied as text edits: what they change and what they leave.
@Suite struct FixesTests {
    static func fixed(_ map: String, services: String = Examples.treesSnapshot, rule: String) throws -> (fix: Fix, text: String) {
        let found = ExampleRunner.diagnostics(for: .document(map, services: services)).filter { $0.ruleId == rule }
        let fix = try #require(found.first?.fix, "\(rule) has no fix: \(found.map(\.message))")
        let (bytes, applied) = FixApplier.apply([fix], to: Array(map.utf8))
        #expect(applied == [fix])
        return (fix, String(decoding: bytes, as: UTF8.self))
    }

    static func hasFix(_ map: String, services: String = Examples.treesSnapshot, rule: String) -> Bool {
        ExampleRunner.diagnostics(for: .document(map, services: services)).contains { $0.ruleId == rule && $0.fix != nil }
    }

    static let dbh = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
        {"name": "DBH", "type": "esriFieldTypeDouble", "alias": "Trunk diameter"},
              {"name": "PlantedBy", "type": "esriFieldTypeString", "alias": "Planted by"},
              {"name": "Ward", "type": "esriFieldTypeString", "alias": "Zone"},
              {"name": "Zone_", "type": "esriFieldTypeString", "alias": "Zone code"}
        """)])

    @Test func unknownFieldIsRenamedOnlyWhenOneFieldIsMeant() throws {
        let alias = try Self.fixed(Examples.map(fieldInfos: #"{"fieldName": "Trunk diameter", "label": "DBH", "visible": true}"#),
                                   services: Self.dbh, rule: "popup/unknown-field")
        #expect(alias.text.contains(#"{"fieldName": "DBH", "label": "DBH", "visible": true}"#))
        #expect(alias.fix.patch == [PatchOperation(op: .replace, path: "/operationalLayers/0/popupInfo/fieldInfos/0/fieldName", value: .string("DBH"))])
        let spelled = try Self.fixed(Examples.map(fieldInfos: #"{"fieldName": "planted_by", "label": "Planted by", "visible": true}"#),
                                     services: Self.dbh, rule: "popup/unknown-field")
        #expect(spelled.text.contains(#""fieldName": "PlantedBy""#))
        // A typo is a suggestion, not a fix; a name that is one field's alias and another's name spelled
        // otherwise ("zone": Ward's alias, and `Zone_`) is ambiguous.
        #expect(!Self.hasFix(Examples.map(fieldInfos: #"{"fieldName": "Conditon", "label": "C", "visible": true}"#), rule: "popup/unknown-field"))
        let ambiguous = Examples.map(fieldInfos: #"{"fieldName": "zone", "label": "Z", "visible": true}"#)
        #expect(ExampleRunner.diagnostics(for: .document(ambiguous, services: Self.dbh)).contains { $0.ruleId == "popup/unknown-field" })
        #expect(!Self.hasFix(ambiguous, services: Self.dbh, rule: "popup/unknown-field"))
        #expect(Self.hasFix(Examples.map(fieldInfos: #"{"fieldName": "Trunk diameter", "label": "D", "visible": true}"#), services: Self.dbh,
                            rule: "popup/unknown-field"))
    }

    @Test func missingLabelGetsTheAliasInTheObjectsOwnStyle() throws {
        let oneLine = try Self.fixed(Examples.map(fieldInfos: #"{"fieldName":"Address","visible":true}"#), services: Self.dbh, rule: "popup/missing-label")
        #expect(oneLine.text.contains(#"{"fieldName":"Address","label":"Address","visible":true}"#), "\(oneLine.text)")
        #expect(oneLine.fix.patch == [PatchOperation(op: .add, path: "/operationalLayers/0/popupInfo/fieldInfos/0/label", value: .string("Address"))])
        let spread = try Self.fixed(Examples.map(fieldInfos: "{\n            \"fieldName\"  :\"DBH\",\n            \"visible\": true\n          }"),
                                    services: Self.dbh, rule: "popup/missing-label")
        // Members on lines of their own: the label goes on a line of its own, indented alike, spaced as `fieldName`.
        #expect(spread.text.contains("{\n            \"fieldName\"  :\"DBH\",\n            \"label\"  :\"Trunk diameter\",\n            \"visible\": true\n          }"), "\(spread.text)")
        // No alias, no fix: the raw name would be no better.
        let noAlias = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: #"{"name": "Notes", "type": "esriFieldTypeString"}"#)])
        #expect(!Self.hasFix(Examples.map(fieldInfos: #"{"fieldName": "Notes", "visible": true}"#), services: noAlias, rule: "popup/missing-label"))
    }

    @Test func duplicateRemovalTakesItsCommaWhereverTheEntryIs() throws {
        let middle = try Self.fixed(Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": "A", "visible": true},
                      {"fieldName": "ADDRESS", "label": "B", "visible": true},
                      {"fieldName": "Condition", "label": "C", "visible": true}
            """), rule: "popup/duplicate-field")
        #expect(middle.text.contains("""
            {"fieldName": "Address", "label": "A", "visible": true},
                      {"fieldName": "Condition", "label": "C", "visible": true}
            """), "\(middle.text)")
        let last = try Self.fixed(Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": "A", "visible": true}, {"fieldName": "address", "label": "B", "visible": true}
            """), rule: "popup/duplicate-field")
        #expect(last.text.contains(#"[\#n          {"fieldName": "Address", "label": "A", "visible": true}\#n        ]"#), "\(last.text)")
    }

    @Test func tokenIsRemovedAndOtherParametersKept() throws {
        let url = Examples.treesURL + "?f=json&token=AbC123&where=1%3D1"
        let fixed = try Self.fixed(Examples.map(url: url), rule: "map/token-in-url")
        #expect(fixed.text.contains(#""url": "\#(Examples.treesURL)?f=json&where=1%3D1""#))
        let only = try Self.fixed(Examples.map(url: Examples.treesURL + "?token=AbC123"), rule: "map/token-in-url")
        #expect(only.text.contains(#""url": "\#(Examples.treesURL)""#))
    }

    @Test func editsKeepEverythingElseByteForByte() throws {
        let map = Examples.map(fieldInfos: #"{"fieldName": "GlobalID", "label": "G", "visible": true, "isEditable": true}"#)
        let fixed = try Self.fixed(map, rule: "popup/editable-readonly-type")
        #expect(fixed.text == map.replacingOccurrences(of: #""isEditable": true"#, with: #""isEditable": false"#))
        let edit = try #require(fixed.fix.edits.first)
        #expect(fixed.fix.edits.count == 1 && edit.length == 4 && edit.text == "false")
        // Overlapping fixes: the first in the file wins, the other waits for the next pass.
        let a = Fix(description: "a", patch: [], edits: [TextEdit(offset: 2, length: 3, text: "x", start: .start, end: .start)])
        let b = Fix(description: "b", patch: [], edits: [TextEdit(offset: 4, length: 1, text: "y", start: .start, end: .start)])
        let (bytes, applied) = FixApplier.apply([b, a], to: Array("0123456".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == "01x56" && applied == [a])
    }
}
