import Foundation
import WebMap

/// A JSON-RPC message's body read into the project's `JSON` value by WebMap's parser rather than Foundation's:
/// on Linux `JSONSerialization` drops a byte order mark that starts a string value, so a map opened with a BOM
/// lost it, and every position on its first line (diagnostics, fixes, incremental edits) was one character off
/// from the editor's text.
enum MessageJSON {
    /// What a message's body holds.
    enum Body {
        /// A JSON object: a request, notification or answer.
        case object(JSON)
        /// JSON, but not an object (JSON-RPC: -32600, invalid request).
        case notAnObject
        /// Not JSON at all (JSON-RPC: -32700, parse error).
        case notJSON
    }

    /// The message's top-level object. A key written twice keeps its last value, as JSON parsers
    /// conventionally do; a `\u` escape of a lone surrogate (which editors written in JavaScript send) is
    /// read as U+FFFD, one UTF-16 unit for one, so that the message (and the document it carries) is kept.
    static func body(from data: Data) -> Body {
        var options = JSONParser.Options()
        options.elideLargeArraysNamed = []
        options.replaceLoneSurrogates = true
        guard let parsed = try? JSONParser.parse(SourceText(bytes: [UInt8](data)), options: options) else { return .notJSON }
        let message = JSON(parsed.root)
        guard case .object = message else { return .notAnObject }
        return .object(message)
    }

    /// The answer to request `id` (echoed as it came: a number stays a number, a string a string).
    static func result(_ result: JSON, id: JSON) -> JSON {
        .members(["jsonrpc": .string("2.0"), "id": id, "result": result])
    }

    /// The error answer to request `id` (`null` when the request could not be read).
    static func error(code: Int, message: String, id: JSON) -> JSON {
        .members(["jsonrpc": .string("2.0"), "id": id, "error": .members(["code": .int(code), "message": .string(message)])])
    }

    /// A notification from the server.
    static func notification(_ method: String, _ params: JSON) -> JSON {
        .members(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
    }
}

extension JSON {
    /// An object with these members, in this order: `.members(["kind": .string("markdown"), "value": text])`.
    static func members(_ members: KeyValuePairs<String, JSON>) -> JSON {
        .object(members.map { ($0.key, $0.value) })
    }

    /// An integer as LSP sends them: written without fraction or exponent and within `Int` (`1.0` is not one).
    var integer: Int? {
        if case .int(let value) = self { return value }
        return nil
    }
}
