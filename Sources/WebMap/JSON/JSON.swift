import Foundation

/// A JSON value that encodes and decodes with `Codable`: what the core answers where the answer is a
/// document rather than a record (layer and service metadata, raw attribute values from clients).
///
/// Object members keep their order, so metadata is served in the order the sample file wrote it.
public enum JSON: Sendable, Equatable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Converts a parsed source document (WebMap's position-keeping tree) into a plain value.
    public init(_ node: JSONNode) {
        self.init(node, noRepeatedKeys: false)
    }

    /// `noRepeatedKeys`: the parser found no key written twice in one object. Then an object whose keys are
    /// all ASCII (where equal strings are equal bytes) has unique members as they are, and the set-based
    /// `uniqueMembers` is skipped.
    package init(_ node: JSONNode, noRepeatedKeys: Bool) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = n.isInteger && n.int != nil ? .int(n.int!) : .double(n.double)
        case .string(let s): self = .string(s)
        case .array(let elements): self = .array(elements.map { JSON($0, noRepeatedKeys: noRepeatedKeys) })
        case .object(let object):
            let unique = noRepeatedKeys && object.keysAreASCII
            self = .object((unique ? object.members : object.uniqueMembers).map { ($0.key, JSON($0.value, noRepeatedKeys: noRepeatedKeys)) })
        }
    }

    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// The member named `key`, compared without regard to case (as ArcGIS parameter and field names are).
    public func member(caseInsensitive key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        if let exact = members.last(where: { $0.0 == key }) { return exact.1 }
        let lower = key.lowercased()
        return members.last { $0.0.lowercased() == lower }?.1
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var array: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectMembers: [(String, JSON)]? { if case .object(let o) = self { return o } else { return nil } }
    public var isNull: Bool { if case .null = self { return true } else { return false } }
    public var double: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
    public var int: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int(d)
        default: return nil
        }
    }
    /// A number as a 64-bit integer (a moment in epoch milliseconds, say), a fraction truncated; nil when it is
    /// not a number or is beyond Int64 (`Int64(1e300)` would trap and stop the process).
    public var int64: Int64? {
        switch self {
        case .int(let i): return Int64(i)
        case .double(let d) where d.isFinite && abs(d) < 9.2e18: return Int64(d)
        default: return nil
        }
    }

    /// Sets (or appends) the member `key` of an object; no effect on other values.
    public mutating func set(_ key: String, _ value: JSON) {
        guard case .object(var members) = self else { return }
        if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = value } else { members.append((key, value)) }
        self = .object(members)
    }

    // MARK: Codable

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            self = .object(try container.allKeys.map { ($0.stringValue, try container.decode(JSON.self, forKey: $0)) })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSON] = []
            while !container.isAtEnd { elements.append(try container.decode(JSON.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let i = try? container.decode(Int.self) { self = .int(i) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else { self = .string(try container.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in members { try container.encode(value, forKey: Key(key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let b):
            var container = encoder.singleValueContainer()
            try container.encode(b)
        case .int(let i):
            var container = encoder.singleValueContainer()
            try container.encode(i)
        case .double(let d):
            var container = encoder.singleValueContainer()
            if d.isFinite { try container.encode(d) } else { try container.encodeNil() }
        case .string(let s):
            var container = encoder.singleValueContainer()
            try container.encode(s)
        }
    }

    /// Compact JSON text.
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { text }

    // The text is gathered as UTF-8 bytes: appending to a String scalar by scalar was most of the cost of
    // storing a feature. The same writer serves the HTTP face (`Server`'s JSONBytes), so there is one
    // definition of the compact text.
    /// Appends this value as compact JSON text (members in order, integral doubles written as integers).
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: JSON.appendASCII("null", to: &out)
        case .bool(let b): JSON.appendASCII(b ? "true" : "false", to: &out)
        case .int(let i): JSON.appendInteger(i, to: &out)
        case .double(let d): JSON.appendDouble(d, to: &out)
        case .string(let s): JSON.appendString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    @inlinable @inline(__always)
    public static func appendASCII(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A double as JSON: `null` when not finite, an integer when integral and below 10^15, else Swift's
    /// shortest round-tripping text (`description`).
    @inlinable
    public static func appendDouble(_ d: Double, to out: inout [UInt8]) {
        if !d.isFinite { appendASCII("null", to: &out) }
        else if d.rounded() == d && abs(d) < 1e15 { appendInteger(Int(d), to: &out) }
        else {
            // `write(to:)` gives a finite double's `description` text (the same formatter), handed to the stream's
            // `_writeASCII` from a stack buffer: no String made (one was allocated for every text over 15
            // bytes, as most projected coordinates are). Tested against `description`.
            withUnsafeMutablePointer(to: &out) { pointer in
                var stream = ByteStream(pointer)
                d.write(to: &stream)
            }
        }
    }

    /// Appends what a `TextOutputStreamable` writes to a byte array. `_writeASCII` is the standard library's
    /// entry for ASCII text from a buffer (its default makes a String and calls `write`).
    @usableFromInline
    struct ByteStream: TextOutputStream {
        @usableFromInline let bytes: UnsafeMutablePointer<[UInt8]>

        @inlinable init(_ bytes: UnsafeMutablePointer<[UInt8]>) { self.bytes = bytes }

        @inlinable mutating func write(_ string: String) { bytes.pointee.append(contentsOf: string.utf8) }

        @inlinable mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.pointee.append(contentsOf: buffer) }
    }

    /// The decimal digits of `value`, as `String(value)` writes them, without making a String.
    @inlinable
    public static func appendInteger<T: BinaryInteger>(_ value: T, to out: inout [UInt8]) {
        if value == 0 { out.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, written backwards
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            while magnitude > 0 {
                count += 1
                raw[24 - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(24 - count)...]))
        }
    }

    @usableFromInline static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A string in double quotes with the quote, the backslash and the control characters escaped (newline,
    /// return and tab by letter, the others as u00xx); everything else as it is. Bytes of multi-byte UTF-8
    /// sequences are never below 0x80, so escaping byte by byte is escaping scalar by scalar.
    @inlinable
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            // Most strings need no escaping: copy them in one go.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                out.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): appendASCII("\\\"", to: &out)
                case UInt8(ascii: "\\"): appendASCII("\\\\", to: &out)
                case UInt8(ascii: "\n"): appendASCII("\\n", to: &out)
                case UInt8(ascii: "\r"): appendASCII("\\r", to: &out)
                case UInt8(ascii: "\t"): appendASCII("\\t", to: &out)
                case 0..<0x20:
                    appendASCII("\\u00", to: &out)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
