import Foundation
import Service
import WebMap

/// runtime.md "Pop-up edit sessions": a value typed into a field is converted to the field's type and checked
/// at once, with the app's validation codes: 11001 null not allowed, 11002 outside the range domain, 11003
/// longer than the field's length, 11004 not a number (or not a date), 11005 / 11006 above / below the field
/// type's limits (SmallInteger 16-bit, Integer 32-bit, Single a 32-bit float), 11007 not a coded value.
enum FieldValueValidator {
    enum Code: String {
        case nullNotAllowed = "11001"
        case outsideRange = "11002"
        case tooLong = "11003"
        case notANumber = "11004"
        case aboveLimit = "11005"
        case belowLimit = "11006"
        case notACodedValue = "11007"
    }

    /// The value in the field's stored form, or the problem with it.
    static func convert(_ value: AttributeValue, for field: FieldDefinition, table: TableInfo) -> Result<AttributeValue, RuntimeError> {
        func problem(_ code: Code, _ why: String) -> Result<AttributeValue, RuntimeError> {
            .failure(RuntimeError(code.rawValue, "Field \(field.displayName) of \(table.title): \(why)", layer: table.reference, field: field.name))
        }
        var value = value
        // A choice may be typed by the name its list shows ("Median" for the code "MD").
        if case .codedValue(_, let values)? = field.domain, let text = value.string,
           !values.contains(where: { AttributeValue(JSON($0.code)).sameValue(as: value) || AttributeValue(JSON($0.code)).string == text }),
           let match = values.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame }) {
            value = AttributeValue(JSON(match.code))
        }
        if value.isNull || value == .string("") && field.type != .string {
            return field.nullable ? .success(.null) : problem(.nullNotAllowed, "a value is required (the field is not nullable).")
        }
        var converted: AttributeValue
        switch field.type {
        case .smallInteger, .integer, .bigInteger:
            guard let number = number(value) else { return problem(.notANumber, "\(value) is not a number.") }
            guard number.rounded() == number else { return problem(.notANumber, "\(value) is not a whole number (\(field.type.shortName)).") }
            let limits: (Double, Double) = field.type == .smallInteger ? (Double(Int16.min), Double(Int16.max))
                : field.type == .integer ? (Double(Int32.min), Double(Int32.max)) : (-9.007199254740992e15, 9.007199254740992e15)
            if number > limits.1 { return problem(.aboveLimit, "\(format(number)) is above the largest \(field.type.shortName), \(format(limits.1)).") }
            if number < limits.0 { return problem(.belowLimit, "\(format(number)) is below the smallest \(field.type.shortName), \(format(limits.0)).") }
            converted = .int(Int64(number))
        case .single, .double:
            guard let number = number(value), number.isFinite else { return problem(.notANumber, "\(value) is not a number.") }
            if field.type == .single {
                let limit = Double(Float.greatestFiniteMagnitude)
                if number > limit { return problem(.aboveLimit, "\(number) is above the largest Single (32-bit float).") }
                if number < -limit { return problem(.belowLimit, "\(number) is below the smallest Single (32-bit float).") }
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
            // A choice list's values are checked as codes below (11007 says more than 11003 there).
            var isChoice = false
            if case .codedValue? = field.domain { isChoice = true }
            if !isChoice, let length = field.length, length > 0, text.count > length {
                return problem(.tooLong, "the text is \(text.count) characters long; the field holds at most \(length).")
            }
            converted = .string(text)
        case .date:
            switch value {
            case .int(let i): converted = .int(i)
            case .double(let d) where d.isFinite: converted = .int(Int64(d))
            case .string(let s):
                guard let ms = Int64(s) ?? Self.parseDate(s) else { return problem(.notANumber, "'\(s)' is not a date (ISO 8601, e.g. 2026-05-01 or 2026-05-01T10:30:00Z, or epoch milliseconds).") }
                converted = .int(ms)
            default: return problem(.notANumber, "\(value) is not a date.")
            }
        case .guid, .globalID:
            guard let text = value.string, let guid = GUIDText.normalize(text) else {
                return problem(.notANumber, "\(value) is not a GUID ({XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}).")
            }
            converted = .string(guid)
        default:
            converted = value
        }
        switch field.domain {
        case .codedValue(_, let values)?:
            let codes = values.map { AttributeValue(JSON($0.code)) }
            if !codes.contains(where: { $0.sameValue(as: converted) || ($0.string != nil && $0.string == converted.string) }) {
                let list = values.prefix(12).map { "\(AttributeValue(JSON($0.code))) (\($0.name))" }.joined(separator: ", ")
                return problem(.notACodedValue, "\(value) is not a value of its choice list: \(list).")
            }
        case .range(_, let low, let high)?:
            if let number = converted.double {
                if let low, number < low { return problem(.outsideRange, "\(format(number)) is below the range's minimum \(format(low)).") }
                if let high, number > high { return problem(.outsideRange, "\(format(number)) is above the range's maximum \(format(high)).") }
            }
        default:
            break
        }
        return .success(converted)
    }

    private static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces))
        case .null: return nil
        }
    }

    private static func format(_ d: Double) -> String {
        d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// ISO 8601 dates and date-times (UTC unless an offset is given), as epoch milliseconds.
    static func parseDate(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if let date = full.date(from: trimmed) { return Int64(date.timeIntervalSince1970 * 1000) }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = full.date(from: trimmed) { return Int64(date.timeIntervalSince1970 * 1000) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return Int64(date.timeIntervalSince1970 * 1000) }
        }
        return nil
    }
}
