/// A JSON value as it stood in its source file: every node remembers the byte offset where it starts, so a
/// diagnostic about it can name the exact line and column (see `SourceText`).
public struct JSONNode: Sendable {
    public var value: JSONValue
    /// Kept in 32 bits (the parser refuses documents of 2 GiB or more): a large map's tree holds millions of
    /// nodes, and this makes each 24 bytes instead of 32.
    private var storedOffset: Int32

    /// Byte offset of the first character of this value in the source file.
    public var offset: Int {
        get { Int(storedOffset) }
        set { storedOffset = Int32(clamping: newValue) }
    }

    public init(_ value: JSONValue, offset: Int = 0) {
        self.value = value
        storedOffset = Int32(clamping: offset)
    }

    /// The member `key` of an object (the last one when the key is repeated), or nil.
    public subscript(key: String) -> JSONNode? {
        if case .object(let object) = value { return object[key] }
        return nil
    }

    /// The element at `index` of an array, or nil.
    public subscript(index: Int) -> JSONNode? {
        if case .array(let elements) = value, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    public var string: String? { if case .string(let s) = value { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = value { return b } else { return nil } }
    public var number: Double? { if case .number(let n) = value { return n.double } else { return nil } }
    public var integer: Int? {
        if case .number(let n) = value, n.isInteger, let i = n.int { return i }
        return nil
    }
    public var array: [JSONNode]? { if case .array(let a) = value { return a } else { return nil } }
    public var object: JSONObject? { if case .object(let o) = value { return o } else { return nil } }
    public var isNull: Bool { if case .null = value { return true } else { return false } }

    /// The JSON type name used in messages ("object", "array", "string", "number", "boolean", "null").
    public var typeName: String { value.typeName }
}

public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    case object(JSONObject)

    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON number: its value as a Double, and as an Int when it was written as an integer that fits.
/// Stored in 9 bytes (an Int or a Double, and which), which keeps every tree node small.
public struct JSONNumber: Sendable, Equatable {
    private enum Storage: Sendable, Equatable {
        case int(Int)
        /// A number with a fraction or exponent, or an integer too large for Int.
        case double(Double, isInteger: Bool)
    }

    private var storage: Storage

    public init(double: Double, int: Int?, isInteger: Bool) {
        if let int, isInteger { storage = .int(int) } else { storage = .double(double, isInteger: isInteger) }
    }

    public init(_ int: Int) { storage = .int(int) }
    public init(_ double: Double) { storage = .double(double, isInteger: false) }

    public var double: Double {
        switch storage {
        case .int(let i): return Double(i)
        case .double(let d, _): return d
        }
    }

    /// The value as an Int, when it was written as an integer that fits one.
    public var int: Int? {
        if case .int(let i) = storage { return i }
        return nil
    }

    /// True when the source text had no fraction and no exponent.
    public var isInteger: Bool {
        switch storage {
        case .int: return true
        case .double(_, let isInteger): return isInteger
        }
    }
}

/// One `"key": value` pair of an object, with the offset of the key's opening quote.
public struct JSONMember: Sendable {
    public var key: String
    public var value: JSONNode
    /// In 32 bits, like a node's offset (placed after the value, where the node leaves room for it).
    private var storedKeyOffset: Int32

    public var keyOffset: Int {
        get { Int(storedKeyOffset) }
        set { storedKeyOffset = Int32(clamping: newValue) }
    }

    public init(key: String, keyOffset: Int, value: JSONNode) {
        self.key = key
        self.value = value
        storedKeyOffset = Int32(clamping: keyOffset)
    }
}

/// A JSON object keeping its members in source order, repeated keys included; lookups return the last one,
/// as JSON parsers conventionally do.
public struct JSONObject: Sendable {
    public var members: [JSONMember]

    public init(_ members: [JSONMember] = []) { self.members = members }

    public subscript(key: String) -> JSONNode? {
        // Length first: most keys differ in length, and that test is far cheaper than comparing strings.
        let length = key.utf8.count
        var i = members.count - 1
        while i >= 0 {
            if members[i].key.utf8.count == length && members[i].key == key { return members[i].value }
            i -= 1
        }
        return nil
    }

    /// The last member named `key`, with its key offset.
    public func member(_ key: String) -> JSONMember? {
        members.last { $0.key == key }
    }

    /// Members with repeated keys removed (the last occurrence wins, in the position of that occurrence).
    public var uniqueMembers: [JSONMember] {
        var seen = Set<String>()
        var result: [JSONMember] = []
        for member in members.reversed() where seen.insert(member.key).inserted { result.append(member) }
        return result.reversed()
    }

    public var keys: [String] { uniqueMembers.map(\.key) }

    /// True when every key is ASCII: then equal keys are equal bytes (no two different keys are canonically
    /// equivalent), so in a document the parser found no repeated key in, the members are unique as they stand.
    public var keysAreASCII: Bool {
        members.allSatisfy { member in
            var key = member.key
            return key.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
        }
    }
    public var isEmpty: Bool { members.isEmpty }
}
