import Foundation
import Testing

@Suite(.serialized) struct OtherCommandsTests {
    @Test func inspectListsTreesAsTheOnlyAddFeatureLayer() throws {
        let result = try CLI.run(["inspect", "Samples/TreesOfPortland/TreesOfPortland.json", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try #require(CLI.json(result.stdout) as? [String: Any])
        let add = try #require(json["addFeatureLayers"] as? [[String: Any]])
        #expect(add.compactMap { $0["title"] as? String } == ["Trees"])
        let layers = try #require(json["layers"] as? [[String: Any]])
        let trees = try #require(layers.first { $0["title"] as? String == "Trees" })
        #expect((trees["addFeature"] as? [String: Any])?["eligible"] as? Bool == true)
        #expect(!((trees["editableFields"] as? [[String: Any]]) ?? []).isEmpty)
        let kinds = ((trees["relationships"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.contains("many-to-one") && kinds.contains("one-to-many"), "\(kinds)")
        let neighborhoods = try #require(layers.first { $0["title"] as? String == "Neighborhoods" })
        #expect(((neighborhoods["addFeature"] as? [String: Any])?["failed"] as? [String])?.isEmpty == false)
        let text = try CLI.run(["inspect", "Samples/TreesOfPortland/TreesOfPortland.json"])
        #expect(text.stdout.contains("Add-feature layers: Trees"))
    }

    @Test func versionNameRules() throws {
        let bad = try CLI.run(["version-name", "editor.01", "--owner", "editor01"])
        #expect(bad.exitCode == 1)
        #expect(bad.stdout.contains("version/name-forbidden-character"))
        let good = try CLI.run(["version-name", "Storm survey", "--owner", "editor01", "--format", "json"])
        #expect(good.exitCode == 0)
        let json = try #require(CLI.json(good.stdout) as? [String: Any])
        #expect(json["qualifiedName"] as? String == "editor01.Storm survey")
        #expect(json["valid"] as? Bool == true)
        let empty = try CLI.run(["version-name", "  ", "--format", "json"])
        #expect(empty.exitCode == 1)
        #expect(empty.stdout.contains("version/name-empty"))
    }

    @Test func rulesAndExplain() throws {
        let rules = try CLI.run(["rules", "--format", "json"])
        #expect(rules.exitCode == 0)
        let list = try #require(CLI.json(rules.stdout) as? [[String: Any]])
        #expect(list.count >= 50)
        for entry in list { #expect(entry["id"] != nil && entry["severity"] != nil && entry["summary"] != nil && entry["rationale"] != nil) }
        let explain = try CLI.run(["explain", "popup/unknown-field"])
        #expect(explain.exitCode == 0)
        #expect(explain.stdout.contains("Triggers on") && explain.stdout.contains("Does not trigger on"))
        let unknown = try CLI.run(["explain", "popup/unknown-feld"])
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr.contains("popup/unknown-field"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLI.run(["lint", "--format", "xml"]).exitCode == 2)
        #expect(try CLI.run(["no-such-command"]).exitCode == 2)
        let help = try CLI.run(["lint", "--help"])
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("Examples"))
    }
}
