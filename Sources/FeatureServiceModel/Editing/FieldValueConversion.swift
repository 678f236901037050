import Foundation
import WebMap
import FeatureServiceModel

/// A value typed for a field turned into the field's stored form, or what is wrong with it: the one definition
/// of field types, limits, lengths and domains that the service (applyEdits: 1001 / 1016) and the editing
/// runtime (pop-up validation: 11001-11007) both apply.
public enum FieldValueConversion {
    /// Why a value cannot be stored in a field.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case nullNotAllowed
        /// Not a number (or not a whole number for an integer field), not a date, not a GUID, not text.
        case notReadable(String)
        case aboveTypeLimit(String)
        case belowTypeLimit(String)
        case tooLong(length: Int, limit: Int)
        case notACodedValue(String)
        case outsideRange(String)
        /// Geometry, Blob, Raster and unknown types are never set through attributes.
        case notSettable(String)

        public var description: String {
            switch self {
            case .nullNotAllowed: return "a value is required (the field is not nullable)."
            case .notReadable(let why), .aboveTypeLimit(let why), .belowTypeLimit(let why), .notACodedValue(let why),
                 .outsideRange(let why), .notSettable(let why):
                return why
            case .tooLong(let length, let limit): return "the text is \(length) characters long; the field holds at most \(limit)."
            }
        }
    }

    /// `value` in `field`'s stored form: integers within SmallInteger (16-bit), Integer (32-bit) or BigInteger
    /// (64-bit) limits, Single within a 32-bit float's, text within the field's length (choice-list fields are
    /// checked as codes instead), dates as epoch milliseconds (from numbers, epoch text, `DATE` / ISO 8601 text),
    /// GUIDs braced upper-case; then the coded-value or range domain.
    public static func convert(_ value: AttributeValue, for field: FieldDefinition) -> Result<AttributeValue, Problem> {
        if value.isNull { return field.nullable ? .success(.null) : .failure(.nullNotAllowed) }
        var isChoice = false
        if case .codedValue? = field.domain { isChoice = true }
        let converted: AttributeValue
        switch field.type {
        case .smallInteger, .integer, .bigInteger:
            let limits: ClosedRange<Int64> = field.type == .smallInteger ? Int64(Int16.min)...Int64(Int16.max)
                : field.type == .integer ? Int64(Int32.min)...Int64(Int32.max) : Int64.min...Int64.max
            let number: Double
            var exact: Int64?
            switch value {
            case .int(let i): number = Double(i); exact = i
            case .double(let d): number = d
            case .string(let s):
                let trimmed = s.trimmingCharacters(in: .whitespaces)
                exact = Int64(trimmed)
                guard let d = exact.map(Double.init) ?? Double(trimmed) else { return .failure(.notReadable("\(value) is not a number.")) }
                number = d
            case .null: return .failure(.nullNotAllowed)
            }
            guard number.isFinite, number.rounded() == number else {
                return .failure(.notReadable("\(value) is not a whole number (\(field.type.shortName))."))
            }
            if let exact {
                if exact > limits.upperBound { return .failure(.aboveTypeLimit("\(exact) is above the largest \(field.type.shortName), \(limits.upperBound).")) }
                if exact < limits.lowerBound { return .failure(.belowTypeLimit("\(exact) is below the smallest \(field.type.shortName), \(limits.lowerBound).")) }
                converted = .int(exact)
            } else {
                // Double(Int64.max) rounds up to 2^63, itself out of range.
                if number > Double(limits.upperBound) || (field.type == .bigInteger && number >= 0x1p63) {
                    return .failure(.aboveTypeLimit("\(format(number)) is above the largest \(field.type.shortName), \(limits.upperBound)."))
                }
                if number < Double(limits.lowerBound) { return .failure(.belowTypeLimit("\(format(number)) is below the smallest \(field.type.shortName), \(limits.lowerBound).")) }
                converted = .int(Int64(number))
            }
        case .single, .double:
            let number: Double?
            switch value {
            case .int(let i): number = Double(i)
            case .double(let d): number = d
            case .string(let s): number = Double(s.trimmingCharacters(in: .whitespaces))
            case .null: number = nil
            }
            guard let number, number.isFinite else { return .failure(.notReadable("\(value) is not a number (\(field.type.shortName)).")) }
            if field.type == .single {
                let limit = Double(Float.greatestFiniteMagnitude)
                if number > limit { return .failure(.aboveTypeLimit("\(number) is above the largest Single (32-bit float).")) }
                if number < -limit { return .failure(.belowTypeLimit("\(number) is below the smallest Single (32-bit float).")) }
            }
            converted = .double(number)
        case .string:
            let text: String
            switch value {
            case .string(let s): text = s
            case .int(let i): text = String(i)
            case .double(let d): text = format(d)
            case .null: text = ""
            }
            if !isChoice, let length = field.length, length > 0, text.count > length { return .failure(.tooLong(length: text.count, limit: length)) }
            converted = .string(text)
        case .date:
            switch value {
            case .int(let i): converted = .int(i)
            case .double(let d) where d.isFinite:
                // Int64(d) traps outside Int64's range (1e300 would stop the process): refuse those instead.
                guard let ms = Int64(exactly: d.rounded(.towardZero)) else {
                    return .failure(d > 0 ? .aboveTypeLimit("\(value) is beyond the latest date (epoch milliseconds fit a 64-bit integer).")
                                          : .belowTypeLimit("\(value) is before the earliest date (epoch milliseconds fit a 64-bit integer)."))
                }
                converted = .int(ms)
            case .string(let s):
                guard let ms = Int64(s.trimmingCharacters(in: .whitespaces)) ?? WhereParser.parseDate(s, timestamp: true) ?? parseISODate(s) else {
                    return .failure(.notReadable("\(value) is not a date (2026-05-01, 2026-05-01T10:30:00Z or epoch milliseconds)."))
                }
                converted = .int(ms)
            default: return .failure(.notReadable("\(value) is not a date (epoch milliseconds)."))
            }
        case .guid, .globalID:
            guard let text = value.string, let guid = GUIDText.normalize(text) else {
                return .failure(.notReadable("\(value) is not a GUID ({XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX})."))
            }
            converted = .string(guid)
        case .dateOnly, .timeOnly, .timestampOffset, .xml:
            guard let text = value.string else { return .failure(.notReadable("\(value) must be text for a \(field.type.shortName) field.")) }
            converted = .string(text)
        case .oid:
            converted = value
        case .geometry, .blob, .raster, .unknown:
            return .failure(.notSettable("\(field.type.shortName) fields cannot be set through attributes."))
        }
        switch field.domain {
        case .codedValue(_, let values)?:
            let codes = values.map { AttributeValue(JSON($0.code)) }
            guard codes.contains(where: { $0.sameValue(as: converted) || ($0.string != nil && $0.string == converted.string) }) else {
                let list = values.prefix(12).map { "\(AttributeValue(JSON($0.code))) (\($0.name))" }.joined(separator: ", ")
                return .failure(.notACodedValue("\(value) is not a code of its coded-value domain: \(list)."))
            }
        case .range(_, let low, let high)?:
            if let number = converted.double {
                if let low, number < low { return .failure(.outsideRange("\(format(number)) is below the domain's minimum \(format(low)).")) }
                if let high, number > high { return .failure(.outsideRange("\(format(number)) is above the domain's maximum \(format(high)).")) }
            }
        default:
            break
        }
        return .success(converted)
    }

    static func format(_ d: Double) -> String { d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d) }

    /// ISO 8601 date-times with an offset or `Z` (the `DATE` / `TIMESTAMP` forms are `WhereParser.parseDate`'s).
    static func parseISODate(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: trimmed) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        }
        return nil
    }
}
