import Foundation
import Testing

/// `maprules offline` against `maprules serve` (the done-means of the offline issue): two crews generate
/// TreesOfPortland, edit their files with edit scripts and no network, sync in either order, and the service
/// holds the last-in-wins result.
@Suite(.serialized) struct OfflineCommandTests {
    static let crew1 = ["--user", "editor01", "--password", "sample-editor01"]
    static let crew2 = ["--user", "editor02", "--password", "sample-editor02"]

    @Test(arguments: [true, false])
    func twoCrewsGenerateEditOfflineAndSyncInEitherOrder(crew1First: Bool) async throws {
        let server = try await CLI.offThePool { try ServedSamples.start() }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/arcgis/rest/services/TreesOfPortland/FeatureServer"
        let folder = try CLI.temporaryDirectory()
        let file1 = folder.appendingPathComponent("crew1.geodatabase").path, file2 = folder.appendingPathComponent("crew2.geodatabase").path

        let generated = try await CLI.detached(["offline", "generate", "--service", url, "--output", file1, "--format", "json", "--progress", "never"] + Self.crew1)
        #expect(generated.exitCode == 0, "\(generated.stderr)")
        let summary = try #require(try CLI.json(generated.stdout) as? [String: Any])
        #expect(summary["file"] as? String == file1)
        #expect((summary["replicaID"] as? String)?.hasPrefix("{") == true)
        let layers = try #require(summary["layers"] as? [[String: Any]])
        #expect(layers.map { $0["id"] as? Int } == [0, 1, 2, 3])
        #expect((layers.first?["features"] as? Int ?? 0) > 0)
        #expect(try await CLI.detached(["offline", "generate", "--service", url, "--output", file2, "--progress", "never"] + Self.crew2).exitCode == 0)
        // An existing output is refused.
        #expect(try await CLI.detached(["offline", "generate", "--service", url, "--output", file2, "--progress", "never"] + Self.crew2).exitCode == 2)

        // Offline edits with the sample scripts, crew 1 first (Notes and Wires), crew 2 later (Notes and Site_Width).
        let edit1 = try await CLI.detached(["edit", "Samples/Scripts/TreesOfPortland-offline-crew1.yaml", "--service", file1, "--color", "never"])
        #expect(edit1.exitCode == 0, "\(edit1.stdout)\(edit1.stderr)")
        try await Task.sleep(for: .milliseconds(50))
        let edit2 = try await CLI.detached(["edit", "Samples/Scripts/TreesOfPortland-offline-crew2.yaml", "--service", file2, "--color", "never"])
        #expect(edit2.exitCode == 0, "\(edit2.stdout)\(edit2.stderr)")
        let pending = try #require(try CLI.json(try await CLI.detached(["offline", "status", file1, "--format", "json"]).stdout) as? [String: Any])
        #expect(pending["pendingEdits"] as? Int == 1)

        let order = crew1First ? [(file1, Self.crew1), (file2, Self.crew2), (file1, Self.crew1)] : [(file2, Self.crew2), (file1, Self.crew1), (file2, Self.crew2)]
        for (file, credentials) in order {
            let synced = try await CLI.detached(["offline", "sync", file, "--format", "json", "--progress", "never"] + credentials)
            #expect(synced.exitCode == 0, "\(synced.stderr)")
            #expect((try CLI.json(synced.stdout) as? [String: Any])?["serverGen"] is Int)
        }
        // The service: the later Notes, and crew 1's Wires (only crew 1 changed it).
        let query = try await CLI.detached(["edit", try Self.expectation(folder), "--service", url, "--color", "never"] + Self.crew1)
        #expect(query.exitCode == 0, "\(query.stdout)\(query.stderr)")
        for file in [file1, file2] {
            let status = try #require(try CLI.json(try await CLI.detached(["offline", "status", file, "--format", "json"]).stdout) as? [String: Any])
            #expect(status["pendingEdits"] as? Int == 0)
        }
    }

    static func expectation(_ folder: URL) throws -> String {
        let path = folder.appendingPathComponent("expect.yaml").path
        try """
        steps:
          - expect: {layer: Trees, objectIds: [1], count: 1, attributes: {Notes: "Crew 2: trunk wound, follow up", Wires: "HV", Site_Width: 5.5}}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `kill -9` of `maprules offline sync` at several moments of an upload of 1,500 adds (before, while and after
    /// the service writes them): the file always opens with either every edit pending or none, and a last sync
    /// lands each add exactly once.
    @Test func aSyncKilledHalfWayLeavesTheFileWholeAndARetryLandsEveryEditOnce() async throws {
        let server = try await CLI.offThePool { try ServedSamples.start() }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/arcgis/rest/services/TreesOfPortland/FeatureServer"
        let folder = try CLI.temporaryDirectory()
        let file = folder.appendingPathComponent("crew.geodatabase").path
        #expect(try await CLI.detached(["offline", "generate", "--service", url, "--output", file, "--layers", "0", "--progress", "never"] + Self.crew1).exitCode == 0)
        let adds = 1500
        var lines = ["steps:"]
        for i in 0..<adds {
            lines.append("  - addFeature: {layer: Trees, attributes: {Address: \"Kill St \(i)\"}, geometry: {x: \(-122.66 + Double(i) * 0.00001), y: 45.52, spatialReference: {wkid: 4326}}}")
        }
        lines.append("  - applyEdits: {}")
        let script = folder.appendingPathComponent("adds.yaml").path
        try lines.joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let edit = try await CLI.detached(["edit", script, "--service", file, "--format", "json"])
        #expect(edit.exitCode == 0, "\(edit.stderr)")

        var seen: [Int] = [], landed: [Int] = []
        // A sync of this size takes 1 to 5 s (debug build): the server writes the upload in the first part, the file
        // takes the download in the last; the kills fall before, inside and after the server's write.
        for delay in [0.1, 0.6, 1.2, 1.8, 2.4, 3.0, 3.6, 4.2] {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["offline", "sync", file, "--progress", "never"] + Self.crew1
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            kill(process.processIdentifier, SIGKILL)
            let finished = process
            try await CLI.offThePool { finished.waitUntilExit() }
            let status = try await CLI.detached(["offline", "status", file, "--format", "json"])
            #expect(status.exitCode == 0, "after a kill at \(delay) s: \(status.stderr)")
            let pending = (try? CLI.json(status.stdout) as? [String: Any])?["pendingEdits"] as? Int ?? -1
            #expect(pending == adds || pending == 0, "after a kill at \(delay) s the file holds \(pending) pending edits")
            seen.append(pending)
            // The service holds all of the adds or none of them, never a part.
            var online: Int?
            for count in [0, adds] where online == nil {
                let probe = folder.appendingPathComponent("probe.yaml").path
                try "steps:\n  - expect: {layer: Trees, where: \"Address LIKE 'Kill St %'\", count: \(count)}\n".write(toFile: probe, atomically: true, encoding: .utf8)
                if try await CLI.detached(["edit", probe, "--service", url, "--color", "never"] + Self.crew1).exitCode == 0 { online = count }
            }
            #expect(online != nil, "after a kill at \(delay) s the service holds part of the adds")
            landed.append(online ?? -1)
        }
        print("OfflineCommandTests: pending edits in the file after each kill: \(seen); adds on the service: \(landed)")
        let last = try await CLI.detached(["offline", "sync", file, "--format", "json", "--progress", "never"] + Self.crew1)
        #expect(last.exitCode == 0, "\(last.stderr)")
        let check = folder.appendingPathComponent("check.yaml").path
        try """
        steps:
          - expect: {layer: Trees, where: "Address LIKE 'Kill St %'", count: \(adds)}
        """.write(toFile: check, atomically: true, encoding: .utf8)
        let counted = try await CLI.detached(["edit", check, "--service", url, "--color", "never"] + Self.crew1)
        #expect(counted.exitCode == 0, "every add once on the service (pending after each kill: \(seen)): \(counted.stdout)")
        let status = try #require(try CLI.json(try await CLI.detached(["offline", "status", file, "--format", "json"]).stdout) as? [String: Any])
        #expect(status["pendingEdits"] as? Int == 0)
    }

    /// A download-only geodatabase refuses edits when they are applied, not at the sync that could never upload them.
    @Test func aDownloadOnlyGeodatabaseIsReadOnly() async throws {
        let server = try await CLI.offThePool { try ServedSamples.start() }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/arcgis/rest/services/TreesOfPortland/FeatureServer"
        let folder = try CLI.temporaryDirectory()
        let file = folder.appendingPathComponent("down.geodatabase").path
        let generated = try await CLI.detached(["offline", "generate", "--service", url, "--output", file, "--layers", "0", "--direction", "download",
                                                "--progress", "never"] + Self.crew1)
        #expect(generated.exitCode == 0, "\(generated.stderr)")
        let script = folder.appendingPathComponent("edit.yaml")
        try Data("steps:\n  - updateAttributes: {layer: 0, objectId: 1, attributes: {Notes: x}}\n  - applyEdits: {}\n".utf8).write(to: script)
        let edited = try await CLI.detached(["edit", script.path, "--service", file])
        #expect(edited.exitCode == 1 && edited.stdout.contains("download-only"), "\(edited.stdout) \(edited.stderr)")
    }

    /// Another command holds the file (its lock taken here, as a running `maprules offline sync` holds it):
    /// every command on it exits 2 saying "in use", and works again once the lock is given back.
    @Test func aCommandOnAFileInUseExits2() async throws {
        let server = try await CLI.offThePool { try ServedSamples.start() }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/arcgis/rest/services/TreesOfPortland/FeatureServer"
        let folder = try CLI.temporaryDirectory()
        let file = folder.appendingPathComponent("busy.geodatabase").path
        #expect(try await CLI.detached(["offline", "generate", "--service", url, "--output", file, "--layers", "0", "--progress", "never"] + Self.crew1).exitCode == 0)
        let descriptor = open(file + ".lock", O_CREAT | O_RDWR, 0o644)
        #expect(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        for arguments in [["offline", "status", file], ["offline", "sync", file, "--progress", "never"] + Self.crew1,
                          ["offline", "export-delta", file, "--output", folder.appendingPathComponent("d.json").path],
                          ["edit", "Samples/Scripts/TreesOfPortland-offline-crew1.yaml", "--service", file]] {
            let busy = try await CLI.detached(arguments)
            #expect(busy.exitCode == 2, "\(arguments): \(busy.stdout)")
            #expect(busy.stderr.contains("in use"), "\(arguments): \(busy.stderr)")
        }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        #expect(try await CLI.detached(["offline", "status", file]).exitCode == 0)
        // A generate to a file another generate is writing (its lock held) is refused, and leaves no file.
        let fresh = folder.appendingPathComponent("fresh.geodatabase").path
        let freshLock = open(fresh + ".lock", O_CREAT | O_RDWR, 0o644)
        #expect(freshLock >= 0 && flock(freshLock, LOCK_EX | LOCK_NB) == 0)
        let second = try await CLI.detached(["offline", "generate", "--service", url, "--output", fresh, "--layers", "0", "--progress", "never"] + Self.crew1)
        #expect(second.exitCode == 2 && second.stderr.contains("in use"), "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
        flock(freshLock, LOCK_UN)
        close(freshLock)
    }

    @Test func syncOfAMissingFileOrAnUnreachableServiceExits2() async throws {
        let folder = try CLI.temporaryDirectory()
        let missing = try await CLI.detached(["offline", "sync", folder.appendingPathComponent("nothing.geodatabase").path])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("No geodatabase"))
        let notOne = folder.appendingPathComponent("text.geodatabase").path
        try "hello".write(toFile: notOne, atomically: true, encoding: .utf8)
        let wrong = try await CLI.detached(["offline", "status", notOne])
        #expect(wrong.exitCode == 2)
        #expect(wrong.stderr.contains("not a geodatabase"))
    }
}

extension ServedSamples: @unchecked Sendable {}
extension Process: @unchecked @retroactive Sendable {}
