/// A read-only view of a `popupInfo` object, every part with its JSON Pointer. A class: every pop-up rule and
/// every layer's behaviour pass it around, and a struct copy would retain each of its lists.
public final class PopupInfo: Sendable {
    public let node: JSONNode
    public let pointer: JSONPointer

    public init(node: JSONNode, pointer: JSONPointer) {
        self.node = node
        self.pointer = pointer
        // Read once: every pop-up rule walks these lists.
        fieldInfos = PopupFieldInfos(list: node["fieldInfos"], popupPointer: pointer)
        // Entries keep the pop-up's pointer and their index: their own pointer is built only when a
        // diagnostic names it.
        popupElements = Self.entries(of: "popupElements", in: node, popup: pointer)
        expressionInfos = Self.entries(of: "expressionInfos", in: node, popup: pointer)
    }

    /// The object entries of the array `list` of the pop-up (when it is one).
    private static func entries(of list: String, in node: JSONNode, popup: JSONPointer) -> [PopupListEntry] {
        guard let entries = node[list]?.array, !entries.isEmpty else { return [] }
        var result: [PopupListEntry] = []
        result.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() where entry.object != nil {
            result.append(PopupListEntry(node: entry, popup: popup, list: list, index: index))
        }
        return result
    }

    public var title: String? { node["title"]?.string }
    public var titleNode: JSONNode? { node["title"] }
    public var description: String? { node["description"]?.string }
    public var showAttachments: Bool? { node["showAttachments"]?.bool }
    public var relatedRecordsInfo: JSONNode? { node["relatedRecordsInfo"] }

    public let fieldInfos: PopupFieldInfos
    public let popupElements: [PopupElement]
    public let expressionInfos: [ExpressionInfo]

    /// True when the pop-up shows attachments: `showAttachments` or an `attachments` element.
    public var showsAttachments: Bool {
        showAttachments == true || popupElements.contains { $0.type == "attachments" }
    }
}

/// The entries of a pop-up's `fieldInfos` that are objects, in order. Their values are read once into one
/// list shared by all of them: a pop-up has dozens of entries, and an object for each would be as many
/// allocations for every pop-up of every map.
public struct PopupFieldInfos: RandomAccessCollection, Sendable {
    // The accessors are inlinable (and the storage visible to them): the rules, in another module, walk the
    // entries of every pop-up of every map, and are compiled against these few lines instead of calling them.
    @usableFromInline let storage: PopupFieldInfoStorage

    init(list: JSONNode?, popupPointer: JSONPointer) {
        var entries: [PopupFieldInfoStorage.Entry] = []
        if let nodes = list?.array {
            entries.reserveCapacity(nodes.count)
            for (index, node) in nodes.enumerated() where node.object != nil {
                entries.append(PopupFieldInfoStorage.Entry(node: node, index: index))
            }
        }
        storage = PopupFieldInfoStorage(entries: entries, popupPointer: popupPointer)
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storage.entries.count }
    @inlinable public subscript(position: Int) -> PopupFieldInfo { PopupFieldInfo(storage: storage, position: position) }
}

/// What the entries of one `fieldInfos` list share.
@usableFromInline final class PopupFieldInfoStorage: Sendable {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline let node: JSONNode
        /// The index in the JSON array (entries that are not objects are left out of the list).
        @usableFromInline let index: Int
        @usableFromInline let fieldName: String?
        @usableFromInline let label: String?
        @usableFromInline let visible: Bool
        @usableFromInline let isEditable: Bool
        @usableFromInline let isExpression: Bool
        @usableFromInline let isRelationshipField: Bool

        init(node: JSONNode, index: Int) {
            self.node = node
            self.index = index
            // One pass over the members instead of a look-up per key (the last of a repeated key wins, as in
            // `node[key]`); keys are told apart by length before they are compared.
            var fieldName: String?
            var label: String?
            var visible = false
            var isEditable = false
            // By index: a member copied out of the list would retain its key and value at every step.
            let members = node.object?.members ?? []
            for i in members.indices {
                switch members[i].key.utf8.count {
                case 9 where members[i].key == "fieldName": fieldName = members[i].value.string
                case 5 where members[i].key == "label": label = members[i].value.string
                case 7 where members[i].key == "visible": visible = members[i].value.bool ?? false
                case 10 where members[i].key == "isEditable": isEditable = members[i].value.bool ?? false
                default: break
                }
            }
            self.fieldName = fieldName
            self.label = label
            self.visible = visible
            self.isEditable = isEditable
            isExpression = fieldName?.hasASCIIPrefix("expression/") ?? false
            isRelationshipField = fieldName?.hasASCIIPrefix("relationships/") ?? false
        }
    }

    @usableFromInline let entries: [Entry]
    /// The pointer of the pop-up (an entry's own pointer is built only when a diagnostic needs it).
    let popupPointer: JSONPointer

    init(entries: [Entry], popupPointer: JSONPointer) {
        self.entries = entries
        self.popupPointer = popupPointer
    }
}

/// One entry of a pop-up's `fieldInfos`: its position in `PopupInfo.fieldInfos` and the list it belongs to.
public struct PopupFieldInfo: Sendable {
    @usableFromInline let storage: PopupFieldInfoStorage
    /// The entry's position in its `PopupInfo.fieldInfos` (which leaves out entries that are not objects):
    /// lets a layer keep one value per entry in an array beside that list.
    public let position: Int

    @inlinable init(storage: PopupFieldInfoStorage, position: Int) {
        self.storage = storage
        self.position = position
    }

    /// True when this is the entry at `position` of `list` (rather than of another pop-up's list).
    @inlinable public func isEntry(of list: PopupFieldInfos) -> Bool { storage === list.storage }

    @inlinable public var node: JSONNode { storage.entries[position].node }
    @inlinable public var fieldName: String? { storage.entries[position].fieldName }
    @inlinable public var visible: Bool { storage.entries[position].visible }
    @inlinable public var isEditable: Bool { storage.entries[position].isEditable }
    /// True for an `expression/NAME` entry.
    @inlinable public var isExpression: Bool { storage.entries[position].isExpression }
    /// True for a `relationships/...` entry.
    @inlinable public var isRelationshipField: Bool { storage.entries[position].isRelationshipField }

    public var pointer: JSONPointer { storage.popupPointer.appending("fieldInfos", storage.entries[position].index) }

    @inlinable public var label: String? { storage.entries[position].label }
    /// `textbox`, `textarea` or `richtext`.
    public var stringFieldOption: String? { node["stringFieldOption"]?.string }

    /// The expression name for `expression/NAME`, else nil.
    public var expressionName: String? {
        guard isExpression, let name = fieldName else { return nil }
        return String(name.dropFirst("expression/".count))
    }
}

/// An object entry of one of a pop-up's lists (`popupElements`, `expressionInfos`). It keeps the pop-up's
/// pointer, the list's name and its index: its own pointer is made only when a diagnostic names it.
public struct PopupListEntry: Sendable {
    public let node: JSONNode
    private let popup: JSONPointer
    private let list: String
    private let index: Int

    init(node: JSONNode, popup: JSONPointer, list: String, index: Int) {
        self.node = node
        self.popup = popup
        self.list = list
        self.index = index
    }

    public var pointer: JSONPointer { popup.appending(list, index) }
}

/// An entry of `popupElements`.
public typealias PopupElement = PopupListEntry
/// An entry of `expressionInfos`.
public typealias ExpressionInfo = PopupListEntry

extension PopupListEntry {
    /// Of a pop-up element: `fields`, `text`, `media`, `attachments`, `relationship`, `expression`...
    public var type: String? { node["type"]?.string }
    /// Of an expression: the name `expression/NAME` refers to.
    public var name: String? { node["name"]?.string }
}
