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
