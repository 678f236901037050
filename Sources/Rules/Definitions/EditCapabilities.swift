import WebMap

/// What a feature table lets a user do, from its `capabilities` (docs/rules.md, "editable" / "can add").
public struct EditCapabilities: Sendable, Equatable {
    public var isEditable: Bool
    public var canAdd: Bool
    public var canUpdate: Bool
    public var canDelete: Bool

    public init(_ capabilities: Capabilities) {
        let create = capabilities.contains("Create")
        let update = capabilities.contains("Update")
        let delete = capabilities.contains("Delete")
        let editing = capabilities.contains("Editing")
        let noneListed = !create && !update && !delete
        isEditable = editing || create || update || delete
        canAdd = create || (editing && noneListed)
        canUpdate = update || (editing && noneListed)
        canDelete = delete || (editing && noneListed)
    }

    public static let none = EditCapabilities(Capabilities(nil))
}
