import Foundation
import Testing

@Suite(.serialized) struct LintCommandTests {
    func report(_ result: CLIResult) throws -> [String: Any] {
        try #require(CLI.json(result.stdout) as? [String: Any], "not JSON: \(result.stdout.prefix(500)) \(result.stderr)")
    }

    func diagnostics(_ report: [String: Any]) -> [[String: Any]] {
        ((report["files"] as? [[String: Any]]) ?? []).flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
    }

    @Test(arguments: ["Samples/TreesOfPortland", "Samples/DamageAssessment", "Samples/Offline"])
    func cleanSamplesHaveNoErrorsOrWarnings(path: String) throws {
        let result = try CLI.run(["lint", path, "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let report = try report(result)
        let found = diagnostics(report).filter { ($0["severity"] as? String) != "info" }
        #expect(found.isEmpty, "\(found)")
        let summary = try #require(report["summary"] as? [String: Any])
        #expect((summary["files"] as? Int) == 1)
    }

    @Test func brokenSamplesShowEveryRuleOfTheirFamilies() throws {
        let result = try CLI.run(["lint", "Samples/Broken", "--format", "json"])
        #expect(result.exitCode == 1)
        let found = Set(diagnostics(try report(result)).compactMap { $0["ruleId"] as? String })
        let rules = try CLI.run(["rules", "--format", "json"])
        let all = try #require(CLI.json(rules.stdout) as? [[String: Any]]).compactMap { $0["id"] as? String }
        let families = ["json", "schema", "map", "layer", "add-feature", "popup", "form", "arcade", "related", "attachments", "offline"]
        for id in all where families.contains(String(id.split(separator: "/")[0])) {
            #expect(found.contains(id), "Samples/Broken shows no \(id)")
        }
    }

    @Test func brokenFilesFireTheRuleTheyAreNamedAfter() throws {
        let folder = CLI.packageRoot.appendingPathComponent("Samples/Broken")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".services.json") }
        #expect(!files.isEmpty)
        for file in files {
            let result = try CLI.run(["lint", "Samples/Broken/" + file, "--format", "json"])
            let ids = Set(diagnostics(try report(result)).compactMap { $0["ruleId"] as? String })
            let named = String(file.dropLast(5)).replacingOccurrences(of: "--", with: "/")
            let expected = named.split(separator: ".").first.map(String.init) ?? named
            #expect(ids.contains(expected), "\(file) does not show \(expected): \(ids)")
        }
    }

    /// A device is not read (reading /dev/zero never ended); what a pipe gives is read up to 1 GiB.
    @Test func aDeviceIsRefusedNotReadForever() throws {
        let result = try CLI.run(["lint", "/dev/zero"], timeout: 60)
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("/dev/zero: is a device, not a file"), "\(result.stderr)")
    }

    @Test func stylishIsTheDefaultAndHasNoColourInAPipe() throws {
        let result = try CLI.run(["lint", "Samples/Broken"])
        #expect(result.exitCode == 1)
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.contains("Samples/Broken/"))
        let coloured = try CLI.run(["lint", "Samples/Broken", "--color", "always"])
        #expect(coloured.stdout.contains("\u{1B}["))
    }

    @Test func outputIsDeterministic() throws {
        let a = try CLI.run(["lint", "Samples", "--format", "json"])
        let b = try CLI.run(["lint", "Samples", "--format", "json"])
        #expect(a.stdout == b.stdout)
        #expect(!a.stdout.isEmpty)
    }

    @Test func readsStandardInput() throws {
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/TreesOfPortland/TreesOfPortland.json"))
        let result = try CLI.run(["lint", "-", "--stdin-filename", "Samples/TreesOfPortland/TreesOfPortland.json", "--format", "json"], input: data)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let files = try #require(try report(result)["files"] as? [[String: Any]])
        #expect(files.first?["path"] as? String == "Samples/TreesOfPortland/TreesOfPortland.json")
    }

    @Test func ruleOptionsAndUnknownIds() throws {
        let off = try CLI.run(["lint", "Samples/Broken", "--format", "json", "--rule", "popup/unknown-field=off"])
        #expect(!diagnostics(try report(off)).contains { $0["ruleId"] as? String == "popup/unknown-field" })
        let unknown = try CLI.run(["lint", "Samples/Broken", "--rule", "popup/unknwn-field=off"])
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr.contains("popup/unknown-field"), "\(unknown.stderr)")
    }

    @Test func configurationFileOverridesAndValidation() throws {
        let dir = try CLI.temporaryDirectory()
        let broken = CLI.packageRoot.appendingPathComponent("Samples/Broken")
        for file in try FileManager.default.contentsOfDirectory(atPath: broken.path) where file.hasPrefix("popup--unknown-field") {
            try FileManager.default.copyItem(at: broken.appendingPathComponent(file), to: dir.appendingPathComponent(file))
        }
        let map = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).first { !$0.contains(".services.") })
        let before = try CLI.run(["lint", map, "--format", "json"], in: dir)
        #expect(before.exitCode == 1)
        try #"{"rules": {"popup/unknown-field": "warning"}}"#.write(to: dir.appendingPathComponent(".maprules.json"), atomically: true, encoding: .utf8)
        let after = try CLI.run(["lint", map, "--format", "json"], in: dir)
        #expect(after.exitCode == 0, "\(after.stdout)\(after.stderr)")
        #expect(diagnostics(try report(after)).contains { $0["ruleId"] as? String == "popup/unknown-field" && $0["severity"] as? String == "warning" })
        let maxWarnings = try CLI.run(["lint", map, "--max-warnings", "0"], in: dir)
        #expect(maxWarnings.exitCode == 1)
        try #"{"overrides": [{"files": ["*.json"], "rules": {"popup/*": "off"}}]}"#.write(to: dir.appendingPathComponent(".maprules.json"), atomically: true, encoding: .utf8)
        let overridden = try CLI.run(["lint", map, "--format", "json"], in: dir)
        #expect(!diagnostics(try report(overridden)).contains { ($0["ruleId"] as? String)?.hasPrefix("popup/") == true })
        // Off for the file but on again for one layer: the rule still runs, and reports about that layer only.
        try #"{"rules": {"popup/*": "off"}, "overrides": [{"layers": ["Trees_1234"], "rules": {"popup/unknown-field": "error"}}]}"#
            .write(to: dir.appendingPathComponent(".maprules.json"), atomically: true, encoding: .utf8)
        let perLayer = diagnostics(try report(try CLI.run(["lint", map, "--format", "json"], in: dir)))
        #expect(perLayer.map { $0["ruleId"] as? String } == ["popup/unknown-field"], "\(perLayer)")
        let offAgain = try CLI.run(["lint", map, "--format", "json", "--rule", "popup/unknown-field=off"], in: dir)
        #expect(diagnostics(try report(offAgain)).isEmpty)
        try #"{"rules": {"popup/unknwn-field": "off"}}"#.write(to: dir.appendingPathComponent(".maprules.json"), atomically: true, encoding: .utf8)
        let invalid = try CLI.run(["lint", map], in: dir)
        #expect(invalid.exitCode == 2)
        #expect(invalid.stderr.contains("Did you mean 'popup/unknown-field'"), "\(invalid.stderr)")
    }

    @Test func badInputNeverCrashes() throws {
        let dir = try CLI.temporaryDirectory()
        let cases: [(String, [UInt8], String)] = [
            ("empty.json", [], "json/syntax"),
            ("blank.json", Array("  \n\n ".utf8), "json/syntax"),
            ("latin1.json", Array(#"{"operationalLayers": [], "title": ""#.utf8) + [0xE9] + Array(#""}"#.utf8), "json/encoding"),
            ("bom.json", [0xEF, 0xBB, 0xBF] + Array(#"{"operationalLayers": [], "baseMap": {}, "baseMap": {}}"#.utf8), "json/duplicate-key"),
            ("array.json", Array("[1, 2]".utf8), "json/not-a-map"),
            ("deep.json", Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8), "json/too-deep"),
            ("huge-number.json", Array(#"{"operationalLayers": [], "x": 1e999}"#.utf8), "json/syntax"),
        ]
        for (name, bytes, rule) in cases {
            try Data(bytes).write(to: dir.appendingPathComponent(name))
            let result = try CLI.run(["lint", name, "--format", "json"], in: dir)
            #expect(result.exitCode == 1 || (rule == "json/duplicate-key" && result.exitCode == 0), "\(name): \(result.exitCode) \(result.stderr)")
            let found = diagnostics(try report(result))
            #expect(found.contains { $0["ruleId"] as? String == rule }, "\(name): \(found)")
            if rule == "json/syntax" && name != "huge-number.json" {
                #expect(found.first?["line"] as? Int == 1 && found.first?["column"] as? Int == 1, "\(name): \(found)")
            }
        }
        let missing = try CLI.run(["lint", "no-such-file.json"], in: dir)
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("no-such-file.json"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("broken-link.json").path, withDestinationPath: "/nonexistent/x.json")
        let link = try CLI.run(["lint", "broken-link.json"], in: dir)
        #expect(link.exitCode == 2)
        #expect(link.stderr.contains("broken symbolic link"))
        let walk = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        #expect(walk.exitCode == 1)
        #expect(walk.stderr.contains("broken-link.json"))
    }

    /// As ESLint does for a pattern that matches nothing: a directory with no web map under it is an error
    /// that names it (exit 2), unless --allow-empty says that is fine.
    @Test func aDirectoryWithoutWebMapsIsAnErrorUnlessAllowed() throws {
        let dir = try CLI.temporaryDirectory()
        let empty = dir.appendingPathComponent("empty folder")
        let notMaps = dir.appendingPathComponent("not-maps")
        for folder in [empty, notMaps] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data(#"{"name": "a package.json, not a map"}"#.utf8).write(to: notMaps.appendingPathComponent("package.json"))
        try Data("{}".utf8).write(to: notMaps.appendingPathComponent("services.json"))
        for path in ["empty folder", "not-maps"] {
            let result = try CLI.run(["lint", path], in: dir)
            #expect(result.exitCode == 2, "\(path): \(result.exitCode) \(result.stdout)")
            #expect(result.stderr.contains("no web map found under '\(path)'"), "\(result.stderr)")
            #expect(!result.stdout.contains("No problems found"), "\(result.stdout)")
            let allowed = try CLI.run(["lint", path, "--allow-empty"], in: dir)
            #expect(allowed.exitCode == 0, "\(path): \(allowed.stderr)")
        }
        // The current directory, the default path, is a path like any other.
        #expect(try CLI.run(["lint"], in: empty).exitCode == 2)
        // One empty directory among others is enough; the error names it.
        let mixed = try CLI.run(["lint", CLI.packageRoot.appendingPathComponent("Samples/TreesOfPortland").path, "empty folder"], in: dir)
        #expect(mixed.exitCode == 2)
        #expect(mixed.stderr.contains("'empty folder'") && !mixed.stderr.contains("TreesOfPortland"), "\(mixed.stderr)")
        // A directory whose maps were already found through another path given is not empty.
        let nested = try CLI.run(["lint", "Samples", "Samples/DamageAssessment", "--format", "json"])
        #expect(nested.exitCode == 1 && !nested.stderr.contains("no web map"), "\(nested.stderr)")
        #expect(try CLI.run(["lint", "--help"]).stdout.contains("--allow-empty"))
    }

    @Test func everyCorpusMapLintsTheSameTwice() throws {
        let folder = CLI.fixtures.appendingPathComponent("corpus/webmaps")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count > 10)
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let first = try CLI.run(["lint", path, "--format", "json"])
            let second = try CLI.run(["lint", path, "--format", "json"])
            #expect(first.exitCode == 0 || first.exitCode == 1, "\(file): exit \(first.exitCode) \(first.stderr)")
            #expect(first.stdout == second.stdout, "\(file) differs between runs")
            _ = try report(first)
        }
    }
}
