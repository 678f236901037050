import Foundation
import WebMap

/// A JSON-RPC message's body read into the project's `JSON` value by WebMap's parser rather than Foundation's:
/// on Linux `JSONSerialization` drops a byte order mark that starts a string value, so a map opened with a BOM
/// lost it, and every position on its first line (diagnostics, fixes, incremental edits) was one character off
/// from the editor's text.
enum MessageJSON {
    /// The message's top-level object; nil when the body is not JSON or not an object. A key written twice
    /// keeps its last value, as JSON parsers conventionally do.
    static func object(from data: Data) -> JSON? {
        var options = JSONParser.Options()
        options.elideLargeArraysNamed = []
        guard let parsed = try? JSONParser.parse(SourceText(bytes: [UInt8](data)), options: options) else { return nil }
        let message = JSON(parsed.root)
        guard case .object = message else { return nil }
        return message
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
