/// Where values sit in the source text, beyond the start offset every `JSONNode` keeps: where a value ends,
/// where an object member's key ends, and where each character of a string value came from. The fixes (which
/// replace, remove or add values as text edits) and the Arcade rules (which point into an expression string)
/// use them. They read a document that has already parsed, so they never meet invalid JSON; on bytes that are
/// not what they expect they answer nil rather than trap.
public enum JSONSourceRanges {
    /// The offset just after the value that starts at `offset` (a string's closing quote + 1, a number's last
    /// digit + 1, an object's `}` + 1...). Iterative: nesting depth costs no stack.
    public static func end(ofValueAt offset: Int, in bytes: [UInt8]) -> Int? {
        guard offset >= 0, offset < bytes.count else { return nil }
        var i = offset
        switch bytes[i] {
        case UInt8(ascii: "\""):
            return endOfString(at: i, in: bytes)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard let end = endOfString(at: i, in: bytes) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default:
                    break
                }
                i += 1
            }
            return nil
        default:
            // A number or a literal: up to the next delimiter.
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return i
                default: i += 1
                }
            }
            return i
        }
    }

    /// The offset after the closing quote of the string whose opening quote is at `quote`.
    public static func endOfString(at quote: Int, in bytes: [UInt8]) -> Int? {
        guard quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") else { return nil }
        var i = quote + 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return nil
    }

    /// The Unicode scalars of the JSON string whose opening quote is at `quote`, each with the byte offset in
    /// `bytes` where it was written: the first byte of the character, or the backslash of its escape (`\n`,
    /// `\"`, `\u00e9`; a surrogate pair `\ud83c\udf33` is one scalar at its first backslash). `offsets` has one
    /// more entry than `scalars`: the offset of the closing quote, where the string's end is. Nil when the bytes
    /// at `quote` are not a well-formed string (an invalid or lone-surrogate escape, invalid UTF-8, no closing
    /// quote).
    public static func decodedString(at quote: Int, in bytes: [UInt8]) -> (scalars: [Unicode.Scalar], offsets: [Int])? {
        guard quote >= 0, quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") else { return nil }
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var i = quote + 1
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                offsets.append(i)
                return (scalars, offsets)
            }
            if byte == UInt8(ascii: "\\") {
                guard i + 1 < bytes.count else { return nil }
                let code = bytes[i + 1]
                let simple: UInt32?
                switch code {
                case UInt8(ascii: "\""): simple = 0x22
                case UInt8(ascii: "\\"): simple = 0x5C
                case UInt8(ascii: "/"): simple = 0x2F
                case UInt8(ascii: "b"): simple = 0x08
                case UInt8(ascii: "f"): simple = 0x0C
                case UInt8(ascii: "n"): simple = 0x0A
                case UInt8(ascii: "r"): simple = 0x0D
                case UInt8(ascii: "t"): simple = 0x09
                case UInt8(ascii: "u"): simple = nil
                default: return nil
                }
                if let simple {
                    scalars.append(Unicode.Scalar(simple)!)
                    offsets.append(i)
                    i += 2
                    continue
                }
                guard var value = hex4(bytes, at: i + 2) else { return nil }
                var length = 6
                if (0xD800...0xDBFF).contains(value) {
                    guard i + 11 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
                          let low = hex4(bytes, at: i + 8), (0xDC00...0xDFFF).contains(low) else { return nil }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    length = 12
                }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
                offsets.append(i)
                i += length
                continue
            }
            // A plain character: one to four UTF-8 bytes.
            let width: Int
            switch byte {
            case 0x00..<0x80: width = 1
            case 0xC2...0xDF: width = 2
            case 0xE0...0xEF: width = 3
            case 0xF0...0xF4: width = 4
            default: return nil
            }
            guard i + width <= bytes.count else { return nil }
            var iterator = bytes[i..<(i + width)].makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
            scalars.append(scalar)
            offsets.append(i)
            i += width
        }
        return nil
    }

    private static func hex4(_ bytes: [UInt8], at start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for c in bytes[start..<(start + 4)] {
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }
}
