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
    private var published: [String: [(range: DocumentRange, diagnostic: Diagnostic)]] = [:]
    private var stale: Set<String> = []
    private var linter = Linter()
    private var shutdownRequested = false
    private var initializeReceived = false
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
            let message: JSON
            switch MessageJSON.body(from: data) {
            case .object(let object): message = object
            case .notAnObject:
                writer.write(MessageJSON.error(code: -32600, message: "Invalid request: the message is JSON but not an object", id: .null))
                continue
            case .notJSON:
                writer.write(MessageJSON.error(code: -32700, message: "Parse error: the message is not JSON", id: .null))
                continue
            }
            let method = message["method"]?.string
            if method == "exit" { return shutdownRequested ? 0 : 1 }
            handle(message, method: method)
            if !reader.hasBufferedMessage { lintStale() }
        }
    }

    private func handle(_ message: JSON, method: String?) {
        let id = message["id"]  // a request's, echoed as it came; `null` is an id too
        let params = message["params"] ?? .null  // looking up a member of a value that is not an object finds nothing
        guard let method else { return }  // an answer to a request of ours: none are sent
        // LSP's lifecycle: before `initialize` a request is answered -32002 (a notification dropped); after
        // `shutdown` a request is an invalid request (-32600).
        if !initializeReceived && method != "initialize" {
            if let id { writer.write(MessageJSON.error(code: -32002, message: "Server not initialized: send initialize first", id: id)) }
            return
        }
        if shutdownRequested {
            if let id { writer.write(MessageJSON.error(code: -32600, message: "Invalid request: the server was shut down; only exit is accepted", id: id)) }
            return
        }
        do {
            let result = try dispatch(method, params, isRequest: id != nil)
            if let id { writer.write(MessageJSON.result(result ?? .null, id: id)) }
        } catch LanguageServerError.methodNotFound(let name) {
            if let id { writer.write(MessageJSON.error(code: -32601, message: "Method not found: \(name)", id: id)) }
        } catch LanguageServerError.invalidParams(let text) {
            if let id { writer.write(MessageJSON.error(code: -32602, message: "Invalid params: \(text)", id: id)) }
        } catch {
            if let id { writer.write(MessageJSON.error(code: -32603, message: "\(error)", id: id)) }
        }
    }

    private func dispatch(_ method: String, _ params: JSON, isRequest: Bool) throws -> JSON? {
        switch method {
        case "initialize":
            initializeReceived = true
            return .members([
                "capabilities": .members([
                    "positionEncoding": .string("utf-16"),
                    "textDocumentSync": .members(["openClose": .bool(true), "change": .int(2), "save": .members(["includeText": .bool(false)])]),
                    "hoverProvider": .bool(true),
                    "codeActionProvider": .members(["codeActionKinds": .array([.string("quickfix")])]),
                ]),
                "serverInfo": .members(["name": .string("maprules"), "version": .string("0.1.0")]),
            ])
        case "initialized", "$/setTrace", "$/cancelRequest", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles":
            return nil
        case "shutdown":
            shutdownRequested = true
            return nil
        case "textDocument/didOpen":
            let item = params["textDocument"]
            guard let uri = item?["uri"]?.string, let text = item?["text"]?.string else {
                throw LanguageServerError.invalidParams("didOpen without textDocument.uri and text")
            }
            documents[uri] = TextDocument(uri: uri, version: item?["version"]?.integer ?? 0, text: text)
            stale.insert(uri)
            return nil
        case "textDocument/didChange":
            let identifier = params["textDocument"]
            guard let uri = identifier?["uri"]?.string, var document = documents[uri] else {
                throw LanguageServerError.invalidParams("didChange of a document that is not open")
            }
            // Applied only when they are an array of objects: anything else changes nothing (as it always has).
            let changes = params["contentChanges"]?.array ?? []
            if changes.allSatisfy({ $0.objectMembers != nil }) {
                for change in changes { try document.apply(change) }
            }
            document.version = identifier?["version"]?.integer ?? document.version + 1
            documents[uri] = document
            stale.insert(uri)
            return nil
        case "textDocument/didSave":
            // Snapshots and configuration beside the file may have changed with it: read them again.
            linter = Linter()
            if let uri = params["textDocument"]?["uri"]?.string, documents[uri] != nil { stale.insert(uri) }
            return nil
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.string else { return nil }
            documents[uri] = nil
            published[uri] = nil
            stale.remove(uri)
            writer.write(MessageJSON.notification("textDocument/publishDiagnostics", .members(["uri": .string(uri), "diagnostics": .array([])])))
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
            writer.write(MessageJSON.notification("textDocument/publishDiagnostics", .members([
                "uri": .string(uri), "version": .int(document.version), "diagnostics": .array(diagnostics),
            ])))
        }
        stale.removeAll()
    }

    private func lint(_ document: TextDocument) -> [JSON] {
        let path = Self.path(of: document.uri)
        let report: FileReport?
        do {
            report = try linter.lint(path: path, displayPath: path, text: SourceText(bytes: Array(document.text.utf8)), isExplicit: true)
        } catch {
            published[document.uri] = []
            let firstCharacter = DocumentRange(start: DocumentPosition(line: 0, character: 0), end: DocumentPosition(line: 0, character: 1))
            return [.members(["range": firstCharacter.json, "severity": .int(1), "source": .string("maprules"), "message": .string("\(error)")])]
        }
        let diagnostics = report?.diagnostics ?? []
        let ranges = LineTable(document.text).tokenRanges(diagnostics.map { ($0.line, $0.column) })
        let entries = Array(zip(ranges, diagnostics))
        published[document.uri] = entries.map { (range: $0.0, diagnostic: $0.1) }
        return entries.map { range, diagnostic in Self.json(diagnostic, at: range, withPointer: true) }
    }

    private func hover(_ params: JSON) -> JSON? {
        guard let uri = params["textDocument"]?["uri"]?.string,
              let position = DocumentPosition(params["position"]), let entries = published[uri] else { return nil }
        let hits = entries.filter { $0.range.contains(position) }
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
        return .members(["contents": .members(["kind": .string("markdown"), "value": .string(text)]), "range": hits[0].range.json])
    }

    /// The fixes of the diagnostics whose range meets the requested range, as quick fixes whose edits are the
    /// fix's minimal text edits (the same `maprules lint --fix` makes).
    private func codeActions(_ params: JSON) -> JSON {
        guard let uri = params["textDocument"]?["uri"]?.string, let document = documents[uri],
              let range = DocumentRange(params["range"]), let entries = published[uri] else { return .array([]) }
        let hits = entries.filter { $0.range.meets(range) }
        let lines = LineTable(document.text)
        return .array(hits.compactMap { entry -> JSON? in
            guard let fix = entry.diagnostic.fix, !fix.edits.isEmpty else { return nil }
            let positions = lines.positions(fix.edits.flatMap { [($0.start.line, $0.start.column), ($0.end.line, $0.end.column)] })
            let edits = fix.edits.enumerated().map { index, edit -> JSON in
                .members(["range": DocumentRange(start: positions[2 * index], end: positions[2 * index + 1]).json, "newText": .string(edit.text)])
            }
            return .members([
                "title": .string(fix.description), "kind": .string("quickfix"), "isPreferred": .bool(true),
                "diagnostics": .array([Self.json(entry.diagnostic, at: entry.range, withPointer: false)]),
                "edit": .members(["changes": .object([(uri, .array(edits))])]),
            ])
        })
    }

    /// An LSP diagnostic: the rule ID as its code, and with `withPointer` the finding's JSON pointer as its `data`.
    private static func json(_ diagnostic: Diagnostic, at range: DocumentRange, withPointer: Bool) -> JSON {
        var json = JSON.members([
            "range": range.json, "severity": .int(severity(diagnostic.severity)), "code": .string(diagnostic.ruleId),
            "source": .string("maprules"), "message": .string(diagnostic.message),
        ])
        if withPointer { json.set("data", .members(["pointer": .string(diagnostic.pointer)])) }
        return json
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
