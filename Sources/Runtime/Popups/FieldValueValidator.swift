import Foundation
import FeatureServiceModel
import WebMap

/// docs/runtime.md "Pop-up edit sessions": a value typed into a field is converted and checked at once by the
/// service core's own definition (`FieldValueConversion`, what applyEdits checks too), and its problem reported
/// with the app's validation code: 11001 null not allowed, 11002 outside the range domain, 11003 longer than the
/// field's length, 11004 not a number (or not a date, GUID...), 11005 / 11006 above / below the field type's
/// limits (SmallInteger 16-bit, Integer 32-bit, Single a 32-bit float), 11007 not a coded value.
enum FieldValueValidator {
    enum Code: String {
        case nullNotAllowed = "11001"
        case outsideRange = "11002"
        case tooLong = "11003"
        case notANumber = "11004"
        case aboveLimit = "11005"
        case belowLimit = "11006"
        case notACodedValue = "11007"

        init(_ problem: FieldValueConversion.Problem) {
            switch problem {
            case .nullNotAllowed: self = .nullNotAllowed
            case .outsideRange: self = .outsideRange
            case .tooLong: self = .tooLong
            case .notReadable, .notSettable: self = .notANumber
            case .aboveTypeLimit: self = .aboveLimit
            case .belowTypeLimit: self = .belowLimit
            case .notACodedValue: self = .notACodedValue
            }
        }
    }

    /// The value in the field's stored form, or the problem with it. What a person types is read the way a
    /// pop-up reads it first: empty text in a non-text field clears it, and a choice may be typed by the name its
    /// list shows ("Median" for the code "MD").
    static func convert(_ value: AttributeValue, for field: FieldDefinition, table: TableInfo) -> Result<AttributeValue, RuntimeError> {
        var value = value
        if value == .string(""), field.type != .string { value = .null }
        if case .codedValue(_, let values)? = field.domain, let text = value.string,
           !values.contains(where: { AttributeValue(JSON($0.code)).sameValue(as: value) || AttributeValue(JSON($0.code)).string == text }),
           let match = values.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame }) {
            value = AttributeValue(JSON(match.code))
        }
        switch FieldValueConversion.convert(value, for: field) {
        case .success(let converted):
            return .success(converted)
        case .failure(let problem):
            return .failure(RuntimeError(Code(problem).rawValue, "Field \(field.displayName) of \(table.title): \(problem.description)",
                                         layer: table.reference, field: field.name))
        }
    }
}
