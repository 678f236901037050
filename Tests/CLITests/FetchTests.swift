import Foundation
import Testing

/// `--fetch` and `maprules snapshot` against a feature service on loopback: a few lines of Python serve
/// static metadata files (`<path>.json` for `<path>?f=json`) on a port chosen by the OS.
@Suite(.serialized) struct FetchTests {
    static let server = """
        import http.server, os
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                path = os.path.join(os.getcwd(), self.path.split("?")[0].strip("/") + ".json")
                body = open(path, "rb").read() if os.path.isfile(path) else b'{"error": {"code": 400, "message": "Invalid URL", "details": []}}'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        print("port", server.server_port, flush=True)
        server.serve_forever()
        """

    /// Starts the metadata server in `root`; returns the process and its port.
    func startServer(root: URL) throws -> (Process, Int)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") || FileManager.default.fileExists(atPath: "/usr/local/bin/python3") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", Self.server]
        process.currentDirectoryURL = root
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        for _ in 0..<50 {
            text += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            if let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
               let port = Int(text[range].dropFirst(5)) { return (process, port) }
        }
        Self.stop(process)
        return nil
    }

    /// Stops the server for sure: SIGKILL, since a child started from one of the test's pool threads inherits
    /// their blocked signals (SIGTERM among them), so `terminate()` would leave it running.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    @Test func snapshotAndFetchReadTheLiveService() throws {
        let root = try CLI.temporaryDirectory()
        let service = root.appendingPathComponent("arcgis/rest/services/Trees/FeatureServer")
        try FileManager.default.createDirectory(at: service, withIntermediateDirectories: true)
        let snapshot = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/Broken/popup--unknown-field.services.json"), encoding: .utf8)
        let layer = try #require((try CLI.json(snapshot) as? [String: Any])?.values.first)
        try JSONSerialization.data(withJSONObject: layer).write(to: service.appendingPathComponent("0.json"))
        try Data(#"{"currentVersion": 11.1, "layers": [{"id": 0, "name": "Trees"}], "tables": []}"#.utf8)
            .write(to: service.deletingLastPathComponent().appendingPathComponent("FeatureServer.json"))
        guard let (server, port) = try startServer(root: root) else {
            Issue.record("could not start python3 -m http.server")
            return
        }
        defer { Self.stop(server) }
        let map = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/Broken/popup--unknown-field.json"), encoding: .utf8)
            .replacingOccurrences(of: "https://example.com", with: "http://127.0.0.1:\(port)")
        let work = try CLI.temporaryDirectory()
        try map.write(to: work.appendingPathComponent("map.json"), atomically: true, encoding: .utf8)

        let offline = try CLI.run(["lint", "map.json", "--format", "json"], in: work)
        #expect(offline.stdout.contains("map/unresolved-layer"))

        let live = try CLI.run(["lint", "map.json", "--format", "json", "--fetch"], in: work)
        #expect(live.exitCode == 1, "\(live.stderr)")
        #expect(live.stdout.contains("\"metadataSource\" : \"live\"") || live.stdout.contains("\"metadataSource\": \"live\""), "\(live.stdout)")
        #expect(live.stdout.contains("popup/unknown-field"))
        #expect(!live.stdout.contains("map/unresolved-layer"))

        let written = try CLI.run(["snapshot", "map.json", "--output", "map.services.json"], in: work)
        #expect(written.exitCode == 0, "\(written.stdout)\(written.stderr)")
        let saved = try #require(CLI.json(String(contentsOf: work.appendingPathComponent("map.services.json"), encoding: .utf8)) as? [String: Any])
        #expect(saved.keys.contains("http://127.0.0.1:\(port)/arcgis/rest/services/Trees/FeatureServer/0"))
        #expect(saved.keys.contains("http://127.0.0.1:\(port)/arcgis/rest/services/Trees/FeatureServer"))
        Self.stop(server)
        // With the snapshot beside the map, the same result offline.
        let fromSnapshot = try CLI.run(["lint", "map.json", "--format", "json"], in: work)
        #expect(fromSnapshot.stdout.contains("popup/unknown-field"))
        #expect(!fromSnapshot.stdout.contains("map/unresolved-layer"))
    }

    /// A service that does not answer: `snapshot` says which URL failed and why, and exits 2 (no crash, no hang).
    @Test func snapshotOfAnUnreachableServiceSaysWhy() throws {
        let root = try CLI.temporaryDirectory()
        // A port that was just in use and is closed now: connecting to it is refused.
        guard let (server, port) = try startServer(root: root) else {
            Issue.record("could not start python3 -m http.server")
            return
        }
        Self.stop(server)
        let map = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/Broken/popup--unknown-field.json"), encoding: .utf8)
            .replacingOccurrences(of: "https://example.com", with: "http://127.0.0.1:\(port)")
        let work = try CLI.temporaryDirectory()
        try map.write(to: work.appendingPathComponent("map.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["snapshot", "map.json", "--output", "map.services.json"], in: work)
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("http://127.0.0.1:\(port)/arcgis/rest/services/Trees/FeatureServer"), "\(result.stderr)")
        #expect(result.stderr.contains("request failed: Cannot reach"), "\(result.stderr)")
        #expect(result.stdout.contains("wrote 0 entries"), "\(result.stdout)")
        // lint --fetch says why the metadata is missing, instead of suggesting the --fetch it was given.
        let lint = try CLI.run(["lint", "map.json", "--fetch", "--format", "json"], in: work)
        #expect(lint.stdout.contains("--fetch could not get it (request failed: Cannot reach"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("or fetch it live with --fetch"), "\(lint.stdout)")
    }
}
