/// Describing characters of a version name in messages: "a period at position 7".
enum VersionNameCharacters {
    /// The characters of `name` (as a person counts them, from 1) that satisfy `matches`.
    static func positions(in name: String, where matches: (Character) -> Bool) -> [(Character, Int)] {
        name.enumerated().filter { matches($0.element) }.map { ($0.element, $0.offset + 1) }
    }

    /// "a period", "a tab (U+0009)", "a no-break space (U+00A0)".
    static func describe(_ character: Character) -> String {
        switch character {
        case ".": return "a period"
        case ";": return "a semicolon"
        case "'": return "a single quote"
        case "\"": return "a double quote"
        case " ": return "a space"
        case "\t": return "a tab (U+0009)"
        case "\n": return "a line feed (U+000A)"
        case "\r": return "a carriage return (U+000D)"
        case "\r\n": return "a line break (CR LF)"
        default:
            let codes = character.unicodeScalars.map { scalar -> String in
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            let isSpace = character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
            if character.unicodeScalars.contains(where: \.properties.isBidiControl) {
                return "an invisible bidirectional control character " + codes.joined(separator: " ")
            }
            let isControl = character.unicodeScalars.contains { isControlScalar($0) }
            return (isControl ? "a control character " : isSpace ? "a space character " : "the character ") + codes.joined(separator: " ")
        }
    }

    /// "a period at position 7 and a double quote at position 9".
    static func list(_ found: [(Character, Int)]) -> String {
        let parts = found.map { "\(describe($0.0)) at position \($0.1)" }
        guard parts.count > 1 else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + (parts.last ?? "")
    }

    /// True for a control character (Unicode category Cc), a line or paragraph separator, or a bidirectional
    /// formatting character (Bidi_Control: the right-to-left override U+202E, isolates, marks), which reorders
    /// how the name is shown without being seen.
    static func isControlScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isBidiControl { return true }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// True when the name is empty or white space only (the other rules then stay quiet: name-empty says it).
    static func isBlank(_ name: String) -> Bool { name.allSatisfy(\.isWhitespace) }
}
