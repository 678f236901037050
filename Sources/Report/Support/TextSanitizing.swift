/// Keeping text from a linted file (messages quote titles, field names and URLs) from doing anything but read
/// as text in a terminal or an XML file.
enum TextSanitizing {
    /// `text` with every control character (C0, DEL, C1) written as a visible escape: `\n`, `\r`, `\t`, or
    /// `\u{1B}`. Stops an escape sequence in a map from restyling or rewriting the user's terminal, and keeps a
    /// one-line format on one line.
    static func visibleControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { out += escape(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
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
