/// A JSON value to write, with object members in the order they were given. The JSON-based formats build one
/// and print it with ``JSONOutput/prettyPrinted(_:)`` so their key order and layout are fixed by this code,
/// not by whichever Foundation the tool was built with.
indirect enum JSONOutput {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    /// `value` as a string, or `null` when it is nil.
    static func string(_ value: String?) -> JSONOutput { value.map(JSONOutput.string) ?? .null }

    /// Two-space indentation, `"key": value`, empty arrays and objects as `[]` and `{}`, no trailing newline.
    /// Strings are written as UTF-8 with only `"`, `\` and control characters escaped.
    static func prettyPrinted(_ value: JSONOutput) -> String {
        var out = ""
        write(value, indent: 0, to: &out)
        return out
    }

    private static func write(_ value: JSONOutput, indent: Int, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements):
            if elements.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, element) in elements.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                write(element, indent: indent + 2, to: &out)
                out += i == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                writeString(member.0, to: &out)
                out += ": "
                write(member.1, indent: indent + 2, to: &out)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                // DEL and the line separators are legal JSON, but escaped they cannot upset a terminal or a
                // JavaScript consumer.
                out += "\\u" + hex4(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
