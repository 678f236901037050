/// A read-only view of a `popupInfo` object, every part with its JSON Pointer.
public struct PopupInfo: Sendable {
    public var node: JSONNode
    public var pointer: JSONPointer

    public init(node: JSONNode, pointer: JSONPointer) {
        self.node = node
        self.pointer = pointer
        // Read once: every pop-up rule walks these lists.
        let fieldInfosPointer = pointer / "fieldInfos"
        fieldInfos = (node["fieldInfos"]?.array ?? []).enumerated().compactMap { index, entry in
            entry.object == nil ? nil : PopupFieldInfo(node: entry, list: fieldInfosPointer, index: index)
        }
        popupElements = (node["popupElements"]?.array ?? []).enumerated().compactMap { index, entry in
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

public struct PopupFieldInfo: Sendable {
    public let node: JSONNode
    /// The pointer of the `fieldInfos` list and the entry's index in it (the entry's own pointer is built
    /// only when a diagnostic needs it).
    private let list: JSONPointer
    private let index: Int
    /// Read once: every pop-up rule asks for these, several times per entry.
    public let fieldName: String?
    public let visible: Bool
    public let isEditable: Bool

    public var pointer: JSONPointer { index < 0 ? list : list / index }

    public init(node: JSONNode, pointer: JSONPointer) {
        self.init(node: node, list: pointer, index: -1)
    }

    init(node: JSONNode, list: JSONPointer, index: Int) {
        self.node = node
        self.list = list
        self.index = index
        fieldName = node["fieldName"]?.string
        visible = node["visible"]?.bool ?? false
        isEditable = node["isEditable"]?.bool ?? false
    }

    public var label: String? { node["label"]?.string }
    /// `textbox`, `textarea` or `richtext`.
    public var stringFieldOption: String? { node["stringFieldOption"]?.string }

    /// The expression name for `expression/NAME`, else nil.
    public var expressionName: String? {
        guard let name = fieldName, name.hasPrefix("expression/") else { return nil }
        return String(name.dropFirst("expression/".count))
    }

    /// True for an `expression/NAME` entry (without building the name).
    public var isExpression: Bool { fieldName?.hasPrefix("expression/") ?? false }

    public var isRelationshipField: Bool { fieldName?.hasPrefix("relationships/") ?? false }
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
