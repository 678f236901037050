import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `lint --offline`, `"offline": true`, `offline generate` refusing a layer set that cannot sync (checked over raw
/// HTTP: no replica registered), and `maprules serve` advertising Sync so that `lint --fetch --offline` against
/// it answers as the committed snapshot does.
@Suite(.serialized) struct OfflineReadinessTests {
    static let crew = ["--user", "editor01", "--password", "sample-editor01"]

    func diagnostics(_ result: CLIResult) throws -> [[String: Any]] {
        let report = try #require(CLI.json(result.stdout) as? [String: Any], "not JSON: \(result.stdout.prefix(300)) \(result.stderr)")
        return ((report["files"] as? [[String: Any]]) ?? []).flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
    }

    @Test(arguments: ["Samples/TreesOfPortland", "Samples/DamageAssessment", "Samples/Offline"])
    func theSamplesAreReadyToGoOffline(path: String) throws {
        let result = try CLI.run(["lint", "--offline", path, "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let found = try diagnostics(result).filter { ($0["severity"] as? String) != "info" || ($0["ruleId"] as? String ?? "").hasPrefix("offline/") }
        #expect(found.isEmpty, "\(found)")
    }

    /// The Trees map with a snapshot whose Trees layer lacks Sync, in a fresh folder.
    func treesWithoutSync() throws -> URL {
        let folder = try CLI.temporaryDirectory()
        let samples = CLI.packageRoot.appendingPathComponent("Samples/TreesOfPortland")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("TreesOfPortland.json"), to: folder.appendingPathComponent("map.json"))
        var snapshot = try #require(try CLI.json(String(contentsOf: samples.appendingPathComponent("TreesOfPortland.services.json"), encoding: .utf8)) as? [String: Any])
        let trees = "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/0"
        var layer = try #require(snapshot[trees] as? [String: Any])
        layer["capabilities"] = "Create,Delete,Query,Update,Uploads,Editing"
        snapshot[trees] = layer
        try JSONSerialization.data(withJSONObject: snapshot).write(to: folder.appendingPathComponent("map.services.json"))
        return folder
    }

    @Test func offlineChecksRunWhenAskedOnTheCommandLineOrInTheConfiguration() throws {
        let folder = try treesWithoutSync()
        let plain = try CLI.run(["lint", "map.json", "--format", "json"], in: folder)
        #expect(plain.exitCode == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(try diagnostics(plain).allSatisfy { !($0["ruleId"] as? String ?? "").hasPrefix("offline/") })

        let asked = try CLI.run(["lint", "map.json", "--offline", "--format", "json"], in: folder)
        #expect(asked.exitCode == 1)
        let ids = try diagnostics(asked).compactMap { $0["ruleId"] as? String }.filter { $0.hasPrefix("offline/") }
        #expect(ids == ["offline/sync-disabled"])

        try Data(#"{"offline": true}"#.utf8).write(to: folder.appendingPathComponent(".maprules.json"))
        let configured = try CLI.run(["lint", "map.json", "--format", "json"], in: folder)
        #expect(configured.exitCode == 1)
        #expect(try diagnostics(configured).contains { $0["ruleId"] as? String == "offline/sync-disabled" })
        try Data(#"{"offline": "yes"}"#.utf8).write(to: folder.appendingPathComponent(".maprules.json"))
        let invalid = try CLI.run(["lint", "map.json"], in: folder)
        #expect(invalid.exitCode == 2)
        #expect(invalid.stderr.contains("'offline' must be true or false"), "\(invalid.stderr)")
    }

    /// A copy of the TreesOfPortland service folder whose Trees layer and Inspections table lack Sync.
    func serviceFolderWithoutSync() throws -> URL {
        let folder = try CLI.temporaryDirectory().appendingPathComponent("TreesOfPortland")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Samples/TreesOfPortland"), to: folder)
        let file = folder.appendingPathComponent("TreesOfPortland.services.json")
        var snapshot = try #require(try CLI.json(String(contentsOf: file, encoding: .utf8)) as? [String: Any])
        for id in [0, 3] {
            let url = "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/\(id)"
            var layer = try #require(snapshot[url] as? [String: Any])
            layer["capabilities"] = (layer["capabilities"] as? String ?? "").replacingOccurrences(of: ",Sync", with: "")
            snapshot[url] = layer
        }
        try JSONSerialization.data(withJSONObject: snapshot).write(to: file)
        return folder
    }

    static func token(port: Int, user: String, password: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/arcgis/sharing/rest/generateToken")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("username=\(user)&password=\(password)&f=json".utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require((try CLI.json(String(decoding: data, as: UTF8.self)) as? [String: Any])?["token"] as? String)
    }

    @Test func generateRefusesLayersThatCannotSyncAndRegistersNothing() async throws {
        let folder = try serviceFolderWithoutSync()
        let serve = try await ServeCommandTests.RunningServe.start([folder.path, "--port", "0", "--database", ":memory:",
                                                                     "--users", CLI.packageRoot.appendingPathComponent("Samples/users.json").path])
        defer { _ = serve.stop() }
        let base = "/arcgis/rest/services/TreesOfPortland/FeatureServer"
        let url = "http://127.0.0.1:\(serve.port)\(base)"
        // Served honestly: the Trees layer lacks Sync, the Neighborhoods layer has it, so the service syncs.
        let trees = try #require(try CLI.json(try await serve.get(base + "/0?f=json")) as? [String: Any])
        #expect((trees["capabilities"] as? String)?.contains("Sync") == false)
        let neighborhoods = try #require(try CLI.json(try await serve.get(base + "/1?f=json")) as? [String: Any])
        #expect((neighborhoods["capabilities"] as? String)?.split(separator: ",").contains("Sync") == true)
        let root = try #require(try CLI.json(try await serve.get(base + "?f=json")) as? [String: Any])
        #expect(root["syncEnabled"] as? Bool == true)
        #expect((root["syncCapabilities"] as? [String: Any])?["supportsPerReplicaSync"] as? Bool == true)

        let admin = try await Self.token(port: serve.port, user: "admin", password: "sample-admin")
        func replicas() async throws -> [[String: Any]] {
            let text = try await serve.get(base + "/replicas?f=json&token=\(admin)")
            return try #require(try CLI.json(text) as? [[String: Any]], "\(text)")
        }
        #expect(try await replicas().isEmpty)

        let output = try CLI.temporaryDirectory().appendingPathComponent("crew.geodatabase").path
        let refused = try await CLI.detached(["offline", "generate", "--service", url, "--output", output, "--progress", "never"] + Self.crew)
        #expect(refused.exitCode == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("offline/sync-disabled"), "\(refused.stderr)")
        #expect(refused.stderr.contains("'Trees' (layer 0)") && refused.stderr.contains("'Inspections' (table 3)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try await replicas().isEmpty, "a replica was registered")

        // The layers that can sync are taken.
        let taken = try await CLI.detached(["offline", "generate", "--service", url, "--output", output, "--layers", "1,2", "--progress", "never"] + Self.crew)
        #expect(taken.exitCode == 0, "\(taken.stdout)\(taken.stderr)")
        #expect(try await replicas().count == 1)
    }

    @Test func inspectSaysWhatEachLayerDoesOffline() throws {
        let text = try CLI.run(["inspect", "Samples/Broken/offline--layer-stays-online.json"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("  offline: downloads"), "\(text.stdout)")
        #expect(text.stdout.contains("  offline: cannot (it is a WMS layer, which cannot be taken offline)"), "\(text.stdout)")

        let json = try CLI.run(["inspect", "Samples/Broken/offline--sync-disabled.json", "--format", "json"])
        let layers = try #require((try CLI.json(json.stdout) as? [String: Any])?["layers"] as? [[String: Any]])
        let offline = try #require(layers.first?["offline"] as? [String: Any])
        #expect(offline["status"] as? String == "cannot")
        #expect(offline["reasons"] as? [String] == ["its capabilities lack Sync"])

        let kept = try CLI.run(["inspect", "Samples/TreesOfPortland/TreesOfPortland.json", "--format", "json"])
        let statuses = try #require((try CLI.json(kept.stdout) as? [String: Any])?["layers"] as? [[String: Any]])
            .compactMap { ($0["offline"] as? [String: Any])?["status"] as? String }
        #expect(statuses == ["downloads", "downloads", "downloads", "downloads"], "\(statuses)")

        let page = try CLI.run(["inspect", "Samples/Broken/offline--sync-disabled.json", "--format", "html"])
        #expect(page.stdout.contains("<dt>Offline</dt><dd>cannot (its capabilities lack Sync)</dd>"), "\(page.stdout.suffix(2000))")
    }

    @Test func lintWithFetchAgainstServeAnswersAsTheCommittedSnapshot() async throws {
        let serve = try await ServeCommandTests.RunningServe.start(["--port", "0", "--database", ":memory:"])
        defer { _ = serve.stop() }
        for name in ["TreesOfPortland", "DamageAssessment"] {
            let committed = try CLI.run(["lint", "--offline", "Samples/\(name)/\(name).json", "--format", "json"])
            let folder = try CLI.temporaryDirectory()
            let map = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/\(name)/\(name).json"), encoding: .utf8)
                .replacingOccurrences(of: "https://maprules.example.com", with: "http://127.0.0.1:\(serve.port)")
            try map.write(to: folder.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
            let live = try await CLI.detached(["lint", "--offline", "--fetch", "\(name).json", "--format", "json"], in: folder)
            #expect(live.exitCode == committed.exitCode, "\(live.stdout)\(live.stderr)")
            // The same findings, but for the http:// URLs the copy points at (map/insecure-url).
            func summary(_ result: CLIResult) throws -> [String] {
                try diagnostics(result).filter { $0["ruleId"] as? String != "map/insecure-url" }
                    .map { "\($0["ruleId"] ?? "") \($0["severity"] ?? "") \($0["pointer"] ?? "")" }
            }
            #expect(try summary(live) == summary(committed))
            #expect(try diagnostics(live).allSatisfy { ($0["metadataSource"] as? String ?? "live") == "live" })
        }
    }
}
