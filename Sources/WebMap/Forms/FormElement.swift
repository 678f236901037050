/// One element of a form (`formInfo.formElements[i]`, or of a group's `formElements`), by its `type`. A class:
/// elements are walked by every form rule and by each evaluation, and hold their children.
public final class FormElement: Sendable {
    public enum Kind: String, Sendable {
        case field, group, text, relationship, attachment
        /// A `type` MapRules does not know (or none): kept, shown as unsupported.
        case unsupported
    }

    public let node: JSONNode
    public let pointer: JSONPointer
    public let kind: Kind
    /// `type` as written.
    public let type: String?
    /// How many groups enclose it (0 at the top level).
    public let depth: Int
    /// A group's elements (empty for every other kind).
    public let children: [FormElement]

    init(node: JSONNode, pointer: JSONPointer, depth: Int) {
        self.node = node
        self.pointer = pointer
        self.depth = depth
        type = node["type"]?.string
        kind = type.flatMap(Kind.init(rawValue:)).flatMap { $0 == .unsupported ? nil : $0 } ?? .unsupported
        children = kind == .group ? FormElement.list(node["formElements"], at: pointer / "formElements", depth: depth + 1) : []
    }

    /// The object entries of an element list. Nesting is bounded by the document's own depth (the parser's).
    static func list(_ list: JSONNode?, at pointer: JSONPointer, depth: Int) -> [FormElement] {
        guard let nodes = list?.array else { return [] }
        var out: [FormElement] = []
        out.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() where node.object != nil {
            out.append(FormElement(node: node, pointer: pointer / index, depth: depth))
        }
        return out
    }

    public var label: String? { node["label"]?.string }
    public var description: String? { node["description"]?.string }
    /// `visibilityExpression`: the name of a form expression, or a system constant.
    public var visibilityExpression: String? { node["visibilityExpression"]?.string }
    public var editableExpression: String? { node["editableExpression"]?.string }

    // MARK: field

    public var fieldName: String? { node["fieldName"]?.string }
    public var hint: String? { node["hint"]?.string }
    public var requiredExpression: String? { node["requiredExpression"]?.string }
    public var valueExpression: String? { node["valueExpression"]?.string }
    /// The deprecated `editable` boolean.
    public var editable: Bool? { node["editable"]?.bool }
    /// The element's own `domain` (it replaces the field's).
    public var domain: Domain? { Domain(node["domain"]) }
    public var inputType: FormInputType? { node["inputType"].flatMap { $0.object != nil ? FormInputType(node: $0) : nil } }

    /// Every expression name the element refers to, with the member that names it.
    public var expressionReferences: [(member: String, name: String)] {
        ["visibilityExpression", "requiredExpression", "editableExpression", "valueExpression"].compactMap { member in
            node[member]?.string.map { (member, $0) }
        }
    }

    // MARK: group

    /// `expanded` or `collapsed` (default `expanded`).
    public var initialState: String { node["initialState"]?.string ?? "expanded" }

    // MARK: text

    public var text: String? { node["text"]?.string }
    /// `plain-text` or `markdown` (default `plain-text`).
    public var textFormat: String { node["textFormat"]?.string ?? "plain-text" }

    // MARK: relationship

    public var relationshipId: Int? { node["relationshipId"]?.integer }
    public var displayCount: Int? { node["displayCount"]?.integer }

    // MARK: attachment

    public var attachmentKeyword: String? { node["attachmentKeyword"]?.string }
    public var minAttachmentCount: Int? { node["minAttachmentCount"]?.integer }
    public var maxAttachmentCount: Int? { node["maxAttachmentCount"]?.integer }
    /// An attachment element's `inputType`: `attachment`, `audio`, `document`, `image`, `signature`, `video`
    /// (as a string, or the `type` of an object).
    public var attachmentInputType: String? { node["inputType"]?.string ?? node["inputType"]?["type"]?.string }
}

/// A field element's `inputType`: the control the crew gets.
public struct FormInputType: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case textBox = "text-box", textArea = "text-area", barcodeScanner = "barcode-scanner"
        case comboBox = "combo-box", radioButtons = "radio-buttons", switchControl = "switch"
        case datePicker = "date-picker", datetimePicker = "datetime-picker", timePicker = "time-picker"
        case timestampOffsetPicker = "timestampoffset-picker"
    }

    public let node: JSONNode
    /// `type` as written.
    public let type: String?
    /// Nil for a type MapRules does not know.
    public let kind: Kind?

    public init(node: JSONNode) {
        self.node = node
        type = node["type"]?.string
        kind = type.flatMap(Kind.init(rawValue:))
    }

    public var minLength: Int? { node["minLength"]?.integer }
    public var maxLength: Int? { node["maxLength"]?.integer }
    /// Combo box and radio buttons: offer "no value" (default true).
    public var showNoValueOption: Bool { node["showNoValueOption"]?.bool ?? true }
    public var noValueOptionLabel: String? { node["noValueOptionLabel"]?.string }
    /// A switch's codes.
    public var onValue: JSONNode? { node["onValue"] }
    public var offValue: JSONNode? { node["offValue"] }
    public var includeTime: Bool? { node["includeTime"]?.bool }

    /// True for the text inputs (`minLength`, `maxLength`).
    public var isText: Bool { kind == .textBox || kind == .textArea || kind == .barcodeScanner }
}
