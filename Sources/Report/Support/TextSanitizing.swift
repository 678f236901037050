/// Keeping text from a linted file (messages quote titles, field names and URLs) from doing anything but read
/// as text in a terminal or an XML file.
enum TextSanitizing {
    /// `text` with every control character (C0, DEL, C1) written as a visible escape: `\n`, `\r`, `\t`, or
    /// `\u{1B}`. Stops an escape sequence in a map from restyling or rewriting the user's terminal, and keeps a
    /// one-line format on one line.
    static func visibleControlCharacters(_ text: String) -> String {
        // C1 controls are U+0080-U+009F, two bytes in UTF-8 starting 0xC2: text without a byte below 0x20, DEL
        // or 0xC2 has none (the common case, checked without decoding).
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        return TextEscaping.escaped(text, isPlainASCII: { $0 >= 0x20 && $0 != 0x7F }, replacement: { isControl($0) ? escape($0) : nil })
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// English plural for counts in summaries: "1 error", "2 errors".
    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : (plural ?? singular + "s"))
    }
}
