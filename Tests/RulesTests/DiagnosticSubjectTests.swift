import Testing
import Rules
import WebMap

/// `Diagnostic.subject`: what a finding is about, without line numbers or array indexes (baselines use it).
@Suite struct DiagnosticSubjectTests {
    static func lint(_ map: String, recordSubjects: Bool) throws -> [Diagnostic] {
        var options = LintOptions()
        options.configuration = .default
        options.useDefaultSnapshots = false
        options.recordSubjects = recordSubjects
        options.snapshots = [try ServicesSnapshot(path: "s.json", root: JSONParser.parse(Examples.treesSnapshot).root)]
        return try #require(try Linter(options: options).lint(path: "/m/map.json", text: SourceText(string: map), isExplicit: true)).diagnostics
    }

    @Test func subjectNamesElementsByIdentityAndIsOnlyRecordedWhenAsked() throws {
        let map = Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": "Address", "visible": true},
                      {"fieldName": "Conditon", "label": "Condition", "visible": true}
            """)
        let plain = try Self.lint(map, recordSubjects: false)
        #expect(!plain.isEmpty && plain.allSatisfy { $0.subject == nil })
        let unknown = try #require(try Self.lint(map, recordSubjects: true).first { $0.ruleId == "popup/unknown-field" })
        let subject = try #require(unknown.subject)
        #expect(subject.hasPrefix("operationalLayers[id=Trees_1234]/popupInfo/fieldInfos[fieldName=Conditon]/fieldName="), "\(subject)")
        // The same finding in a reordered list and a reformatted file has the same subject.
        let reordered = Examples.map(fieldInfos: """
            {"fieldName":"Conditon","label":"Condition","visible":true}, {"fieldName": "Address", "label": "Address", "visible": true}
            """)
        let again = try #require(try Self.lint(reordered, recordSubjects: true).first { $0.ruleId == "popup/unknown-field" })
        #expect(again.pointer != unknown.pointer && again.line != unknown.line)
        #expect(again.subject == subject)
        // Another wrong name is another subject.
        let other = Examples.map(fieldInfos: #"{"fieldName": "Conditio", "label": "Condition", "visible": true}"#)
        #expect(try Self.lint(other, recordSubjects: true).first { $0.ruleId == "popup/unknown-field" }?.subject != subject)
    }
}
