import Foundation

/// `Text(value, format?)` and `Number(value, pattern?)`
/// (https://developers.arcgis.com/arcade/function-reference/text_functions/#text,
/// https://developers.arcgis.com/arcade/function-reference/data_functions/#number).
extension ArcadeFunctionLibrary {
    static let conversionFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Text", arity: 1...2) { call in
            if call[1].isNull { return .text(call[0].textValue) }
            return .text(try formatText(call[0], format: call.textArgument(1), call: call))
        },
        ArcadeFunctionDefinition("Number", arity: 1...2) { call in
            guard !call[1].isNull, case .text(let text) = call[0] else { return .number(call[0].numberValue) }
            let pattern = try NumberPattern(call.textArgument(1))
            return .number(pattern.parse(text))
        },
    ]

    /// A number through a number pattern (`#,###.00`), a date through a date pattern (`MMMM D, Y`); any other value
    /// as `Text()` writes it, the format ignored.
    static func formatText(_ value: ArcadeValue, format: String, call: ArcadeCall) throws -> String {
        switch value {
        case .number(let number):
            guard number.isFinite else { return value.textValue }
            let text = try NumberPattern(format).format(number)
            try call.checkTextLength(text.utf16.count)
            return text
        case .date(let date):
            guard format.count <= 10_000 else { throw call.failure("the date format is longer than 10,000 characters") }
            let text = DatePattern.format(date, pattern: format)
            try call.checkTextLength(text.utf16.count)
            return text
        default:
            return value.textValue
        }
    }
}
