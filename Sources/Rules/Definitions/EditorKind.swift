import WebMap

/// The control the app shows for an editable field (docs/rules.md, "editor kind").
public enum EditorKind: String, Sendable, Codable {
    case choiceList = "choice-list"
    case number
    case multiLineText = "multi-line-text"
    case singleLineText = "single-line-text"
    case dateTime = "date-time"
    case readOnly = "read-only"
    /// The reference app asserts and shows an empty cell.
    case unsupported

    /// The editor for `field` as configured by `fieldInfo`, checked in the order docs/rules.md gives.
    public init(field: FieldDefinition, fieldInfo: PopupFieldInfo?) {
        if case .codedValue = field.domain {
            self = .choiceList
            return
        }
        switch field.type {
        case .smallInteger, .integer, .bigInteger, .single, .double: self = .number
        case .string:
            let option = fieldInfo?.stringFieldOption
            self = (option == "textarea" || option == "richtext") ? .multiLineText : .singleLineText
        case .date, .dateOnly, .timeOnly, .timestampOffset: self = .dateTime
        case .oid, .globalID, .guid: self = .readOnly
        case .geometry, .raster, .xml, .blob, .unknown: self = .unsupported
        }
    }

    /// The editor for `field` without telling single-line from multi-line text (the pop-up's
    /// `stringFieldOption` decides that): enough to know whether the field can be edited, and it reads nothing
    /// of the pop-up.
    init(fieldType field: FieldDefinition) {
        self.init(field: field, fieldInfo: nil)
    }

    /// True for the kinds a user can actually edit with.
    public var isEditable: Bool { self != .readOnly && self != .unsupported }
}
