/// A read-only view of a `popupInfo` object, every part with its JSON Pointer. A class: every pop-up rule and
/// every layer's behaviour pass it around, and a struct copy would retain each of its lists.
public final class PopupInfo: Sendable {
    public let node: JSONNode
    public let pointer: JSONPointer

    public init(node: JSONNode, pointer: JSONPointer) {
        self.node = node
        self.pointer = pointer
        // Read once: every pop-up rule walks these lists.
        let fieldInfosPointer = pointer / "fieldInfos"
        var fieldInfos: [PopupFieldInfo] = []
        if let entries = node["fieldInfos"]?.array {
            fieldInfos.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() where entry.object != nil {
                fieldInfos.append(PopupFieldInfo(node: entry, list: fieldInfosPointer, index: index, position: fieldInfos.count))
            }
        }
        self.fieldInfos = fieldInfos
        self.popupElements = (node["popupElements"]?.array ?? []).enumerated().compactMap { index, entry in
            entry.object == nil ? nil : PopupElement(node: entry, pointer: pointer / "popupElements" / index)
        }
        expressionInfos = (node["expressionInfos"]?.array ?? []).enumerated().compactMap { index, entry in
            entry.object == nil ? nil : ExpressionInfo(node: entry, pointer: pointer / "expressionInfos" / index)
        }
    }

    public var title: String? { node["title"]?.string }
    public var titleNode: JSONNode? { node["title"] }
    public var description: String? { node["description"]?.string }
    public var showAttachments: Bool? { node["showAttachments"]?.bool }
    public var relatedRecordsInfo: JSONNode? { node["relatedRecordsInfo"] }

    public let fieldInfos: [PopupFieldInfo]
    public let popupElements: [PopupElement]
    public let expressionInfos: [ExpressionInfo]

    /// True when the pop-up shows attachments: `showAttachments` or an `attachments` element.
    public var showsAttachments: Bool {
        showAttachments == true || popupElements.contains { $0.type == "attachments" }
    }
}

public final class PopupFieldInfo: Sendable {
    // A class: the pop-up rules and every layer's display fields pass entries around, and a struct copy
    // would retain each of its parts.
    public let node: JSONNode
    /// The pointer of the `fieldInfos` list and the entry's index in it (the entry's own pointer is built
    /// only when a diagnostic needs it).
    private let list: JSONPointer
    private let index: Int
    /// The entry's position in its `PopupInfo.fieldInfos` (which leaves out entries that are not objects), or
    /// -1 for an entry made on its own: lets a layer keep one value per entry in an array beside that list.
    public let position: Int
    /// Read once: every pop-up rule asks for these, several times per entry.
    public let fieldName: String?
    public let visible: Bool
    public let isEditable: Bool
    /// True for an `expression/NAME` entry.
    public let isExpression: Bool
    /// True for a `relationships/...` entry.
    public let isRelationshipField: Bool

    public var pointer: JSONPointer { index < 0 ? list : list / index }

    public convenience init(node: JSONNode, pointer: JSONPointer) {
        self.init(node: node, list: pointer, index: -1, position: -1)
    }

    init(node: JSONNode, list: JSONPointer, index: Int, position: Int) {
        self.node = node
        self.list = list
        self.index = index
        self.position = position
        let fieldName = node["fieldName"]?.string
        self.fieldName = fieldName
        visible = node["visible"]?.bool ?? false
        isEditable = node["isEditable"]?.bool ?? false
        isExpression = fieldName?.hasASCIIPrefix("expression/") ?? false
        isRelationshipField = fieldName?.hasASCIIPrefix("relationships/") ?? false
    }

    public var label: String? { node["label"]?.string }
    /// `textbox`, `textarea` or `richtext`.
    public var stringFieldOption: String? { node["stringFieldOption"]?.string }

    /// The expression name for `expression/NAME`, else nil.
    public var expressionName: String? {
        guard isExpression, let name = fieldName else { return nil }
        return String(name.dropFirst("expression/".count))
    }
}

public struct PopupElement: Sendable {
    public var node: JSONNode
    public var pointer: JSONPointer
    /// `fields`, `text`, `media`, `attachments`, `relationship`, `expression`...
    public var type: String? { node["type"]?.string }
}

public struct ExpressionInfo: Sendable {
    public var node: JSONNode
    public var pointer: JSONPointer
    public var name: String? { node["name"]?.string }
}
