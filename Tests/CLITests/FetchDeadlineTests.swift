import Foundation
import Testing

/// `lint --fetch` against a server that accepts connections and never answers (issue 31, item 6): it waited
/// 30 s per layer with no overall bound; now the whole run has `--timeout` (60 s by default), and the layers
/// still unresolved then are reported as such.
@Suite(.serialized) struct FetchDeadlineTests {
    static let silentServer = """
        import socket, time
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(64)
        print("port", s.getsockname()[1], flush=True)
        held = []
        while True:
            c, _ = s.accept()
            held.append(c)
        """

    static func startSilentServer() throws -> (Process, Int)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", silentServer]
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
        FetchTests.stop(process)
        return nil
    }

    @Test(.timeLimit(.minutes(2))) func oneDeadlineForTheWholeRun() throws {
        guard let (server, port) = try Self.startSilentServer() else {
            Issue.record("could not start the python3 listener")
            return
        }
        defer { FetchTests.stop(server) }
        let layers = (0..<4).map { index in
            """
            {"id": "L\(index)", "title": "Layer \(index)", "layerType": "ArcGISFeatureLayer",
             "url": "http://127.0.0.1:\(port)/arcgis/rest/services/S\(index)/FeatureServer/0",
             "popupInfo": {"title": "x", "fieldInfos": []}}
            """
        }
        let map = #"{"operationalLayers": [\#(layers.joined(separator: ","))], "baseMap": {"baseMapLayers": []}, "version": "2.28"}"#
        let work = try CLI.temporaryDirectory()
        try map.write(to: work.appendingPathComponent("map.json"), atomically: true, encoding: .utf8)

        let start = Date()
        let result = try CLI.run(["lint", "map.json", "--format", "json", "--fetch", "--timeout", "2"], in: work)
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed < 15, "took \(elapsed) s")
        let report = try #require(try CLI.json(result.stdout) as? [String: Any], "\(result.stdout) \(result.stderr)")
        let diagnostics = ((report["files"] as? [[String: Any]])?.first?["diagnostics"] as? [[String: Any]]) ?? []
        let unresolved = diagnostics.filter { $0["ruleId"] as? String == "map/unresolved-layer" }
        #expect(unresolved.count == 4, "\(diagnostics)")
        #expect(unresolved.allSatisfy { ($0["message"] as? String)?.contains("--timeout") == true }, "\(unresolved)")

        let bad = try CLI.run(["lint", "map.json", "--fetch", "--timeout", "0"], in: work)
        #expect(bad.exitCode == 2)
    }
}
