import Foundation
import Testing
import Yams

/// `.pre-commit-hooks.yaml` and `action.yml` read as pre-commit and GitHub read them, and the hook's command run
/// as pre-commit runs it (the file names appended).
struct DistributionFilesTests {
    static func yaml(_ name: String) throws -> Any {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent(name), encoding: .utf8)
        return try #require(try Yams.load(yaml: text))
    }

    @Test func thePreCommitHookLintsTheJSONFilesItIsGivenAndSkipsSnapshots() throws {
        let hooks = try #require(try Self.yaml(".pre-commit-hooks.yaml") as? [[String: Any]])
        let hook = try #require(hooks.first { $0["id"] as? String == "maprules-lint" })
        #expect(hook["language"] as? String == "swift")
        let entry = try #require(hook["entry"] as? String).split(separator: " ").map(String.init)
        #expect(entry.first == "maprules")
        let files = try NSRegularExpression(pattern: try #require(hook["files"] as? String))
        let exclude = try NSRegularExpression(pattern: try #require(hook["exclude"] as? String))
        func selected(_ path: String) -> Bool {
            let range = NSRange(path.startIndex..., in: path)
            return files.firstMatch(in: path, range: range) != nil && exclude.firstMatch(in: path, range: range) == nil
        }
        #expect(selected("maps/trees.json"))
        #expect(!selected("maps/trees.services.json"))
        #expect(!selected("maps/services.json"))
        #expect(!selected("maps/.maprules.json"))
        #expect(!selected("maps/readme.md"))
        // pre-commit appends the staged files: a clean map passes, a broken one fails the commit.
        let arguments = Array(entry.dropFirst())
        #expect(try CLI.run(arguments + ["Samples/TreesOfPortland/TreesOfPortland.json"]).exitCode == 0)
        #expect(try CLI.run(arguments + ["Samples/TreesOfPortland/TreesOfPortland.json", "Samples/Broken/popup--unknown-field.json"]).exitCode == 1)
    }

    /// Issue 31, item 15: the README tells users to commit `.maprules-baseline.json`, and the hook then blocked
    /// the commit with json/not-a-map on it. The hooks exclude it, and `lint` passes over its own baseline
    /// (of any name) and configuration files even when named.
    @Test func theHookAndLintPassOverMapRulesOwnFiles() throws {
        let hooks = try #require(try Self.yaml(".pre-commit-hooks.yaml") as? [[String: Any]])
        for hook in hooks {
            let exclude = try NSRegularExpression(pattern: try #require(hook["exclude"] as? String))
            for path in [".maprules-baseline.json", "maps/.maprules-baseline.json", "maps/.maprules.json"] {
                #expect(exclude.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil, "\(hook["id"] ?? ""): \(path)")
            }
        }
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Samples/TreesOfPortland"),
                                         to: folder.appendingPathComponent("maps"))
        let written = try CLI.run(["lint", "maps", "--write-baseline", "my-baseline.json"], in: folder)
        #expect(written.exitCode == 0, "\(written.stderr)")
        try Data(#"{"rules": {"layer/hidden": "off"}}"#.utf8).write(to: folder.appendingPathComponent(".maprules.json"))
        let named = try CLI.run(["lint", "my-baseline.json", ".maprules.json", "maps/TreesOfPortland.json", "--format", "json"], in: folder)
        #expect(named.exitCode == 0, "\(named.stdout) \(named.stderr)")
        let report = try #require(try CLI.json(named.stdout) as? [String: Any])
        #expect(((report["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String } == ["maps/TreesOfPortland.json"])
        #expect(named.stderr.contains("my-baseline.json is MapRules' own baseline or configuration file"), "\(named.stderr)")
        // The README's pre-commit snippet pins a commit: no release tag exists to name.
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!readme.contains("rev: v0.1.0"))
        #expect(readme.contains("vim.lsp.start_client") && readme.contains("Neovim 0.8"))
    }

    @Test func theActionLintsToSARIFAndUploadsIt() throws {
        let action = try #require(try Self.yaml("action.yml") as? [String: Any])
        let runs = try #require(action["runs"] as? [String: Any])
        #expect(runs["using"] as? String == "composite")
        let steps = try #require(runs["steps"] as? [[String: Any]])
        let lint = try #require(steps.first { $0["id"] as? String == "lint" })
        #expect((lint["run"] as? String)?.contains("maprules lint $PATHS $ARGS --format sarif --output \"$SARIF\"") == true)
        #expect(steps.contains { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif@") == true })
        for step in steps where step["run"] != nil { #expect(step["shell"] as? String == "bash") }
        let inputs = try #require(action["inputs"] as? [String: Any])
        #expect(Set(inputs.keys).isSuperset(of: ["paths", "args", "sarif-file", "binary-url", "upload", "fail-on-findings"]))
        // What the lint step runs gives a SARIF file for the samples (exit 1: Samples/Broken).
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sarif = folder.appendingPathComponent("maprules.sarif").path
        #expect(try CLI.run(["lint", "Samples", "--format", "sarif", "--output", sarif]).exitCode == 1)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sarif))) as? [String: Any]
        #expect(report?["version"] as? String == "2.1.0")
    }
}
