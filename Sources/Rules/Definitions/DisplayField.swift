import WebMap

/// A pop-up field the app shows: a visible `fieldInfos` entry naming a real field or an expression.
public struct DisplayField: Sendable {
    public var fieldInfo: PopupFieldInfo
    /// The service field (nil for expressions, or when the layer's metadata is unknown).
    public var field: FieldDefinition?
    /// The name after `expression/`, for expression fields.
    public var expressionName: String?
}

/// A display field the user can edit, with the control the app shows for it.
public struct EditableField: Sendable {
    public var display: DisplayField
    public var field: FieldDefinition
    public var editor: EditorKind
}

/// What the rules ask of one `fieldInfos` entry, read once (see `LayerBehavior.fieldInfoFacts`).
public struct FieldInfoFacts: Sendable {
    /// The index in the table's `fields` of the service field the entry names, or -1: an `expression/...` or
    /// `relationships/...` entry, a name the layer does not have, or no metadata.
    public let fieldIndex: Int
    public let hasFieldName: Bool
    public let isVisible: Bool
    public let isEditable: Bool
    public let isExpression: Bool
    public let isRelationshipField: Bool

    /// The entry gives a `fieldName` that is neither an expression nor a relationship entry.
    public var namesAField: Bool { hasFieldName && !isExpression && !isRelationshipField }
}
