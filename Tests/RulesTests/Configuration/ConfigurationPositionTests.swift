import Foundation
import Rules
import Testing
import WebMap

/// Errors about a `.maprules.json` point at the place in the file (issue 31, item 8).
@Suite struct ConfigurationPositionTests {
    func load(_ text: String) throws -> RuleConfiguration {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(".maprules.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try ConfigurationFile.load(path: path)
    }

    /// An unknown rule ID was reported with the file name only; now with the line and column of its key, the
    /// first in the file when there are several.
    @Test func anUnknownRuleIdIsReportedAtItsLineAndColumn() throws {
        let configuration = try load("""
            {
              "rules": {"layer/hidden": "off",
                "popup/unknwn-field": "warning"},
              "overrides": [{"files": ["a/*.json"], "rules": {"zz/nothing": "off"}}]
            }
            """)
        do {
            try configuration.validate(knownIds: RuleCatalog.allIds)
            Issue.record("an unknown rule ID was accepted")
        } catch {
            #expect(error.position == SourcePosition(line: 3, column: 5), "\(error)")
            #expect(error.description.hasSuffix(".maprules.json:3:5: unknown rule ID 'popup/unknwn-field'. Did you mean 'popup/unknown-field'?"),
                    "\(error)")
        }
    }

    @Test func anUnknownRuleIdInAnOverrideIsReportedThereToo() throws {
        let configuration = try load("""
            {"overrides": [
              {"files": ["a/*.json"],
               "rules": {"layer/hiden": "off"}}]}
            """)
        #expect(throws: ConfigurationError.self) { try configuration.validate(knownIds: RuleCatalog.allIds) }
        do { try configuration.validate(knownIds: RuleCatalog.allIds) } catch {
            #expect(error.position == SourcePosition(line: 3, column: 14), "\(error)")
        }
    }
}
