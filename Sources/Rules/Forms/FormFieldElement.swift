import WebMap

/// A field element of a form with what does not depend on the feature's values: its service field, whether
/// that field allows edits (forms.md, "field allows edits"), its domain and whether its input type fits.
public struct FormFieldElement: Sendable {
    public let element: FormElement
    /// The group that holds it, if any.
    public let group: FormElement?
    /// The service field `fieldName` names (case-insensitively); nil when unknown or without metadata.
    public let field: FieldDefinition?
    /// The field is editable in the service, not maintained by it, of an editable type, and the table can add.
    public let allowsEditsOnInsert: Bool
    /// The same, for a table that can update.
    public let allowsEditsOnUpdate: Bool
    /// The field is the layer's type (or subtype) field: a form always requires it.
    public let isTypeIdField: Bool

    init(element: FormElement, group: FormElement?, table: LayerMetadata?, capabilities: EditCapabilities,
         isServiceBacked: Bool, typeIdField: String?) {
        self.element = element
        self.group = group
        let field = element.fieldName.flatMap { table?.field(named: $0) }
        self.field = field
        let editable: Bool
        if let field, let table, isServiceBacked {
            editable = Self.fieldAllowsEdits(field, in: table)
        } else {
            editable = false
        }
        allowsEditsOnInsert = editable && capabilities.canAdd
        allowsEditsOnUpdate = editable && capabilities.canUpdate
        isTypeIdField = field != nil && typeIdField?.equalsIgnoringCase(field!.name) == true
    }

    /// The service lets a client write the field: editable, not maintained by the service, of a type an app can
    /// edit (not OID, GlobalID, Geometry, Blob, Raster, XML).
    public static func fieldAllowsEdits(_ field: FieldDefinition, in table: LayerMetadata) -> Bool {
        guard field.editable, !table.isSystemMaintained(field) else { return false }
        switch field.type {
        case .oid, .globalID, .geometry, .blob, .raster, .xml, .unknown: return false
        default: return true
        }
    }

    public func allowsEdits(_ editType: FormEditType) -> Bool {
        editType == .insert ? allowsEditsOnInsert : allowsEditsOnUpdate
    }

    /// The service field's name when it resolves, else `fieldName` as written.
    public var fieldName: String { field?.name ?? element.fieldName ?? "" }

    /// The label a crew sees: the element's `label`, else the field's alias, else its name.
    public var label: String { element.label ?? field?.alias ?? fieldName }

    /// The domain in force: the element's own, else the field's.
    public var domain: Domain? { element.domain ?? field?.domain }

    /// The coded values of the domain in force (nil without a coded-value domain).
    public var codedValues: [CodedValue]? {
        if case .codedValue(_, let values)? = domain { return values }
        return nil
    }

    /// Why the input type does not fit the field's type or domain (forms.md, "Input types fit field types"),
    /// nil when it fits, when there is no input type, or when the field is unknown.
    public var inputTypeProblem: String? {
        guard let input = element.inputType, let field else { return nil }
        guard let kind = input.kind else { return nil }
        let type = field.type
        let isNumber = [.smallInteger, .integer, .bigInteger, .single, .double].contains(type)
        switch kind {
        case .textBox, .barcodeScanner:
            return type == .string || isNumber ? nil : "\(kind.rawValue) needs a String or number field"
        case .textArea:
            return type == .string ? nil : "text-area needs a String field"
        case .comboBox, .radioButtons:
            return codedValues == nil ? "\(kind.rawValue) needs a coded-value domain (the element's or the field's)" : nil
        case .switchControl:
            guard let codes = codedValues else { return "switch needs a coded-value domain of exactly two codes" }
            guard codes.count == 2 else { return "switch needs a coded-value domain of exactly two codes; this one has \(codes.count)" }
            let on = input.onValue.map(JSON.init), off = input.offValue.map(JSON.init)
            let codeValues = codes.map { JSON($0.code) }
            guard let on, let off, codeValues.contains(on), codeValues.contains(off), on != off else {
                return "a switch's onValue and offValue must be the two different codes of its domain ("
                    + codeValues.map(\.text).joined(separator: ", ") + ")"
            }
            return nil
        case .datePicker:
            return type == .date || type == .dateOnly ? nil : "date-picker needs a Date or DateOnly field"
        case .datetimePicker:
            return type == .date ? nil : "datetime-picker needs a Date field"
        case .timePicker:
            return type == .timeOnly ? nil : "time-picker needs a TimeOnly field"
        case .timestampOffsetPicker:
            return type == .timestampOffset ? nil : "timestampoffset-picker needs a TimestampOffset field"
        }
    }
}
