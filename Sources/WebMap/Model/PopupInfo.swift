/// A read-only view of a `popupInfo` object, every part with its JSON Pointer. A class: every pop-up rule and
/// every layer's behaviour pass it around, and a struct copy would retain each of its lists.
public final class PopupInfo: Sendable {
    public let node: JSONNode
    public let pointer: JSONPointer

    public init(node: JSONNode, pointer: JSONPointer) {
        self.node = node
        self.pointer = pointer
        // Read once: every pop-up rule walks these lists.
        var fieldInfos: [PopupFieldInfo] = []
        if let entries = node["fieldInfos"]?.array {
            fieldInfos.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() where entry.object != nil {
                fieldInfos.append(PopupFieldInfo(node: entry, popup: pointer, index: index, position: fieldInfos.count))
            }
        }
        self.fieldInfos = fieldInfos
        // Entries keep the pop-up's pointer and their index: their own pointer is built only when a
        // diagnostic names it.
        popupElements = Self.objects(in: node["popupElements"]) { PopupElement(node: $1, popup: pointer, index: $0) }
        expressionInfos = Self.objects(in: node["expressionInfos"]) { ExpressionInfo(node: $1, popup: pointer, index: $0) }
    }

    /// The object entries of the array `list` (when it is one), made into views with their index.
    private static func objects<T>(in list: JSONNode?, _ make: (Int, JSONNode) -> T) -> [T] {
        guard let entries = list?.array, !entries.isEmpty else { return [] }
        var result: [T] = []
        result.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() where entry.object != nil { result.append(make(index, entry)) }
        return result
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
    /// The pointer of the pop-up and the entry's index in its `fieldInfos` (the entry's own pointer is built
    /// only when a diagnostic needs it); for an entry made on its own, its pointer and -1.
    private let popup: JSONPointer
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

    public var pointer: JSONPointer { index < 0 ? popup : popup.appending("fieldInfos", index) }

    public convenience init(node: JSONNode, pointer: JSONPointer) {
        self.init(node: node, popup: pointer, index: -1, position: -1)
    }

    init(node: JSONNode, popup: JSONPointer, index: Int, position: Int) {
        self.node = node
        self.popup = popup
        self.index = index
        self.position = position
        // One pass over the members instead of a look-up per key (the last of a repeated key wins, as in
        // `node[key]`); keys are told apart by length before they are compared.
        var fieldName: String?
        var visible = false
        var isEditable = false
        for member in node.object?.members ?? [] {
            switch member.key.utf8.count {
            case 9 where member.key == "fieldName": fieldName = member.value.string
            case 7 where member.key == "visible": visible = member.value.bool ?? false
            case 10 where member.key == "isEditable": isEditable = member.value.bool ?? false
            default: break
            }
        }
        self.fieldName = fieldName
        self.visible = visible
        self.isEditable = isEditable
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
    public let node: JSONNode
    /// The pop-up's pointer and the index in its `popupElements`.
    private let popup: JSONPointer
    private let index: Int

    init(node: JSONNode, popup: JSONPointer, index: Int) {
        self.node = node
        self.popup = popup
        self.index = index
    }

    public var pointer: JSONPointer { popup.appending("popupElements", index) }
    /// `fields`, `text`, `media`, `attachments`, `relationship`, `expression`...
    public var type: String? { node["type"]?.string }
}

public struct ExpressionInfo: Sendable {
    public let node: JSONNode
    /// The pop-up's pointer and the index in its `expressionInfos`.
    private let popup: JSONPointer
    private let index: Int

    init(node: JSONNode, popup: JSONPointer, index: Int) {
        self.node = node
        self.popup = popup
        self.index = index
    }

    public var pointer: JSONPointer { popup.appending("expressionInfos", index) }
    public var name: String? { node["name"]?.string }
}
