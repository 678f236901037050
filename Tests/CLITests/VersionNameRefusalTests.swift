import Foundation
import Testing

/// `maprules version-name` refuses what issue 31 (item 8) found accepted, each with the rule that forbids it.
struct VersionNameRefusalTests {
    @Test func anEmptyOwnerIsVersionNameEmpty() throws {
        let result = try CLI.run(["version-name", "MyWork", "--owner", "", "--format", "json"])
        #expect(result.exitCode == 1, "\(result.stdout)")
        let output = try #require(try CLI.json(result.stdout) as? [String: Any])
        #expect(output["valid"] as? Bool == false)
        #expect(output["qualifiedName"] == nil || output["qualifiedName"] is NSNull)
        let rules = ((output["violations"] as? [[String: Any]]) ?? []).compactMap { $0["ruleId"] as? String }
        #expect(rules == ["version/name-empty"], "\(rules)")
    }

    @Test func aRightToLeftOverrideIsAControlCharacter() throws {
        let result = try CLI.run(["version-name", "Work\u{202E}kroW", "--owner", "editor01"])
        #expect(result.exitCode == 1, "\(result.stdout)")
        #expect(result.stdout.contains("version/name-control-character"), "\(result.stdout)")
        #expect(result.stdout.contains("U+202E"), "\(result.stdout)")
        #expect(!result.stdout.contains("editor01.Work"), "no qualified name is printed for an invalid name")
    }
}
