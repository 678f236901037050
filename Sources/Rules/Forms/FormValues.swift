import Arcade
import Foundation
import WebMap

/// Conversions between a feature's JSON values and Arcade's, by field type: how a form hands values to its
/// expressions and writes a calculated value into a field ("cast to the field's type").
public enum FormValues {
    /// A JSON value as an expression sees it: numbers of Date fields are dates (epoch milliseconds).
    public static func arcade(_ value: JSON, for field: FieldDefinition?) -> ArcadeValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .boolean(b)
        case .int(let i): return field?.type == .date ? .date(ArcadeDate(epochMilliseconds: Double(i))) : .number(Double(i))
        case .double(let d): return field?.type == .date ? .date(ArcadeDate(epochMilliseconds: d)) : .number(d)
        case .string(let s): return .text(s)
        case .array(let elements): return .array(ArcadeArray(elements.map { arcade($0, for: nil) }))
        case .object(let members): return .dictionary(ArcadeDictionary(members.map { ($0.0, arcade($0.1, for: nil)) }))
        }
    }

    /// An expression's value written into `field`: the JSON value, or why it cannot be (a text that is no number
    /// into a number field, a date into a GUID field...).
    public static func json(_ value: ArcadeValue, for field: FieldDefinition) -> (json: JSON, problem: String?) {
        if case .null = value { return (.null, nil) }
        switch field.type {
        case .smallInteger, .integer, .bigInteger, .single, .double:
            let number: Double
            switch value {
            case .number(let n): number = n
            case .boolean(let b): number = b ? 1 : 0
            case .text(let s):
                guard let parsed = Double(s.trimmingSpaces()) else { return (.null, "the text '\(s)' is not a number") }
                number = parsed
            default: return (.null, "it is not a number")
            }
            guard number.isFinite else { return (.null, "the number is not finite") }
            if field.type == .single || field.type == .double { return (.double(number), nil) }
            guard abs(number) < 9.0e15 else { return (.null, "the number is too large") }
            return (.int(Int(number.rounded())), nil)
        case .string:
            let text: String
            switch value {
            case .text(let s): text = s
            case .number, .boolean, .date: text = value.textValue
            default: return (.null, "it is not a text, number or date")
            }
            if let length = field.length, length > 0, text.count > length {
                return (.null, "the text is \(text.count) characters long, the field holds \(length)")
            }
            return (.string(text), nil)
        case .date, .dateOnly, .timestampOffset:
            switch value {
            case .date(let d): return (.int(Int(d.epochMilliseconds)), nil)
            case .number(let n) where n.isFinite && abs(n) < 9.0e15: return (.int(Int(n)), nil)
            default: return (.null, "it is not a date")
            }
        case .guid, .globalID:
            guard case .text(let s) = value else { return (.null, "it is not a text (a GUID)") }
            return (.string(s), nil)
        default:
            switch value {
            case .text(let s): return (.string(s), nil)
            case .number(let n): return (.double(n), nil)
            default: return (.null, "MapRules cannot write it into a \(field.type.shortName) field")
            }
        }
    }

    /// Whether a value expression declaring `returnType` can be written into `field` (forms.md,
    /// `form/value-type-mismatch`); the reason when it cannot.
    public static func castProblem(returnType: String, into field: FieldDefinition) -> String? {
        let isNumber = [.smallInteger, .integer, .bigInteger, .single, .double].contains(field.type)
        switch (returnType, field.type) {
        case ("string", _) where isNumber: return "a string into a number field"
        case ("date", _) where isNumber: return "a date into a number field"
        case ("number", .guid), ("number", .globalID): return "a number into a GUID field"
        case ("date", .guid), ("date", .globalID): return "a date into a GUID field"
        case ("string", .date), ("string", .dateOnly), ("string", .timestampOffset), ("string", .timeOnly):
            return "a string into a date field"
        case ("date", .timeOnly), ("number", .timeOnly): return "a \(returnType) into a TimeOnly field"
        default: return nil
        }
    }
}
