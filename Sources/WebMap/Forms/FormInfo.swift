/// A read-only view of a layer's or table's `formInfo` (forms.md, "The document"): its expressions and its
/// element tree, every part with its JSON Pointer. Malformed parts read as absent (the schema reports them);
/// an element of a type MapRules does not know is kept as `.unsupported`, never dropped.
public final class FormInfo: Sendable {
    public let node: JSONNode
    public let pointer: JSONPointer
    public let title: String?
    public let description: String?
    /// `preserveFieldValuesWhenHidden` (default false: hidden fields are cleared when the feature is saved).
    public let preserveFieldValuesWhenHidden: Bool
    public let expressionInfos: [FormExpressionInfo]
    /// The top-level elements, in order.
    public let elements: [FormElement]

    public init(node: JSONNode, pointer: JSONPointer) {
        self.node = node
        self.pointer = pointer
        title = node["title"]?.string
        description = node["description"]?.string
        preserveFieldValuesWhenHidden = node["preserveFieldValuesWhenHidden"]?.bool ?? false
        var infos: [FormExpressionInfo] = []
        for (index, entry) in (node["expressionInfos"]?.array ?? []).enumerated() where entry.object != nil {
            infos.append(FormExpressionInfo(node: entry, pointer: pointer.appending("expressionInfos", index)))
        }
        expressionInfos = infos
        elements = FormElement.list(node["formElements"], at: pointer / "formElements", depth: 0)
    }

    /// A form is in force (the layer is form-enabled) when it has at least one element.
    public var isEnabled: Bool { !elements.isEmpty }

    /// Every element, groups before their children, in document order.
    public var allElements: [FormElement] {
        var out: [FormElement] = []
        func walk(_ list: [FormElement]) {
            for element in list {
                out.append(element)
                walk(element.children)
            }
        }
        walk(elements)
        return out
    }

    /// The field elements in form order, each with the group that holds it (the innermost one).
    public var fieldElements: [(element: FormElement, group: FormElement?)] {
        var out: [(FormElement, FormElement?)] = []
        func walk(_ list: [FormElement], group: FormElement?) {
            for element in list {
                if element.kind == .field { out.append((element, group)) }
                if element.kind == .group { walk(element.children, group: element) }
            }
        }
        walk(elements, group: nil)
        return out
    }

    /// The expression named `name` (names compare exactly, as the apps do).
    public func expression(named name: String) -> FormExpressionInfo? {
        expressionInfos.first { $0.name == name }
    }

    /// `expr/system/true` and `expr/system/false`: the constants an element may name without defining them.
    public static func systemConstant(_ name: String) -> Bool? {
        switch name {
        case "expr/system/true": return true
        case "expr/system/false": return false
        default: return nil
        }
    }
}

/// An entry of `formInfo.expressionInfos`: `{name, title, expression, returnType}`.
public struct FormExpressionInfo: Sendable {
    public let node: JSONNode
    public let pointer: JSONPointer

    public init(node: JSONNode, pointer: JSONPointer) {
        self.node = node
        self.pointer = pointer
    }

    public var name: String? { node["name"]?.string }
    public var title: String? { node["title"]?.string }
    /// The Arcade source.
    public var expression: String? { node["expression"]?.string }
    /// `returnType` as written (nil when absent: boolean by default).
    public var declaredReturnType: String? { node["returnType"]?.string }
    /// `boolean`, `number`, `string` or `date` (default `boolean`); anything else as written.
    public var returnType: String { declaredReturnType ?? "boolean" }
}

extension MapLayer {
    /// The layer's or table's `formInfo`, when it is an object (on an inline feature collection: that of its
    /// first layer, as for the pop-up).
    public var formInfo: FormInfo? {
        if isStandalonePopup { return nil }
        if let form = node["formInfo"], form.object != nil { return FormInfo(node: form, pointer: pointer / "formInfo") }
        if let (index, sub) = firstFeatureCollectionLayer, let form = sub["formInfo"], form.object != nil {
            return FormInfo(node: form, pointer: pointer.appending(components: "featureCollection", "layers", String(index), "formInfo"))
        }
        return nil
    }
}
