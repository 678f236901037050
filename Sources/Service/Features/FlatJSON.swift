import Foundation

/// A fast reader for the attribute objects the core stores: one JSON object whose values are scalars.
/// Anything else (nesting, malformed text) answers nil and the caller falls back to the full parser.
enum FlatJSON {
    static func parseObject(_ text: String) -> [(String, AttributeValue)]? {
        var text = text
        return text.withUTF8 { bytes -> [(String, AttributeValue)]? in
            var reader = Reader(bytes: bytes)
            return reader.object()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func object() -> [(String, AttributeValue)]? {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
            i += 1
            var result: [(String, AttributeValue)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return result }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                guard let value = scalar() else { return nil }
                result.append((key, value))
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return result }
                return nil
            }
        }

        mutating func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            let start = i
            var simple = true
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                if bytes[i] == UInt8(ascii: "\\") { simple = false; i += 2 } else { i += 1 }
            }
            guard i < bytes.count else { return nil }
            let end = i
            i += 1
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if simple { return String(decoding: slice, as: UTF8.self) }
            return unescape(slice)
        }

        func unescape(_ slice: UnsafeBufferPointer<UInt8>) -> String? {
            var scalars = String.UnicodeScalarView()
            var out: [UInt8] = []
            func flush() {
                if !out.isEmpty { scalars.append(contentsOf: String(decoding: out, as: UTF8.self).unicodeScalars); out.removeAll() }
            }
            var j = 0
            func hex4(_ at: Int) -> UInt32? {
                guard at + 4 <= slice.count else { return nil }
                var value: UInt32 = 0
                for k in at..<(at + 4) {
                    let c = slice[k]
                    let digit: UInt32
                    switch c {
                    case 0x30...0x39: digit = UInt32(c - 0x30)
                    case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
                    case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
                    default: return nil
                    }
                    value = value * 16 + digit
                }
                return value
            }
            while j < slice.count {
                let c = slice[j]
                guard c == UInt8(ascii: "\\") else { out.append(c); j += 1; continue }
                guard j + 1 < slice.count else { return nil }
                let e = slice[j + 1]
                j += 2
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hex4(j) else { return nil }
                    j += 4
                    if (0xD800..<0xDC00).contains(code), j + 6 <= slice.count, slice[j] == UInt8(ascii: "\\"), slice[j + 1] == UInt8(ascii: "u"),
                       let low = hex4(j + 2), (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        j += 6
                    }
                    flush()
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: return nil
                }
            }
            flush()
            return String(scalars)
        }

        mutating func scalar() -> AttributeValue? {
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "\""): return string().map(AttributeValue.string)
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "t"): return literal("true") ? .int(1) : nil
            case UInt8(ascii: "f"): return literal("false") ? .int(0) : nil
            default: return number()
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard i + count <= bytes.count else { return false }
            for k in 0..<count where bytes[i + k] != word.utf8Start[k] { return false }
            i += count
            return true
        }

        mutating func number() -> AttributeValue? {
            let start = i
            var isInteger = true
            while i < bytes.count {
                let c = bytes[i]
                if (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { i += 1; continue }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { isInteger = false; i += 1; continue }
                break
            }
            guard i > start else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            if isInteger, let value = Int64(text) { return .int(value) }
            return Double(text).map(AttributeValue.double)
        }
    }
}
