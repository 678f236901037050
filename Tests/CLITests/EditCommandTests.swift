import Foundation
import Testing

@Suite struct EditCommandTests {
    static let credentials = ["--user", "editor01", "--password", "sample-editor01", "--color", "never"]

    @Test(arguments: [("DamageAssessment-branch-versioning.yaml", "DamageAssessment"), ("TreesOfPortland-new-tree.yaml", "TreesOfPortland"),
                      ("DamageAssessment-form.yaml", "DamageAssessment"), ("TreesOfPortland-form.yaml", "TreesOfPortland")])
    func sampleScriptsPassInProcess(_ script: String, _ folder: String) throws {
        let result = try CLI.run(["edit", "Samples/Scripts/\(script)", "--service", "Samples/\(folder)"] + Self.credentials)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let steps = result.stdout.split(separator: "\n").filter { $0.hasPrefix("✓") || $0.hasPrefix("✗") }
        #expect(!steps.isEmpty && steps.allSatisfy { $0.hasPrefix("✓") })
        #expect(result.stdout.contains(" failed") && result.stdout.contains("0 failed"))
    }

    @Test func jsonOutputHasTheSpecsShape() throws {
        let result = try CLI.run(["edit", "Samples/Scripts/TreesOfPortland-new-tree.yaml", "--service", "Samples/TreesOfPortland", "--format", "json"] + Self.credentials)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(json["failed"] as? Int == 0 && json["passed"] as? Int == steps.count)
        let refused = try #require(steps.first { $0["expectedFailure"] as? String == "runtime/cannot-add" })
        #expect(refused["ok"] as? Bool == true)
        #expect((refused["error"] as? [String: Any])?["ruleId"] as? String == "runtime/cannot-add")
        let validation = try #require(steps.first { $0["expectedFailure"] as? String == "11007" })
        #expect((validation["error"] as? [String: Any])?["code"] as? Int == 11007)
        let added = try #require(steps.first { $0["operation"] as? String == "addFeature" && $0["ok"] as? Bool == true && ($0["expectedFailure"] is NSNull) })
        #expect(((added["result"] as? [String: Any])?["objectId"] as? Int ?? 0) < 0)
    }

    @Test func anInvalidScriptExits2BeforeRunning() throws {
        let folder = try CLI.temporaryDirectory()
        let script = folder.appendingPathComponent("bad.yaml")
        try "steps:\n  - query: {layer: 0}\n  - frobnicate: {}\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try CLI.run(["edit", script.path, "--service", "Samples/TreesOfPortland"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("bad.yaml:3:"))
        #expect(result.stdout.isEmpty)
        let missing = try CLI.run(["edit", "no/such/script.yaml", "--service", "Samples/TreesOfPortland"])
        #expect(missing.exitCode == 2)
        let noService = try CLI.run(["edit", "Samples/Scripts/TreesOfPortland-new-tree.yaml", "--service", "no/such/folder"])
        #expect(noService.exitCode == 2)
        #expect(noService.stderr.contains("no/such/folder"))
    }

    /// A YAML script or users file nesting 100,000 levels deep (in brackets, or in `- - -` on one line) is refused
    /// with exit 2 before Yams composes it: composing it recursively overflowed the stack (signal 11).
    @Test(arguments: [String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
                      "\n" + String(repeating: "- ", count: 100_000) + "x"])
    func aScriptNestingTooDeepExits2WithoutCrashing(steps: String) throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("deep.yaml")
        try "steps: \(steps)\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try CLI.run(["edit", script.path, "--service", "Samples/TreesOfPortland"])
        #expect(result.exitCode == 2, "\(result.stderr)")
        #expect(result.stderr.contains("deep.yaml: the script nests deeper than"), "\(result.stderr)")
        let users = folder.appendingPathComponent("users.yaml")
        try "users: \(steps)\n".write(to: users, atomically: true, encoding: .utf8)
        let serve = try CLI.run(["serve", "--users", users.path, "--port", "0", "--database", ":memory:"], timeout: 60)
        #expect(serve.exitCode == 2, "\(serve.stderr)")
        #expect(serve.stderr.contains("nests deeper than"), "\(serve.stderr)")
    }

    @Test func anUnreachableServiceExits2WithinTheTimeout() throws {
        let started = Date()
        let result = try CLI.run(["edit", "Samples/Scripts/TreesOfPortland-new-tree.yaml", "--timeout", "2",
                                  "--service", "http://127.0.0.1:9/arcgis/rest/services/TreesOfPortland/FeatureServer"] + Self.credentials)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("127.0.0.1:9"))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    /// The done-means of the runtime issue: the same script against a running `maprules serve`.
    @Test func sampleScriptsPassAgainstMapRulesServe() async throws {
        let server = try ServedSamples.start()
        defer { server.stop() }
        // The form scripts last: the Trees one moves a neighborhood boundary for good.
        for (script, service) in [("DamageAssessment-branch-versioning.yaml", "DamageAssessment"), ("TreesOfPortland-new-tree.yaml", "TreesOfPortland"),
                                  ("DamageAssessment-form.yaml", "DamageAssessment"), ("TreesOfPortland-form.yaml", "TreesOfPortland")] {
            let url = "http://127.0.0.1:\(server.port)/arcgis/rest/services/\(service)/FeatureServer"
            let result = try CLI.run(["edit", "Samples/Scripts/\(script)", "--service", url] + Self.credentials)
            #expect(result.exitCode == 0, "\(script): \(result.stdout)\(result.stderr)")
        }
        // The versioning script runs again against the same service ($run.id makes its version name new).
        let again = try CLI.run(["edit", "Samples/Scripts/DamageAssessment-branch-versioning.yaml", "--service",
                                 "http://127.0.0.1:\(server.port)/arcgis/rest/services/DamageAssessment/FeatureServer"] + Self.credentials)
        #expect(again.exitCode == 0, "\(again.stdout)\(again.stderr)")
    }
}

/// `maprules serve --port 0 --database :memory:` in the background, with the port it printed.
final class ServedSamples {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start() throws -> ServedSamples {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--port", "0", "--database", ":memory:"]
        process.currentDirectoryURL = CLI.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { Thread.sleep(forTimeInterval: 0.05); continue }
            printed += String(decoding: chunk, as: UTF8.self)
            if printed.contains("Listening;"), let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("  port: ") }),
               let port = Int(line.dropFirst("  port: ".count)) {
                return ServedSamples(process: process, port: port)
            }
        }
        process.terminate()
        throw CLIError("maprules serve did not print its port: \(printed)")
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
        process.waitUntilExit()
    }
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
