import Foundation
import Testing

/// `maprules offline register` run twice (issue 31, item 11): the second is refused, `--force` replaces the
/// replica, and every replica made along the way is the one the file holds.
@Suite(.serialized) struct OfflineRegisterCommandTests {
    static let crew1 = ["--user", "editor01", "--password", "sample-editor01"]

    @Test func registeringTheSameFileTwiceIsRefusedUnlessForced() async throws {
        let server = try await CLI.offThePool { try ServedSamples.start() }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/arcgis/rest/services/TreesOfPortland/FeatureServer"
        let folder = try CLI.temporaryDirectory()
        let planned = folder.appendingPathComponent("planned.geodatabase").path, copy = folder.appendingPathComponent("crew3.geodatabase").path
        let generated = try await CLI.detached(["offline", "generate", "--service", url, "--output", planned, "--layers", "0", "--progress", "never"] + Self.crew1)
        #expect(generated.exitCode == 0, "\(generated.stderr)")
        try FileManager.default.copyItem(atPath: planned, toPath: copy)

        let first = try await CLI.detached(["offline", "register", copy, "--format", "json"] + Self.crew1)
        #expect(first.exitCode == 0, "\(first.stderr)")
        let firstID = try Self.replicaID(first.stdout)

        let second = try await CLI.detached(["offline", "register", copy, "--format", "json"] + Self.crew1)
        #expect(second.exitCode != 0 && second.stdout.isEmpty, "\(second.stdout)")
        #expect(second.stderr.contains("still registered as replica \(firstID)") && second.stderr.contains("--force"), "\(second.stderr)")
        #expect(try await Self.statusReplicaID(copy) == firstID, "the file kept its replica")

        let forced = try await CLI.detached(["offline", "register", copy, "--force", "--format", "json"] + Self.crew1)
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        let forcedID = try Self.replicaID(forced.stdout)
        #expect(forcedID != firstID)
        #expect(try await Self.statusReplicaID(copy) == forcedID)
        let synced = try await CLI.detached(["offline", "sync", copy, "--progress", "never"] + Self.crew1)
        #expect(synced.exitCode == 0, "\(synced.stderr)")
        // The planned file (the copy's original) keeps its own replica: it still syncs.
        #expect(try await CLI.detached(["offline", "sync", planned, "--progress", "never"] + Self.crew1).exitCode == 0)
    }

    static func replicaID(_ stdout: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return object?["replicaID"] as? String ?? ""
    }

    static func statusReplicaID(_ file: String) async throws -> String {
        let status = try await CLI.detached(["offline", "status", file, "--format", "json"])
        return try replicaID(status.stdout)
    }
}
