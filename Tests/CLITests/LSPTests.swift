import Foundation
import Testing

/// `maprules lsp` spoken to over a pipe by a scripted client, as an editor would.
struct LSPTests {
    /// A client: starts `maprules lsp`, writes framed messages, reads them back (every wait bounded).
    final class Client: @unchecked Sendable {
        let process = Process()
        private let input = Pipe(), output = Pipe()
        private var buffer = Data()
        private var nextId = 1

        init() throws {
            process.executableURL = CLI.executable
            process.arguments = ["lsp"]
            process.currentDirectoryURL = CLI.packageRoot
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        deinit { if process.isRunning { process.terminate() } }

        func notify(_ method: String, _ params: [String: Any]) throws {
            try write(["jsonrpc": "2.0", "method": method, "params": params])
        }

        /// Sends a request and returns its answer (skipping notifications in between).
        func request(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
            let id = nextId
            nextId += 1
            try write(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
            for _ in 0..<100 {
                let message = try read()
                if message["id"] as? Int == id { return message }
            }
            throw ClientError.noAnswer(method)
        }

        /// The next `publishDiagnostics` notification.
        func diagnostics() throws -> [String: Any] {
            for _ in 0..<100 {
                let message = try read()
                if message["method"] as? String == "textDocument/publishDiagnostics" { return message["params"] as? [String: Any] ?? [:] }
            }
            throw ClientError.noAnswer("publishDiagnostics")
        }

        func write(_ object: [String: Any]) throws {
            let body = try JSONSerialization.data(withJSONObject: object)
            input.fileHandleForWriting.write(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        }

        func writeRaw(_ bytes: Data) { input.fileHandleForWriting.write(bytes) }

        func closeInput() throws { try input.fileHandleForWriting.close() }

        /// The next message; fails after 30 s without one.
        func read() throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let range = buffer.range(of: Data("\r\n\r\n".utf8)) {
                    let header = String(decoding: buffer[buffer.startIndex..<range.lowerBound], as: UTF8.self)
                    let length = Int(header.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
                    if buffer.distance(from: range.upperBound, to: buffer.endIndex) >= length {
                        let body = buffer[range.upperBound..<buffer.index(range.upperBound, offsetBy: length)]
                        buffer = Data(buffer[buffer.index(range.upperBound, offsetBy: length)...])
                        return try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:]
                    }
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { throw ClientError.closed }
                buffer.append(chunk)
            }
            throw ClientError.noAnswer("a message")
        }

        enum ClientError: Error { case noAnswer(String), closed }

        func waitForExit() -> Int32 {
            for _ in 0..<300 where process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { process.terminate(); return -1 }
            return process.terminationStatus
        }
    }

    static let brokenPath = CLI.packageRoot.appendingPathComponent("Samples/Broken/popup--unknown-field.json").path
    static var brokenURI: String { URL(fileURLWithPath: brokenPath).absoluteString }

    static func codes(_ published: [String: Any]) -> [String] {
        (published["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test func aSessionGetsDiagnosticsHoverAndTheirUpdatesAsTheMapIsEdited() throws {
        let client = try Client()
        let initialize = try client.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [:] as [String: Any]])
        let capabilities = (initialize["result"] as? [String: Any])?["capabilities"] as? [String: Any]
        #expect((capabilities?["textDocumentSync"] as? [String: Any])?["change"] as? Int == 2)
        #expect(capabilities?["hoverProvider"] as? Bool == true)
        try client.notify("initialized", [:])

        let text = try String(contentsOfFile: Self.brokenPath, encoding: .utf8)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": Self.brokenURI, "languageId": "json", "version": 1, "text": text]])
        let opened = try client.diagnostics()
        #expect(opened["uri"] as? String == Self.brokenURI)
        #expect(Self.codes(opened).contains("popup/unknown-field"))
        // The range covers the string "Conditon" (with its quotes) on its line, as the linter placed it.
        let unknown = try #require((opened["diagnostics"] as? [[String: Any]])?.first { $0["code"] as? String == "popup/unknown-field" })
        let range = try #require(unknown["range"] as? [String: [String: Int]])
        let lines = text.components(separatedBy: "\n")
        let line = try #require(range["start"]?["line"])
        let start = try #require(range["start"]?["character"]), end = try #require(range["end"]?["character"])
        let utf16 = Array(lines[line].utf16)
        #expect(String(decoding: utf16[start..<end], as: UTF16.self) == "\"Conditon\"")
        #expect(unknown["severity"] as? Int == 1)

        // Hover on it: the rule's rationale.
        let hover = try client.request("textDocument/hover", ["textDocument": ["uri": Self.brokenURI], "position": ["line": line, "character": start + 2]])
        let contents = ((hover["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(contents.contains("popup/unknown-field") && contents.contains("**Why:**"))

        // An incremental change fixing the name removes the finding.
        try client.notify("textDocument/didChange", [
            "textDocument": ["uri": Self.brokenURI, "version": 2],
            "contentChanges": [["range": ["start": ["line": line, "character": start + 1], "end": ["line": line, "character": end - 1]], "text": "Condition"]],
        ])
        let fixed = try client.diagnostics()
        #expect(fixed["version"] as? Int == 2)
        #expect(!Self.codes(fixed).contains("popup/unknown-field"))

        // A full change back to broken JSON: json/syntax.
        try client.notify("textDocument/didChange", ["textDocument": ["uri": Self.brokenURI, "version": 3], "contentChanges": [["text": "{\"operationalLayers\": [,]}"]]])
        #expect(Self.codes(try client.diagnostics()) == ["json/syntax"])

        try client.notify("textDocument/didClose", ["textDocument": ["uri": Self.brokenURI]])
        #expect(Self.codes(try client.diagnostics()).isEmpty)
        _ = try client.request("shutdown")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func aCodeActionOffersTheFixAsTextEdits() throws {
        let path = CLI.packageRoot.appendingPathComponent("Samples/Broken/map--token-in-url.json").path
        let uri = URL(fileURLWithPath: path).absoluteString
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let client = try Client()
        let initialize = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        #expect(((initialize["result"] as? [String: Any])?["capabilities"] as? [String: Any])?["codeActionProvider"] != nil)
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
        let published = try client.diagnostics()
        let token = try #require((published["diagnostics"] as? [[String: Any]])?.first { $0["code"] as? String == "map/token-in-url" })
        let range = try #require(token["range"] as? [String: Any])
        let answer = try client.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range,
                                                                     "context": ["diagnostics": [token]]])
        let actions = try #require(answer["result"] as? [[String: Any]])
        let action = try #require(actions.first)
        #expect(action["kind"] as? String == "quickfix")
        let edits = try #require(((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])
        // Applying the edits as an editor would: the token is gone and the file is otherwise the same.
        var lines = text.components(separatedBy: "\n").map { Array($0.utf16) }
        for edit in edits.reversed() {
            let r = try #require(edit["range"] as? [String: [String: Int]])
            let (sl, sc, el, ec) = (r["start"]!["line"]!, r["start"]!["character"]!, r["end"]!["line"]!, r["end"]!["character"]!)
            #expect(sl == el)
            lines[sl].replaceSubrange(sc..<ec, with: Array((edit["newText"] as? String ?? "").utf16))
        }
        let fixed = lines.map { String(decoding: $0, as: UTF16.self) }.joined(separator: "\n")
        #expect(!fixed.contains("token="))
        try client.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": fixed]]])
        #expect(!Self.codes(try client.diagnostics()).contains("map/token-in-url"))
        _ = try client.request("shutdown")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func columnsAreCountedInUTF16AsLSPCounts() throws {
        let client = try Client()
        _ = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        // An emoji (two UTF-16 units, one scalar) before a duplicate key on the same line.
        let text = "{\"title\": \"🌳\", \"title\": \"x\", \"operationalLayers\": [], \"baseMap\": {\"baseMapLayers\": []}}"
        let uri = "file:///tmp/maprules-lsp-\(UUID().uuidString).json"
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
        let published = try client.diagnostics()
        let duplicate = try #require((published["diagnostics"] as? [[String: Any]])?.first { $0["code"] as? String == "json/duplicate-key" })
        let start = try #require((duplicate["range"] as? [String: [String: Int]])?["start"]?["character"])
        let utf16 = Array(text.utf16)
        #expect(String(decoding: utf16[start..<(start + 7)], as: UTF16.self) == "\"title\"")
        _ = try client.request("shutdown")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    /// A byte order mark is a character to LSP (one UTF-16 unit) though the linter's columns skip it; and a
    /// code action asked right after a change (before the server published for it) answers from the new text.
    @Test func aByteOrderMarkAndAChangeNotYetPublishedKeepRangesRight() throws {
        let client = try Client()
        _ = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        let text = "\u{FEFF}{\"title\": \"x\", \"title\": \"y\", \"operationalLayers\": [], \"baseMap\": {\"baseMapLayers\": []}}"
        let uri = "file:///tmp/maprules-lsp-\(UUID().uuidString).json"
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
        let published = try client.diagnostics()
        let duplicate = try #require((published["diagnostics"] as? [[String: Any]])?.first { $0["code"] as? String == "json/duplicate-key" })
        let start = try #require((duplicate["range"] as? [String: [String: Int]])?["start"]?["character"])
        let utf16 = Array(text.utf16)
        #expect(String(decoding: utf16[start..<(start + 7)], as: UTF16.self) == "\"title\"", "start \(start)")
        // Ten spaces inserted before the diagnostic and a hover at its old place, in one write (so the server
        // reads both before it lints): the answer comes from the new text, where nothing is there any more.
        let change: [String: Any] = ["jsonrpc": "2.0", "method": "textDocument/didChange", "params": [
            "textDocument": ["uri": uri, "version": 2],
            "contentChanges": [["range": ["start": ["line": 0, "character": 1], "end": ["line": 0, "character": 1]], "text": "          "]]]]
        let ask: [String: Any] = ["jsonrpc": "2.0", "id": 900, "method": "textDocument/hover",
                                  "params": ["textDocument": ["uri": uri], "position": ["line": 0, "character": start]]]
        var both = Data()
        for message in [change, ask] {
            let body = try JSONSerialization.data(withJSONObject: message)
            both += Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        client.writeRaw(both)
        var hover: [String: Any] = [:]
        for _ in 0..<10 where hover.isEmpty {
            let message = try client.read()
            if message["id"] as? Int == 900 { hover = message }
        }
        #expect(hover["result"] is NSNull, "\(hover)")
        _ = try client.request("shutdown")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func theSnapshotAndConfigurationBesideTheFileApply() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = CLI.packageRoot.appendingPathComponent("Samples/Broken")
        let map = folder.appendingPathComponent("popup--unknown-field.json")
        try FileManager.default.copyItem(at: broken.appendingPathComponent("popup--unknown-field.json"), to: map)
        let text = try String(contentsOf: map, encoding: .utf8)
        let client = try Client()
        _ = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        // No snapshot beside it: the layer's metadata is unknown.
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": map.absoluteString, "languageId": "json", "version": 1, "text": text]])
        #expect(Self.codes(try client.diagnostics()).contains("map/unresolved-layer"))
        // The snapshot and a configuration turning popup/no-display-fields off appear beside it, then a save.
        try FileManager.default.copyItem(at: broken.appendingPathComponent("popup--unknown-field.services.json"),
                                         to: folder.appendingPathComponent("popup--unknown-field.services.json"))
        try Data(#"{"rules": {"popup/no-display-fields": "off"}}"#.utf8).write(to: folder.appendingPathComponent(".maprules.json"))
        try client.notify("textDocument/didSave", ["textDocument": ["uri": map.absoluteString]])
        let codes = Self.codes(try client.diagnostics())
        #expect(codes.contains("popup/unknown-field"))
        #expect(!codes.contains("map/unresolved-layer"))
        #expect(!codes.contains("popup/no-display-fields"))
        _ = try client.request("shutdown")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func unknownRequestsAndGarbageAreAnsweredNotCrashedOn() throws {
        let client = try Client()
        _ = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        let unknown = try client.request("textDocument/frobnicate", [:])
        #expect((unknown["error"] as? [String: Any])?["code"] as? Int == -32601)
        client.writeRaw(Data("Content-Length: 5\r\n\r\nhello".utf8))
        let parseError = try client.read()
        #expect((parseError["error"] as? [String: Any])?["code"] as? Int == -32700)
        let change = try client.request("textDocument/didChange", ["textDocument": ["uri": "file:///nothing.json"], "contentChanges": [] as [Any]])
        #expect((change["error"] as? [String: Any])?["code"] as? Int == -32602)
        // End of input without shutdown: exit code 1, as LSP asks.
        try client.closeInput()
        #expect(client.waitForExit() == 1)
    }
}
