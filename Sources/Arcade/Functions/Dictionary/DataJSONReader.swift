import Foundation

/// Reads JSON text into Arcade values for `FromJSON`, `Dictionary(text)`, `Feature(text)` and the geometry
/// constructors: objects become dictionaries (keys in their order), arrays arrays, numbers, text, booleans and
/// null themselves. Nesting is bounded (256 levels) and every failure is a message, never a crash.
/// `singleQuotes` also accepts 'text' in single quotes, which the reference's `Feature("{'geometry':...}")`
/// example uses.
struct DataJSONReader {
    struct Failure: Error { let message: String }

    static func read(_ text: String, singleQuotes: Bool = false) throws -> ArcadeValue {
        var reader = DataJSONReader(scalars: Array(text.unicodeScalars), singleQuotes: singleQuotes)
        let value = try reader.value(depth: 0)
        reader.skipSpaces()
        if reader.position < reader.scalars.count { throw reader.failure("unexpected text after the JSON value") }
        return value
    }

    let scalars: [Unicode.Scalar]
    let singleQuotes: Bool
    var position = 0

    func failure(_ message: String) -> Failure { Failure(message: "\(message) (at character \(position + 1))") }

    mutating func skipSpaces() {
        while position < scalars.count, [" ", "\n", "\r", "\t"].contains(scalars[position]) { position += 1 }
    }

    mutating func value(depth: Int) throws -> ArcadeValue {
        guard depth < 256 else { throw failure("the JSON is nested too deeply") }
        skipSpaces()
        guard position < scalars.count else { throw failure("the JSON ends where a value was expected") }
        switch scalars[position] {
        case "{": return try object(depth: depth)
        case "[": return try array(depth: depth)
        case "\"": return .text(try string())
        case "'" where singleQuotes: return .text(try string())
        case "t": try word("true"); return .boolean(true)
        case "f": try word("false"); return .boolean(false)
        case "n": try word("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func object(depth: Int) throws -> ArcadeValue {
        position += 1
        let dictionary = ArcadeDictionary()
        skipSpaces()
        if position < scalars.count, scalars[position] == "}" { position += 1; return .dictionary(dictionary) }
        while true {
            skipSpaces()
            guard position < scalars.count, scalars[position] == "\"" || (singleQuotes && scalars[position] == "'") else {
                throw failure("a key in double quotes was expected")
            }
            let key = try string()
            skipSpaces()
            guard position < scalars.count, scalars[position] == ":" else { throw failure("':' was expected after a key") }
            position += 1
            dictionary[key] = try value(depth: depth + 1)
            skipSpaces()
            guard position < scalars.count else { throw failure("the object is not closed") }
            if scalars[position] == "," { position += 1; continue }
            if scalars[position] == "}" { position += 1; return .dictionary(dictionary) }
            throw failure("',' or '}' was expected")
        }
    }

    mutating func array(depth: Int) throws -> ArcadeValue {
        position += 1
        var values: [ArcadeValue] = []
        skipSpaces()
        if position < scalars.count, scalars[position] == "]" { position += 1; return .array(ArcadeArray(values)) }
        while true {
            values.append(try value(depth: depth + 1))
            skipSpaces()
            guard position < scalars.count else { throw failure("the array is not closed") }
            if scalars[position] == "," { position += 1; continue }
            if scalars[position] == "]" { position += 1; return .array(ArcadeArray(values)) }
            throw failure("',' or ']' was expected")
        }
    }

    mutating func string() throws -> String {
        let quote = scalars[position]
        position += 1
        var text = String.UnicodeScalarView()
        while position < scalars.count {
            let c = scalars[position]
            position += 1
            if c == quote { return String(text) }
            guard c == "\\" else { text.append(c); continue }
            guard position < scalars.count else { break }
            let escaped = scalars[position]
            position += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "b": text.append("\u{08}")
            case "f": text.append("\u{0C}")
            case "u":
                var unit = try hex4()
                if (0xD800..<0xDC00).contains(unit), position + 1 < scalars.count, scalars[position] == "\\", scalars[position + 1] == "u" {
                    position += 2
                    let low = try hex4()
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                text.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            default: text.append(escaped)
            }
        }
        throw failure("a text is not closed")
    }

    mutating func hex4() throws -> UInt32 {
        guard position + 4 <= scalars.count,
              let value = UInt32(String(String.UnicodeScalarView(scalars[position..<(position + 4)])), radix: 16) else {
            throw failure("\\u must be followed by four hexadecimal digits")
        }
        position += 4
        return value
    }

    mutating func word(_ word: String) throws {
        let expected = Array(word.unicodeScalars)
        guard position + expected.count <= scalars.count, Array(scalars[position..<(position + expected.count)]) == expected else {
            throw failure("unexpected text")
        }
        position += expected.count
    }

    mutating func number() throws -> Double {
        let start = position
        while position < scalars.count, "+-0123456789.eE".unicodeScalars.contains(scalars[position]) { position += 1 }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        guard !text.isEmpty, let number = Double(text) else {
            throw failure(text.isEmpty ? "unexpected '\(scalars[start])'" : "'\(text)' is not a number")
        }
        return number
    }
}
