import Foundation
import WebMap
import FeatureServiceModel

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

    /// The value converted to the field's stored form (`FieldValueConversion`, the definition the editing
    /// runtime validates with too), or 1001 / 1016 naming why not.
    func coerce(_ value: AttributeValue, for field: FieldDefinition) throws(EditError) -> AttributeValue {
        switch FieldValueConversion.convert(value, for: field) {
        case .success(let converted): return converted
        case .failure(.nullNotAllowed): throw EditError.notNullable(field.name)
        case .failure(let problem): throw EditError.value(field.name, problem.description)
        }
    }
}
