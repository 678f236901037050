import Foundation
import WebMap

/// A JSON-RPC message's body as the `[String: Any]` the server works with, read by WebMap's parser rather than
/// Foundation's: on Linux `JSONSerialization` drops a byte order mark that starts a string value, so a map
/// opened with a BOM lost it, and every position on its first line (diagnostics, fixes, incremental edits)
/// was one character off from the editor's text.
enum MessageJSON {
    /// The message's top-level object; nil when the body is not JSON or not an object.
    static func object(from data: Data) -> [String: Any]? {
        var options = JSONParser.Options()
        options.elideLargeArraysNamed = []
        guard let parsed = try? JSONParser.parse(SourceText(bytes: [UInt8](data)), options: options) else { return nil }
        return value(of: parsed.root) as? [String: Any]
    }

    private static func value(of node: JSONNode) -> Any {
        switch node.value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n): return n.isInteger ? (n.int.map { $0 as Any } ?? n.double) : n.double
        case .string(let s): return s
        case .array(let items): return items.map(value(of:))
        case .object(let object):
            var result: [String: Any] = [:]
            for member in object.members { result[member.key] = value(of: member.value) }
            return result
        }
    }
}
