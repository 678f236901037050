import Foundation
import Testing

/// `maprules lsp` and the edges of the protocol (issue 31, item 10): lone CR line endings, messages that
/// are not objects, the initialize / shutdown lifecycle, lone surrogate escapes.
struct LSPProtocolTests {
    typealias Client = LSPTests.Client

    static func errorCode(_ answer: [String: Any]) -> Int? { (answer["error"] as? [String: Any])?["code"] as? Int }

    /// LSP counts `\r` alone as a line break; the linter counted only `\n`, so on a file with old Mac OS line
    /// endings every finding was published on line 0. Both count `\r`, `\n` and `\r\n` now.
    @Test func loneCarriageReturnsEndLinesForTheLinterAsForLSP() throws {
        let client = try Client()
        _ = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        let text = "{\r  \"title\": \"x\",\r  \"title\": \"y\",\r\n  \"operationalLayers\": [],\n  \"baseMap\": {\"baseMapLayers\": []}\r}"
        let uri = "file:///tmp/maprules-lsp-\(UUID().uuidString).json"
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "json", "version": 1, "text": text]])
        let published = try client.diagnostics()
        let duplicate = try #require((published["diagnostics"] as? [[String: Any]])?.first { $0["code"] as? String == "json/duplicate-key" })
        let start = try #require((duplicate["range"] as? [String: [String: Int]])?["start"])
        #expect(start["line"] == 2 && start["character"] == 2, "\(start)")

        // An incremental change on line 3 (after a CR LF) lands there: the key becomes "title2".
        try client.notify("textDocument/didChange", [
            "textDocument": ["uri": uri, "version": 2],
            "contentChanges": [["range": ["start": ["line": 2, "character": 8], "end": ["line": 2, "character": 8]], "text": "2"]],
        ])
        #expect(!LSPTests.codes(try client.diagnostics()).contains("json/duplicate-key"))
        _ = try client.request("shutdown")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    @Test func messagesThatAreNotObjectsAreInvalidRequests() throws {
        let client = try Client()
        _ = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        for body in ["[1, 2]", "42", "\"text\"", "null"] {
            client.writeRaw(Data("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
            let answer = try client.read()
            #expect(Self.errorCode(answer) == -32600, "\(body): \(answer)")
            #expect(answer["id"] is NSNull, "\(answer)")
        }
        client.writeRaw(Data("Content-Length: 5\r\n\r\n{oops".utf8))
        #expect(Self.errorCode(try client.read()) == -32700)
        try client.closeInput()
        #expect(client.waitForExit() == 1)
    }

    @Test func requestsBeforeInitializeAndAfterShutdownAreRefused() throws {
        let client = try Client()
        let early = try client.request("textDocument/hover", ["textDocument": ["uri": "file:///x.json"], "position": ["line": 0, "character": 0]])
        #expect(Self.errorCode(early) == -32002, "\(early)")
        // A notification before initialize is dropped: no document is opened, nothing is published.
        try client.notify("textDocument/didOpen", ["textDocument": ["uri": "file:///tmp/early.json", "languageId": "json", "version": 1, "text": "[]"]])
        let initialize = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        #expect(initialize["result"] != nil)
        _ = try client.request("shutdown")
        let late = try client.request("textDocument/hover", ["textDocument": ["uri": "file:///x.json"], "position": ["line": 0, "character": 0]])
        #expect(Self.errorCode(late) == -32600, "\(late)")
        let again = try client.request("shutdown")
        #expect(Self.errorCode(again) == -32600, "\(again)")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }

    /// A `\ud83c` with no low half (an editor sends one while an emoji is half typed) made the whole didOpen
    /// unreadable, and the document was never opened; it reads as U+FFFD now (one UTF-16 unit, as the half was),
    /// so positions after it stay right.
    @Test func aLoneSurrogateEscapeKeepsTheDocument() throws {
        let client = try Client()
        _ = try client.request("initialize", ["capabilities": [:] as [String: Any]])
        let uri = "file:///tmp/maprules-lsp-\(UUID().uuidString).json"
        let text = #"{\"title\": \"\ud83c\", \"title\": \"y\", \"operationalLayers\": [], \"baseMap\": {\"baseMapLayers\": []}}"#
        let body = #"{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "\#(uri)", "languageId": "json", "version": 1, "text": "\#(text)"}}}"#
        client.writeRaw(Data("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        let published = try client.diagnostics()
        #expect(published["uri"] as? String == uri)
        let duplicate = try #require((published["diagnostics"] as? [[String: Any]])?.first { $0["code"] as? String == "json/duplicate-key" })
        // {"title": "?", "title" — the second key starts at UTF-16 character 15.
        #expect((duplicate["range"] as? [String: [String: Int]])?["start"]?["character"] == 15, "\(duplicate)")
        _ = try client.request("shutdown")
        try client.notify("exit", [:])
        #expect(client.waitForExit() == 0)
    }
}
