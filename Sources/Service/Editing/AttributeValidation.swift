import Foundation
import WebMap

/// Checks the attributes of an add or update against the layer's fields: editable (1023), nullable (1001),
/// type, length and domain (1016). System-maintained fields (object id, global id, editor tracking) are
/// ignored when a client sends them, as ArcGIS does.
struct AttributeValidator {
    let layer: LayerModel

    /// The full attribute set to store: the existing values (update) or the defaults (add), with the
    /// input applied. Throws the first problem as an `EditError`.
    func apply(_ input: Attributes, to existing: Attributes?) throws(EditError) -> Attributes {
        var result = Attributes()
        for field in layer.fields where field.type != .geometry {
            result.appendUnchecked(field.name, existing.map { $0[field.name] ?? .null } ?? defaultValue(field))
        }
        for (name, value) in input {
            guard let field = layer.field(name), field.type != .geometry else { continue }
            if layer.isSystemMaintained(field) { continue }
            if !field.editable {
                let current = existing?[field.name] ?? defaultValue(field)
                if value.sameValue(as: current) { continue }
                throw EditError.notEditable(field.name)
            }
            result[field.name] = try coerce(value, for: field)
        }
        // Required fields: every one on add, the ones the input touches on update.
        for field in layer.fields where !field.nullable && !layer.isSystemMaintained(field) && field.type != .geometry
            && (existing == nil || input[field.name] != nil) {
            if (result[field.name] ?? .null).isNull { throw EditError.notNullable(field.name) }
        }
        return result
    }

    private func defaultValue(_ field: FieldDefinition) -> AttributeValue {
        guard let node = field.defaultValue else { return .null }
        return AttributeValue(JSON(node))
    }

    /// The value converted to the field's stored form, or a 1016 naming why not.
    func coerce(_ value: AttributeValue, for field: FieldDefinition) throws(EditError) -> AttributeValue {
        if value.isNull {
            guard field.nullable else { throw EditError.notNullable(field.name) }
            return .null
        }
        let converted: AttributeValue
        switch field.type {
        case .smallInteger, .integer, .bigInteger:
            let limits: ClosedRange<Int64>
            switch field.type {
            case .smallInteger: limits = Int64(Int16.min)...Int64(Int16.max)
            case .integer: limits = Int64(Int32.min)...Int64(Int32.max)
            default: limits = Int64.min...Int64.max
            }
            var number: Int64?
            switch value {
            case .int(let i): number = i
            case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: number = Int64(d)
            case .string(let s): number = Int64(s.trimmingCharacters(in: .whitespaces))
            default: number = nil
            }
            guard let number else { throw EditError.value(field.name, "\(value) is not an integer (\(field.type.shortName)).") }
            guard limits.contains(number) else { throw EditError.value(field.name, "\(number) is outside the range of a \(field.type.shortName) (\(limits.lowerBound) to \(limits.upperBound)).") }
            converted = .int(number)
        case .single, .double:
            var number: Double?
            switch value {
            case .int(let i): number = Double(i)
            case .double(let d): number = d
            case .string(let s): number = Double(s.trimmingCharacters(in: .whitespaces))
            default: number = nil
            }
            guard let number, number.isFinite else { throw EditError.value(field.name, "\(value) is not a number (\(field.type.shortName)).") }
            if field.type == .single, abs(number) > Double(Float.greatestFiniteMagnitude) {
                throw EditError.value(field.name, "\(number) is too large for a Single (32-bit float).")
            }
            converted = .double(number)
        case .string:
            let text: String
            switch value {
            case .string(let s): text = s
            case .int(let i): text = String(i)
            case .double(let d): text = String(d)
            case .null: text = ""
            }
            if let length = field.length, length > 0, text.count > length {
                throw EditError.value(field.name, "the text is \(text.count) characters long; the field holds at most \(length).")
            }
            converted = .string(text)
        case .date:
            switch value {
            case .int(let i): converted = .int(i)
            case .double(let d) where d.isFinite: converted = .int(Int64(d))
            case .string(let s):
                if let ms = Int64(s) ?? WhereParser.parseDate(s, timestamp: true) { converted = .int(ms) } else { fallthrough }
            default: throw EditError.value(field.name, "\(value) is not a date (epoch milliseconds).")
            }
        case .guid, .globalID:
            guard let text = value.string, let guid = GUIDText.normalize(text) else {
                throw EditError.value(field.name, "\(value) is not a GUID ({XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}).")
            }
            converted = .string(guid)
        case .dateOnly, .timeOnly, .timestampOffset, .xml:
            guard let text = value.string else { throw EditError.value(field.name, "\(value) must be a string for a \(field.type.shortName) field.") }
            converted = .string(text)
        case .oid:
            converted = value
        case .geometry, .blob, .raster, .unknown:
            throw EditError.value(field.name, "\(field.type.shortName) fields cannot be set through attributes.")
        }
        try checkDomain(converted, field: field)
        return converted
    }

    private func checkDomain(_ value: AttributeValue, field: FieldDefinition) throws(EditError) {
        switch field.domain {
        case .codedValue(_, let values)?:
            let codes = values.map { AttributeValue(JSON($0.code)) }
            guard codes.contains(where: { $0.sameValue(as: value) }) else {
                let list = values.prefix(12).map { "\(AttributeValue(JSON($0.code))) (\($0.name))" }.joined(separator: ", ")
                throw EditError.value(field.name, "\(value) is not a code of its coded-value domain: \(list).")
            }
        case .range(_, let low, let high)?:
            guard let number = value.double else { return }
            if let low, number < low { throw EditError.value(field.name, "\(number) is below the domain's minimum \(low).") }
            if let high, number > high { throw EditError.value(field.name, "\(number) is above the domain's maximum \(high).") }
        default:
            break
        }
    }
}
