import Foundation
import WebMap

/// One attribute value as stored and served: JSON scalars only (dates are epoch milliseconds, GUIDs braced
/// upper-case strings).
public enum AttributeValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case int(Int64)
    case double(Double)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let i = try? container.decode(Int64.self) { self = .int(i) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else if let b = try? container.decode(Bool.self) { self = .int(b ? 1 : 0) }
        else { self = .string(try container.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .int(let i): try container.encode(i)
        case .double(let d): if d.isFinite { try container.encode(d) } else { try container.encodeNil() }
        case .string(let s): try container.encode(s)
        }
    }

    public init(_ json: JSON) {
        switch json {
        case .null, .array, .object: self = .null
        case .bool(let b): self = .int(b ? 1 : 0)
        case .int(let i): self = .int(Int64(i))
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        }
    }

    /// The value of a parsed JSON node (WebMap's parser), read the same way as `init(_ json:)`.
    public init(_ node: JSONNode) {
        switch node.value {
        case .null, .array, .object: self = .null
        case .bool(let b): self = .int(b ? 1 : 0)
        case .number(let n): self = n.int.map { .int(Int64($0)) } ?? .double(n.double)
        case .string(let s): self = .string(s)
        }
    }

    /// The members of a stored attributes (or point geometry) object, read with the project's one JSON
    /// parser, straight from its tree.
    package static func members(ofStoredObject text: String) throws -> [(String, AttributeValue)] {
        let parsed = try storedObject(text)
        return (parsed.root.object?.members ?? []).map { ($0.key, AttributeValue($0.value)) }
    }

    /// Parser options for stored objects, made once: the defaults build a set of names to elide for
    /// every parse, which only matters for documents over 16 MB (stored rows never are).
    private static let storedObjectOptions: JSONParser.Options = {
        var options = JSONParser.Options()
        options.elideLargeArraysNamed = []
        return options
    }()

    /// A stored attributes (or geometry) object, parsed with the project's one JSON parser.
    package static func storedObject(_ text: String) throws -> ParsedJSON {
        do { return try JSONParser.parse(text, options: storedObjectOptions) } catch {
            throw ServiceError.invalidParameter("stored JSON is not valid at character \(error.offset): \(error.message)")
        }
    }

    public var json: JSON {
        switch self {
        case .null: return .null
        case .int(let i): return .int(Int(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        }
    }

    public var isNull: Bool { self == .null }
    public var double: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }

    public var description: String {
        switch self {
        case .null: return "null"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return "'\(s)'"
        }
    }

    /// Equality that treats 2 and 2.0 as the same value (JSON does not tell them apart).
    public func sameValue(as other: AttributeValue) -> Bool {
        if let a = double, let b = other.double { return a == b }
        return self == other
    }
}

/// A feature's attributes in field order, encoded as one JSON object.
public struct Attributes: Sendable, Equatable, Codable, Sequence {
    public private(set) var entries: [(name: String, value: AttributeValue)]

    public init(_ entries: [(name: String, value: AttributeValue)] = []) { self.entries = entries }

    public static func == (lhs: Attributes, rhs: Attributes) -> Bool {
        lhs.entries.count == rhs.entries.count && zip(lhs.entries, rhs.entries).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// The value of `name`, compared case-insensitively; nil when the attribute is absent.
    public subscript(name: String) -> AttributeValue? {
        get { index(of: name).map { entries[$0].value } }
        set {
            if let index = index(of: name) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((name, newValue))
            }
        }
    }

    /// Exact match first (the common case, and cheap), then without regard to case.
    private func index(of name: String) -> Int? { Self.index(of: name, in: entries.lazy.map(\.name)) }

    /// Where `subscript(name)` finds `name` among `names` (attribute names in order).
    package static func index(of name: String, in names: some Collection<String>) -> Int? {
        var position = 0
        for candidate in names {
            if candidate == name { return position }
            position += 1
        }
        position = 0
        for candidate in names {
            if sameIgnoringCase(candidate, name) { return position }
            position += 1
        }
        return nil
    }

    /// Whether two names are equal without regard to case: ASCII compared byte by byte (field names
    /// nearly always are; no string is made), anything else through `lowercased()`.
    package static func sameIgnoringCase(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator(), right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case let (x?, y?):
                if x >= 0x80 || y >= 0x80 { return a.lowercased() == b.lowercased() }
                let foldedX = (x >= 0x41 && x <= 0x5A) ? x | 0x20 : x, foldedY = (y >= 0x41 && y <= 0x5A) ? y | 0x20 : y
                if foldedX != foldedY { return false }
            default: return false
            }
        }
    }

    package mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    /// Appends without looking for an existing entry (the caller knows the names are distinct).
    package mutating func appendUnchecked(_ name: String, _ value: AttributeValue) { entries.append((name, value)) }

    public var names: [String] { entries.map(\.name) }
    public var isEmpty: Bool { entries.isEmpty }
    public func makeIterator() -> IndexingIterator<[(name: String, value: AttributeValue)]> { entries.makeIterator() }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        entries = try container.allKeys.map { ($0.stringValue, try container.decode(AttributeValue.self, forKey: $0)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in entries { try container.encode(value, forKey: Key(name)) }
    }

    /// From a JSON object (`{"Name": value, ...}`); nested values read as null.
    public init(json: JSON) {
        entries = (json.objectMembers ?? []).map { ($0.0, AttributeValue($0.1)) }
    }

    public var json: JSON { .object(entries.map { ($0.name, $0.value.json) }) }
}
