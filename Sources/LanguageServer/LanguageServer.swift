import Foundation
import Rules
import WebMap

enum LanguageServerError: Error {
    case invalidParams(String)
    case methodNotFound(String)
}

/// `maprules lsp`: a Language Server (LSP 3.17) over standard input and output. Open web maps are linted on every
/// change with the same catalogue as `maprules lint` (the services snapshot beside the file and the nearest
/// `.maprules.json` honoured, as the file's path finds them) and their diagnostics published with ranges in
/// UTF-16 columns; hovering a diagnostic shows the rule's rationale and fix.
///
/// Messages are handled one at a time. When a change is followed by messages already waiting, linting waits
/// for the last of them, so that typing fast never queues up work on stale text.
public final class LanguageServer {
    private let reader: MessageReader
    private let writer: MessageWriter
    private var documents: [String: TextDocument] = [:]
    /// Diagnostics last published per document, for hover.
    private var published: [String: [(range: [String: Any], diagnostic: Diagnostic)]] = [:]
    private var stale: Set<String> = []
    private var linter = Linter()
    private var shutdownRequested = false
    private let catalogue = Dictionary(RuleCatalog.all.map { ($0.description.id, $0.description) }, uniquingKeysWith: { a, _ in a })
    /// Called with the time each lint took (for tests and `--verbose`).
    public var onLint: ((String, TimeInterval) -> Void)?

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        reader = MessageReader(descriptor: input)
        writer = MessageWriter(descriptor: output)
    }

    /// Serves until `exit` or the end of input. Returns the process exit code LSP asks for: 0 after `shutdown`,
    /// 1 otherwise.
    public func run() -> Int32 {
        while true {
            let data: Data?
            do { data = try reader.next() } catch {
                log("maprules lsp: \(error); stopping")
                return 1
            }
            guard let data else { return shutdownRequested ? 0 : 1 }
            guard let message = MessageJSON.object(from: data) else {
                writer.write(["jsonrpc": "2.0", "id": NSNull(), "error": ["code": -32700, "message": "Parse error: the message is not a JSON object"]])
                continue
            }
            let method = message["method"] as? String
            if method == "exit" { return shutdownRequested ? 0 : 1 }
            handle(message, method: method)
            if !reader.hasBufferedMessage { lintStale() }
        }
    }

    private func handle(_ message: [String: Any], method: String?) {
        let id = message["id"]
        let params = message["params"] as? [String: Any] ?? [:]
        guard let method else { return }  // an answer to a request of ours: none are sent
        do {
            let result = try dispatch(method, params, isRequest: id != nil)
            if let id { writer.write(["jsonrpc": "2.0", "id": id, "result": result ?? NSNull()]) }
        } catch LanguageServerError.methodNotFound(let name) {
            if let id { writer.write(["jsonrpc": "2.0", "id": id, "error": ["code": -32601, "message": "Method not found: \(name)"]]) }
        } catch LanguageServerError.invalidParams(let text) {
            if let id { writer.write(["jsonrpc": "2.0", "id": id, "error": ["code": -32602, "message": "Invalid params: \(text)"]]) }
        } catch {
            if let id { writer.write(["jsonrpc": "2.0", "id": id, "error": ["code": -32603, "message": "\(error)"]]) }
        }
    }

    private func dispatch(_ method: String, _ params: [String: Any], isRequest: Bool) throws -> Any? {
        switch method {
        case "initialize":
            return [
                "capabilities": [
                    "positionEncoding": "utf-16",
                    "textDocumentSync": ["openClose": true, "change": 2, "save": ["includeText": false]],
                    "hoverProvider": true,
                    "codeActionProvider": ["codeActionKinds": ["quickfix"]],
                ] as [String: Any],
                "serverInfo": ["name": "maprules", "version": "0.1.0"],
            ] as [String: Any]
        case "initialized", "$/setTrace", "$/cancelRequest", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles":
            return nil
        case "shutdown":
            shutdownRequested = true
            return nil
        case "textDocument/didOpen":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String, let text = item["text"] as? String else {
                throw LanguageServerError.invalidParams("didOpen without textDocument.uri and text")
            }
            documents[uri] = TextDocument(uri: uri, version: item["version"] as? Int ?? 0, text: text)
            stale.insert(uri)
            return nil
        case "textDocument/didChange":
            let identifier = params["textDocument"] as? [String: Any]
            guard let uri = identifier?["uri"] as? String, var document = documents[uri] else {
                throw LanguageServerError.invalidParams("didChange of a document that is not open")
            }
            for change in params["contentChanges"] as? [[String: Any]] ?? [] { try document.apply(change) }
            document.version = identifier?["version"] as? Int ?? document.version + 1
            documents[uri] = document
            stale.insert(uri)
            return nil
        case "textDocument/didSave":
            // Snapshots and configuration beside the file may have changed with it: read them again.
            linter = Linter()
            if let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, documents[uri] != nil { stale.insert(uri) }
            return nil
        case "textDocument/didClose":
            guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String else { return nil }
            documents[uri] = nil
            published[uri] = nil
            stale.remove(uri)
            writer.write(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": ["uri": uri, "diagnostics": [] as [Any]]])
            return nil
        case "textDocument/hover":
            // Answer from the text as it is now: linting put off for waiting messages is done first, else a fix
            // would carry the ranges of an older text and replace the wrong characters.
            if !stale.isEmpty { lintStale() }
            return hover(params)
        case "textDocument/codeAction":
            if !stale.isEmpty { lintStale() }
            return codeActions(params)
        default:
            if method.hasPrefix("$/") || !isRequest { return nil }
            throw LanguageServerError.methodNotFound(method)
        }
    }

    private func lintStale() {
        for uri in stale.sorted() {
            guard let document = documents[uri] else { continue }
            let started = Date()
            let diagnostics = lint(document)
            onLint?(uri, Date().timeIntervalSince(started))
            writer.write(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                          "params": ["uri": uri, "version": document.version, "diagnostics": diagnostics] as [String: Any]])
        }
        stale.removeAll()
    }

    private func lint(_ document: TextDocument) -> [[String: Any]] {
        let path = Self.path(of: document.uri)
        let report: FileReport?
        do {
            report = try linter.lint(path: path, displayPath: path, text: SourceText(bytes: Array(document.text.utf8)), isExplicit: true)
        } catch {
            published[document.uri] = []
            return [["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 1]], "severity": 1,
                     "source": "maprules", "message": "\(error)"]]
        }
        let diagnostics = report?.diagnostics ?? []
        let ranges = LineTable(document.text).tokenRanges(diagnostics.map { ($0.line, $0.column) })
        var entries: [(range: [String: Any], diagnostic: Diagnostic)] = []
        let result = zip(ranges, diagnostics).map { range, diagnostic -> [String: Any] in
            entries.append((range, diagnostic))
            let item: [String: Any] = [
                "range": range, "severity": Self.severity(diagnostic.severity), "code": diagnostic.ruleId,
                "source": "maprules", "message": diagnostic.message,
                "data": ["pointer": diagnostic.pointer],
            ]
            return item
        }
        published[document.uri] = entries
        return result
    }

    private func hover(_ params: [String: Any]) -> Any? {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String,
              let position = TextDocument.position(params["position"]), let entries = published[uri] else { return nil }
        let hits = entries.filter { Self.contains($0.range, position) }
        guard !hits.isEmpty else { return nil }
        let text = hits.map { entry -> String in
            let rule = catalogue[entry.diagnostic.ruleId]
            var parts = ["**\(entry.diagnostic.ruleId)** (\(entry.diagnostic.severity.rawValue)): \(rule?.summary ?? "")"]
            if let rule {
                parts.append("**Why:** \(rule.rationale)")
                parts.append("**Fix:** \(rule.fix)")
            }
            parts.append("Run `maprules explain \(entry.diagnostic.ruleId)` for its examples.")
            return parts.joined(separator: "\n\n")
        }.joined(separator: "\n\n---\n\n")
        return ["contents": ["kind": "markdown", "value": text], "range": hits[0].range] as [String: Any]
    }

    /// The fixes of the diagnostics whose range meets the requested range, as quick fixes whose edits are the
    /// fix's minimal text edits (the same `maprules lint --fix` makes).
    private func codeActions(_ params: [String: Any]) -> Any? {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let document = documents[uri],
              let range = params["range"] as? [String: Any], let start = TextDocument.position(range["start"]),
              let end = TextDocument.position(range["end"]), let entries = published[uri] else { return [] as [Any] }
        let hits = entries.filter { entry in
            guard let from = TextDocument.position(entry.range["start"]), let to = TextDocument.position(entry.range["end"]) else { return false }
            return (from.line, from.character) <= (end.line, end.character) && (start.line, start.character) <= (to.line, to.character)
        }
        let lines = LineTable(document.text)
        return hits.compactMap { entry -> [String: Any]? in
            guard let fix = entry.diagnostic.fix, !fix.edits.isEmpty else { return nil }
            let positions = lines.positions(fix.edits.flatMap { [($0.start.line, $0.start.column), ($0.end.line, $0.end.column)] })
            let edits = fix.edits.enumerated().map { index, edit -> [String: Any] in
                ["range": ["start": positions[2 * index], "end": positions[2 * index + 1]], "newText": edit.text]
            }
            return [
                "title": fix.description, "kind": "quickfix", "isPreferred": true,
                "diagnostics": [["range": entry.range, "code": entry.diagnostic.ruleId, "message": entry.diagnostic.message,
                                 "severity": Self.severity(entry.diagnostic.severity), "source": "maprules"]],
                "edit": ["changes": [uri: edits]],
            ] as [String: Any]
        }
    }

    private static func contains(_ range: [String: Any], _ position: (line: Int, character: Int)) -> Bool {
        guard let start = TextDocument.position(range["start"]), let end = TextDocument.position(range["end"]) else { return false }
        let p = (position.line, position.character)
        return (start.line, start.character) <= p && p <= (end.line, end.character)
    }

    private static func severity(_ severity: Severity) -> Int {
        switch severity {
        case .error: return 1
        case .warning: return 2
        case .info: return 3
        }
    }

    /// The file path of a `file://` URI (percent-decoded); other URIs are used as they are.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://"), let url = URL(string: uri) else { return uri }
        return url.path
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
