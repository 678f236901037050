import WebMap

/// A JSON value to write, with object members in the order they were given. The JSON-based formats build one
/// and print it with ``JSONOutput/prettyPrinted(_:)`` so their key order and layout are fixed by this code,
/// not by whichever Foundation the tool was built with.
indirect enum JSONOutput {
    case null
    case bool(Bool)
    case int(Int)
    /// A fraction (JSON's shortest text for it; an integral value as an integer).
    case double(Double)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    /// `value` as a string, or `null` when it is nil.
    static func string(_ value: String?) -> JSONOutput { value.map(JSONOutput.string) ?? .null }

    /// A JSON value, members in order.
    init(_ value: JSON) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let elements): self = .array(elements.map(JSONOutput.init))
        case .object(let members): self = .object(members.map { ($0.0, JSONOutput($0.1)) })
        }
    }

    /// Two-space indentation, `"key": value`, empty arrays and objects as `[]` and `{}`, no trailing newline.
    /// Strings are written as UTF-8 with only `"`, `\`, control characters, DEL and the line separators escaped.
    /// Written as bytes: a report of thousands of files is mostly unescaped text copied as it is.
    static func prettyPrinted(_ value: JSONOutput) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, indent: 0, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ value: JSONOutput, indent: Int, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): JSON.appendDouble(d, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements):
            if elements.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(contentsOf: "[\n".utf8)
            for (i, element) in elements.enumerated() {
                writeSpaces(indent + 2, to: &out)
                write(element, indent: indent + 2, to: &out)
                if i != elements.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            writeSpaces(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(contentsOf: "{\n".utf8)
            for (i, member) in members.enumerated() {
                writeSpaces(indent + 2, to: &out)
                writeString(member.0, to: &out)
                out.append(contentsOf: ": ".utf8)
                write(member.1, indent: indent + 2, to: &out)
                if i != members.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            writeSpaces(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeSpaces(_ count: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
                case 0x08: out.append(contentsOf: "\\b".utf8)
                case 0x0C: out.append(contentsOf: "\\f".utf8)
                case 0x00...0x1F, 0x7F:
                    // DEL and the line separators are legal JSON, but escaped they cannot upset a terminal or a
                    // JavaScript consumer.
                    writeEscape(UInt32(byte), to: &out)
                case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
                    writeEscape(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029, to: &out)
                    i += 2
                default: out.append(byte)
                }
                i += 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let digits = String(value, radix: 16, uppercase: false)
        out.append(contentsOf: "\\u".utf8)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 4 - digits.utf8.count)))
        out.append(contentsOf: digits.utf8)
    }
}
