import Foundation

/// Reads JSON text into Arcade values for `FromJSON`, `Dictionary(text)`, `Feature(text)` and the geometry
/// constructors: objects become dictionaries (keys in their order), arrays arrays, numbers, text, booleans and
/// null themselves. Nesting is bounded (256 levels) and every failure is a message, never a crash.
/// `singleQuotes` also accepts 'text' in single quotes, which the reference's `Feature("{'geometry':...}")`
/// example uses.
///
/// Hand-written rather than WebMap's `JSONParser` on purpose: the Arcade module depends on Foundation alone (the
/// linter, the runtime and any app embed it), Foundation's `JSONSerialization` loses key order and reads no
/// single-quoted text, and reading straight into Arcade values skips a second tree.
struct DataJSONReader {
    struct Failure: Error { let message: String }

    static func read(_ text: String, singleQuotes: Bool = false) throws -> ArcadeValue {
        var reader = DataJSONReader(bytes: Array(text.utf8), singleQuotes: singleQuotes)
        let value = try reader.value(depth: 0)
        reader.skipSpaces()
        if reader.position < reader.bytes.count { throw reader.failure("unexpected text after the JSON value") }
        return value
    }

    /// The text's UTF-8 bytes: JSON's syntax is ASCII, and runs of other bytes are copied whole.
    let bytes: [UInt8]
    let singleQuotes: Bool
    var position = 0

    func failure(_ message: String) -> Failure { Failure(message: "\(message) (at character \(position + 1))") }

    mutating func skipSpaces() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    mutating func value(depth: Int) throws -> ArcadeValue {
        guard depth < 256 else { throw failure("the JSON is nested too deeply") }
        skipSpaces()
        guard position < bytes.count else { throw failure("the JSON ends where a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "'") where singleQuotes: return .text(try string())
        case UInt8(ascii: "t"): try word("true"); return .boolean(true)
        case UInt8(ascii: "f"): try word("false"); return .boolean(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func object(depth: Int) throws -> ArcadeValue {
        position += 1
        let dictionary = ArcadeDictionary()
        skipSpaces()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .dictionary(dictionary) }
        while true {
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || (singleQuotes && bytes[position] == UInt8(ascii: "'")) else {
                throw failure("a key in double quotes was expected")
            }
            let key = try string()
            skipSpaces()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure("':' was expected after a key") }
            position += 1
            dictionary[key] = try value(depth: depth + 1)
            skipSpaces()
            guard position < bytes.count else { throw failure("the object is not closed") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return .dictionary(dictionary) }
            throw failure("',' or '}' was expected")
        }
    }

    mutating func array(depth: Int) throws -> ArcadeValue {
        position += 1
        var values: [ArcadeValue] = []
        skipSpaces()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(ArcadeArray(values)) }
        while true {
            values.append(try value(depth: depth + 1))
            skipSpaces()
            guard position < bytes.count else { throw failure("the array is not closed") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(ArcadeArray(values)) }
            throw failure("',' or ']' was expected")
        }
    }

    mutating func string() throws -> String {
        let quote = bytes[position]
        position += 1
        var text: [UInt8] = []
        while position < bytes.count {
            // The run up to the closing quote or the next escape is copied whole (memchr, not byte by byte).
            guard let close = find(quote, from: position) else { break }
            let escape = find(UInt8(ascii: "\\"), from: position, before: close)
            text.append(contentsOf: bytes[position..<(escape ?? close)])
            guard let escape else {
                position = close + 1
                return String(decoding: text, as: UTF8.self)
            }
            position = escape + 1
            guard position < bytes.count else { break }
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "u"):
                var unit = try hex4()
                if (0xD800..<0xDC00).contains(unit), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                   bytes[position + 1] == UInt8(ascii: "u") {
                    position += 2
                    let low = try hex4()
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low &- 0xDC00)
                }
                text.append(contentsOf: Array(String(Unicode.Scalar(unit) ?? "\u{FFFD}").utf8))
            default: text.append(escaped)
            }
        }
        throw failure("a text is not closed")
    }

    /// The index of the first `byte` at or after `start` (and before `end`), if any.
    func find(_ byte: UInt8, from start: Int, before end: Int? = nil) -> Int? {
        let limit = end ?? bytes.count
        guard start < limit else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let hit = memchr(base + start, Int32(byte), limit - start) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard position + 4 <= bytes.count,
              let value = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16) else {
            throw failure("\\u must be followed by four hexadecimal digits")
        }
        position += 4
        return value
    }

    mutating func word(_ word: String) throws {
        let expected = Array(word.utf8)
        guard position + expected.count <= bytes.count, Array(bytes[position..<(position + expected.count)]) == expected else {
            throw failure("unexpected text")
        }
        position += expected.count
    }

    mutating func number() throws -> Double {
        let start = position
        while position < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[position]) { position += 1 }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard !text.isEmpty, let number = Double(text) else {
            throw failure(text.isEmpty ? "unexpected text" : "'\(text.prefix(40))' is not a number")
        }
        return number
    }
}
