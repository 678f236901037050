import Foundation
import Service
import FeatureServiceModel
import WebMap

/// The parameters of one request: the query string and, for POST, the form body
/// (`application/x-www-form-urlencoded` or `multipart/form-data`), merged, with names matched without
/// regard to case (as ArcGIS Server does). A body value wins over a query-string value of the same name.
/// Unknown parameters are simply never asked for.
public struct RequestArguments: Sendable {
    /// An uploaded file of a multipart body (`addAttachment`'s `attachment` part).
    public struct UploadedFile: Sendable, Equatable {
        public var filename: String
        public var contentType: String
        public var data: Data
    }

    /// One parameter as it came, its name lower-cased (`key`).
    private struct Entry: Sendable {
        var key: String
        var value: String
    }

    /// The parameters in the order they came, a later one of a name replacing an earlier one. A request carries a
    /// handful; a route asks for some twenty names, most of them absent: a scan of this list compares a few
    /// lengths, where a dictionary hashed every name asked, lower-cased into a new string first (about 1 % of a page's
    /// CPU). Adding is O(1) and a look-up O(n), so a body of many parameters stays linear in what routes ask.
    private var entries: [Entry] = []
    private var files: [String: UploadedFile] = [:]

    public init() {}

    /// Adds (or replaces) a value; `name` is matched case-insensitively later.
    public mutating func set(_ name: String, _ value: String) {
        entries.append(Entry(key: Self.key(name), value: value))
    }

    mutating func set(file: UploadedFile, named name: String) { files[Self.key(name)] = file }

    /// Adds every parameter of `other`, replacing values of the same name.
    mutating func merge(_ other: RequestArguments) {
        entries.append(contentsOf: other.entries)
        files.merge(other.files) { _, new in new }
    }

    /// The name as stored: lower-cased, without a copy when it has no upper-case ASCII letter to change.
    static func key(_ name: String) -> String { name.lowercasedCheaply() }

    /// The names present (lower-cased), for tests and diagnostics.
    public var names: [String] { Set(entries.map(\.key)).sorted() }

    /// The last value given for `name` (as `values[key(name)]` of a dictionary keeping the last), compared in
    /// place (WebMap's `equalsIgnoringCase`: ASCII byte by byte, other text lower-cased).
    private func value(_ name: String) -> String? {
        entries.last { $0.key.equalsIgnoringCase(name) }?.value
    }

    // MARK: Typed access

    /// The text of `name`, or nil when absent. An empty value counts as absent, as ArcGIS reads it.
    public func string(_ name: String) -> String? {
        guard let value = value(name), !value.isEmpty else { return nil }
        return value
    }

    /// The uploaded file of the multipart part `name`.
    public func file(_ name: String) -> UploadedFile? { files[Self.key(name)] }

    /// `true` / `false` (any case); absent gives `default`; anything else is a 400 naming the parameter.
    public func bool(_ name: String, default defaultValue: Bool) throws -> Bool {
        try optionalBool(name) ?? defaultValue
    }

    public func optionalBool(_ name: String) throws -> Bool? {
        guard let text = string(name).map(Self.trimmingWhitespace) else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ServiceError.invalidParameter("\(name) must be true or false, not '\(text.prefix(40))'.")
        }
    }

    public func int(_ name: String) throws -> Int? {
        guard let text = string(name).map(Self.trimmingWhitespace) else { return nil }
        guard let value = Int(text) else { throw ServiceError.invalidParameter("\(name) must be an integer, not '\(text.prefix(40))'.") }
        return value
    }

    /// `text.trimmingCharacters(in: .whitespaces)`, without Foundation when the text is ASCII (Foundation's trimming was
    /// 2 % of a page's CPU, reading its two integers): space and tab are the only ASCII members of `.whitespaces`.
    static func trimmingWhitespace(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return text.trimmingCharacters(in: .whitespaces) }
        let isKept = { (byte: UInt8) in byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") }
        guard let first = utf8.firstIndex(where: isKept), let last = utf8.lastIndex(where: isKept) else { return "" }
        if first == utf8.startIndex && utf8.index(after: last) == utf8.endIndex { return text }
        return String(decoding: utf8[first...last], as: UTF8.self)
    }

    /// A JSON-valued parameter (sent as a JSON string), parsed.
    public func json(_ name: String) throws -> JSON? {
        guard let text = string(name) else { return nil }
        do { return try JSON.parse(text) } catch let error as ServiceError {
            throw ServiceError.invalidParameter("\(name) is \(error.details.first ?? "not valid JSON").")
        }
    }

    /// A spatial reference given as `4326` or `{"wkid": 4326}`.
    public func spatialReference(_ name: String) throws -> SpatialReference? {
        guard let json = try json(name) else { return nil }
        guard let reference = SpatialReference(json: json) else {
            throw ServiceError.invalidParameter("\(name) must be a well-known id (4326, 3857...) or {\"wkid\": n}.")
        }
        return reference
    }

    /// A comma list of integers (object ids, attachment ids).
    public func integers(_ name: String) throws -> [Int64]? {
        guard let text = string(name) else { return nil }
        // JSON arrays are accepted too: `[1,2,3]`.
        let list = text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return try QueryParameters.parseObjectIds(list)
    }

    // MARK: Decoding bodies

    /// Parses `a=1&b=x+y%21` (plus as space, percent-escapes as UTF-8).
    public static func formURLEncoded(_ text: Substring) -> RequestArguments {
        var arguments = RequestArguments()
        // Split on the bytes "&" and "=", as the form encoding defines it (and without finding character
        // boundaries in a large body): both are ASCII, so every piece is whole UTF-8.
        let pairs = text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        arguments.entries.reserveCapacity(pairs.count)
        for pair in pairs {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeComponent(Substring(parts[0]))
            let value = parts.count > 1 ? decodeComponent(Substring(parts[1])) : ""
            guard !name.isEmpty else { continue }
            arguments.set(name, value)
        }
        return arguments
    }

    /// Percent-decoding that never fails: an invalid escape is kept as written.
    static func decodeComponent(_ text: Substring) -> String {
        // Without `+` or `%` the text is its own decoding (`String(decoding:)` repairs invalid UTF-8 as the loop below does).
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) {
            return String(decoding: text.utf8, as: UTF8.self)
        }
        var text = text
        return text.withUTF8 { input in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(input.count)
            var i = 0
            while i < input.count {
                let byte = input[i]
                i += 1
                switch byte {
                case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
                case UInt8(ascii: "%"):
                    if i + 1 < input.count, let high = hexValue(input[i]), let low = hexValue(input[i + 1]) {
                        bytes.append(high << 4 | low)
                        i += 2
                    } else {
                        bytes.append(byte)
                    }
                default: bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
