import Foundation

/// The Text category of the function reference (https://developers.arcgis.com/arcade/function-reference/text_functions/)
/// and the conversions `Text` and `Number`. `Count`, `Includes` and `Reverse` of text live with the array functions.
/// Positions and lengths count UTF-16 code units, as Arcade (JavaScript) does.
extension ArcadeFunctionLibrary {
    static let textFunctions: [ArcadeFunctionDefinition] =
        substringFunctions + caseFunctions + searchFunctions + conversionFunctions + characterCodeFunctions
        + identifierFunctions

    /// `TextFormatting.NewLine`, ... (https://developers.arcgis.com/arcade/function-reference/constants/).
    /// A new dictionary each time, so no expression can change another's constants.
    static var textFormattingConstants: ArcadeDictionary {
        ArcadeDictionary([
            ("BackwardSlash", .text("\\")), ("DoubleQuote", .text("\"")), ("ForwardSlash", .text("/")),
            ("NewLine", .text("\n")), ("SingleQuote", .text("'")), ("Tab", .text("\t")),
        ])
    }

    static let substringFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Left", arity: 2) { call in
            let text = UTF16Text(call.textArgument(0))
            return .text(text.slice(from: 0, length: try call.wholeNumberArgument(1, named: "charCount")))
        },
        ArcadeFunctionDefinition("Right", arity: 2) { call in
            let text = UTF16Text(call.textArgument(0))
            let length = max(0, try call.wholeNumberArgument(1, named: "charCount"))
            return .text(text.slice(from: text.count - min(length, text.count), length: length))
        },
        ArcadeFunctionDefinition("Mid", arity: 2...3) { call in
            let text = UTF16Text(call.textArgument(0))
            let start = try call.wholeNumberArgument(1, named: "startPosition")
            let length = try call.wholeNumberArgument(2, named: "charCount", default: text.count)
            return .text(text.slice(from: start, length: length))
        },
        ArcadeFunctionDefinition("Trim", arity: 1) { call in
            .text(trimmed(call.textArgument(0)))
        },
        ArcadeFunctionDefinition("Concatenate", arity: 0...Int.max) { call in
            guard case .array(let values) = call[0] else {
                // Concatenate(value1, value2, ...): every argument as text, nothing between.
                var result = ""
                for argument in call.arguments {
                    result += argument.textValue
                    try call.checkTextLength(result.utf16.count)
                }
                return .text(result)
            }
            let separator = call.textArgument(1)
            let format = call[2].isNull ? nil : call.textArgument(2)
            try call.context.step(values.values.count)
            var parts: [String] = []
            var length = 0
            for value in values.values {
                let part = try format.map { try ArcadeFunctionLibrary.formatText(value, format: $0, call: call) }
                    ?? value.textValue
                length += part.utf16.count + separator.utf16.count
                try call.checkTextLength(length)
                parts.append(part)
            }
            return .text(parts.joined(separator: separator))
        },
    ]

    static let caseFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Upper", arity: 1) { call in .text(call.textArgument(0).uppercased()) },
        ArcadeFunctionDefinition("Lower", arity: 1) { call in .text(call.textArgument(0).lowercased()) },
        ArcadeFunctionDefinition("Proper", arity: 1...2) { call in
            let mode = call[1].isNull ? "everyword" : call.textArgument(1).lowercased()
            guard mode == "everyword" || mode == "firstword" else {
                throw call.failure("applyToText must be 'everyword' or 'firstword', not '\(call.textArgument(1))'")
            }
            return .text(properCase(call.textArgument(0), everyWord: mode == "everyword"))
        },
    ]

    /// Title case: the first letter of each word (or of the first word only) upper case, every other letter lower
    /// case; words are separated by white space.
    static func properCase(_ text: String, everyWord: Bool) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII, byte by byte (the same result, without a String per character: 10 MB in milliseconds).
            var capitalizeNext = true
            let bytes = text.utf8.map { byte -> UInt8 in
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    if everyWord { capitalizeNext = true }
                    return byte
                }
                defer { capitalizeNext = false }
                if capitalizeNext { return (0x61...0x7A).contains(byte) ? byte - 0x20 : byte }
                return (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var result = ""
        var capitalizeNext = true
        for character in text {
            if character.isWhitespace {
                result.append(character)
                if everyWord { capitalizeNext = true }
            } else if capitalizeNext {
                result += String(character).uppercased()
                capitalizeNext = false
            } else {
                result += String(character).lowercased()
            }
        }
        return result
    }

    static let searchFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Find", arity: 2...3) { call in
            let search = Array(call.textArgument(0).utf16)
            let target = Array(call.textArgument(1).utf16)
            let start = max(0, try call.wholeNumberArgument(2, named: "startPosition", default: 0))
            try call.context.step(target.count / 1024 + 1)
            return .number(Double(UTF16Search(search).firstIndex(in: target, from: start) ?? -1))
        },
        ArcadeFunctionDefinition("Replace", arity: 3...4) { call in
            let text = Array(call.textArgument(0).utf16)
            let search = Array(call.textArgument(1).utf16)
            let replacement = Array(call.textArgument(2).utf16)
            let all = call.count < 4 || call[3].isNull ? true : call[3].booleanValue
            try call.context.step(text.count / 1024 + 1)
            return .text(try replaceText(text, search, replacement, all: all, call: call))
        },
        ArcadeFunctionDefinition("Split", arity: 2...4) { call in
            let text = Array(call.textArgument(0).utf16)
            let separator = Array(call.textArgument(1).utf16)
            let limit = try call.wholeNumberArgument(2, named: "limit", default: -1)
            let removeEmpty = call[3].booleanValue
            try call.context.step(text.count / 64 + 1)
            var pieces: [Range<Int>] = []
            if separator.isEmpty {
                // Every code unit on its own: counted against the budget before anything is made.
                try call.context.step(text.count)
                let count = limit >= 0 ? min(limit, text.count) : text.count
                return .array(ArcadeArray(text.prefix(count).map { unit in
                    unit < 0x80 ? asciiCharacters[Int(unit)] : .text(UTF16Text.string(CollectionOfOne(unit)))
                }))
            } else {
                var start = 0
                for index in UTF16Search(separator).allIndexes(in: text) {
                    pieces.append(start..<index)
                    start = index + separator.count
                }
                pieces.append(start..<text.count)
            }
            if removeEmpty { pieces.removeAll { $0.isEmpty } }
            if limit >= 0 && pieces.count > limit { pieces.removeLast(pieces.count - limit) }
            try call.context.step(pieces.count)
            return .array(ArcadeArray(pieces.map { piece in
                // One ASCII character (Split(text, '') of a long text): a shared value, nothing to transcode.
                if piece.count == 1, text[piece.lowerBound] < 0x80 { return asciiCharacters[Int(text[piece.lowerBound])] }
                return .text(UTF16Text.string(text[piece]))
            }))
        },
    ]

    /// The 128 one-character ASCII texts, made once (`Split(text, '')` hands them out).
    static let asciiCharacters: [ArcadeValue] = (0..<128).map { .text(String(UnicodeScalar(UInt8($0)))) }

    /// `Trim`: white space and line breaks removed at both ends (Foundation's `trimmingCharacters` walks the
    /// whole text through NSString: a second for 10 MB; this looks only at the ends).
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        let space = CharacterSet.whitespacesAndNewlines
        guard let first = scalars.firstIndex(where: { !space.contains($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !space.contains($0) }) ?? first
        return String(scalars[first...last])
    }

    /// `Replace`: every occurrence (or the first) of `search` replaced. An empty search text matches between
    /// every two characters (Arcade splits and joins): `Replace('abc', '', '-')` is "a-b-c".
    static func replaceText(_ text: [UInt16], _ search: [UInt16], _ replacement: [UInt16], all: Bool,
                        call: ArcadeCall) throws -> String {
        var matches: [Int]
        if search.isEmpty {
            matches = text.count > 1 ? Array(1..<text.count) : []
        } else {
            matches = UTF16Search(search).allIndexes(in: text)
        }
        if !all { matches = Array(matches.prefix(1)) }
        try call.checkTextLength(text.count + matches.count * (replacement.count - search.count))
        var result: [UInt16] = []
        result.reserveCapacity(text.count + matches.count * max(0, replacement.count - search.count))
        var start = 0
        for index in matches {
            result += text[start..<index]
            result += replacement
            start = index + search.count
        }
        result += text[start...]
        return UTF16Text.string(result)
    }
}
