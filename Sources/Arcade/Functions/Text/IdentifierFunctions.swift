import Foundation

/// `Guid` and `StandardizeGuid` (https://developers.arcgis.com/arcade/function-reference/text_functions/#guid).
extension ArcadeFunctionLibrary {
    static let identifierFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Guid", arity: 0...1) { call in
            let format = call[0].isNull ? "digits-hyphen-braces" : call.textArgument(0)
            guard let text = formatGuid(UUID().uuidString.lowercased(), format: format) else {
                throw call.failure(unknownGuidFormat(format))
            }
            return .text(text)
        },
        ArcadeFunctionDefinition("StandardizeGuid", arity: 2) { call in
            let format = call.textArgument(1)
            guard let hex = guidDigits(call.textArgument(0)) else { return .text("") }
            guard let text = formatGuid(hex, format: format) else { throw call.failure(unknownGuidFormat(format)) }
            return .text(text)
        },
    ]

    static let guidFormats = ["digits", "digits-hyphen", "digits-hyphen-braces", "digits-hyphen-parentheses"]

    static func unknownGuidFormat(_ format: String) -> String {
        "unknown GUID format '\(format)'; use one of " + guidFormats.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// The 32 hexadecimal digits (lower case) of a GUID written with or without hyphens, braces or parentheses;
    /// nil when the text is not one.
    static func guidDigits(_ text: String) -> String? {
        // A GUID has 32 digits and a few separators: anything with more than 32 characters other than white
        // space is none (checked before the copies below, which a 10 MB text would make slow).
        var significant = 0
        for byte in text.utf8 where byte != 0x20 && !(0x09...0x0D).contains(byte) {
            significant += 1
            if significant > 40 { return nil }
        }
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if (body.hasPrefix("{") && body.hasSuffix("}")) || (body.hasPrefix("(") && body.hasSuffix(")")) {
            body = body.dropFirst().dropLast()
        }
        let hex = body.lowercased()
        let digits = hex.filter { $0 != "-" }
        guard digits.count == 32, digits.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
        if hex.contains("-") {
            let groups = hex.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
            guard groups == [8, 4, 4, 4, 12] else { return nil }
        }
        return digits
    }

    /// A GUID in one of Arcade's named formats, from its digits or its hyphenated form; nil for an unknown format.
    static func formatGuid(_ guid: String, format: String) -> String? {
        let digits = Array(guid.filter { $0 != "-" })
        guard digits.count == 32 else { return nil }
        let hyphenated = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
        switch format.lowercased() {
        case "digits": return String(digits)
        case "digits-hyphen": return hyphenated
        case "digits-hyphen-braces": return "{" + hyphenated + "}"
        case "digits-hyphen-parentheses": return "(" + hyphenated + ")"
        default: return nil
        }
    }
}
