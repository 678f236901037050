import Foundation

/// UTF-16 and code point conversions, `ToHex` and `UrlEncode`
/// (https://developers.arcgis.com/arcade/function-reference/text_functions/).
extension ArcadeFunctionLibrary {
    static let characterCodeFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("ToCharCode", arity: 1...2) { call in
            let units = Array(call.textArgument(0).utf16)
            let index = try call.wholeNumberArgument(1, named: "index", default: 0)
            guard units.indices.contains(index) else {
                throw call.failure("index \(index) is outside the text (0 to \(units.count - 1))")
            }
            return .number(Double(units[index]))
        },
        ArcadeFunctionDefinition("ToCodePoint", arity: 1...2) { call in
            let units = Array(call.textArgument(0).utf16)
            let index = try call.wholeNumberArgument(1, named: "position", default: 0)
            guard units.indices.contains(index) else {
                throw call.failure("position \(index) is outside the text (0 to \(units.count - 1))")
            }
            let unit = units[index]
            if UTF16.isLeadSurrogate(unit), index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) {
                let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(units[index + 1]) - 0xDC00)
                return .number(Double(scalar))
            }
            return .number(Double(unit))
        },
        ArcadeFunctionDefinition("FromCharCode", arity: 1...Int.max) { call in
            try call.context.step(call.count)
            var units: [UInt16] = []
            for (position, argument) in call.arguments.enumerated() {
                let code = argument.numberValue
                guard code.isFinite, code >= 0, code <= 65535 else {
                    throw call.failure("argument \(position + 1) must be a UTF-16 code unit (0 to 65535), not "
                        + ArcadeValue.formatNumber(code))
                }
                units.append(UInt16(code.rounded(.towardZero)))
            }
            return .text(UTF16Text.string(units))
        },
        ArcadeFunctionDefinition("FromCodePoint", arity: 1...Int.max) { call in
            try call.context.step(call.count)
            var text = String.UnicodeScalarView()
            for (position, argument) in call.arguments.enumerated() {
                let code = argument.numberValue
                guard code.isFinite, code == code.rounded(), code >= 0, code <= 0x10FFFF,
                      let scalar = Unicode.Scalar(UInt32(code)) else {
                    throw call.failure("argument \(position + 1) is not a valid code point: " + ArcadeValue.formatNumber(code))
                }
                text.append(scalar)
            }
            return .text(String(text))
        },
        ArcadeFunctionDefinition("ToHex", arity: 1) { call in
            let number = call[0].numberValue
            guard number.isFinite else { throw call.failure("value must be a finite number, not \(ArcadeValue.formatNumber(number))") }
            let whole = number.rounded(.towardZero)
            guard abs(whole) < 18446744073709551616 else { throw call.failure("value is too large to write in hexadecimal") }
            let digits = String(UInt64(abs(whole)), radix: 16, uppercase: true)
            return .text(whole < 0 ? "-" + digits : digits)
        },
        ArcadeFunctionDefinition("UrlEncode", arity: 1) { call in
            if case .dictionary(let dictionary) = call[0] {
                // Keys in alphabetical order, each key and value encoded: "center=43.567%2C-117.380&itemID=...".
                let pairs = dictionary.pairs.sorted { $0.key < $1.key }
                try call.context.step(pairs.count)
                return .text(pairs.map { urlEncode($0.key) + "=" + urlEncode($0.value.textValue) }.joined(separator: "&"))
            }
            return .text(urlEncode(call.textArgument(0)))
        },
    ]

    /// JavaScript's `encodeURIComponent`: everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )` as UTF-8 `%XX` escapes.
    static func urlEncode(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        allowed.insert(charactersIn: "-_.!~*'()")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
