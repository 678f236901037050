import WebMap

/// A schema resource (a document root or a subschema with `$id`) as validation sees it: its URI and the
/// subschemas its `$dynamicAnchor`s name, for `$dynamicRef` resolution through the dynamic scope.
final class SchemaResource: @unchecked Sendable {
    let uri: String
    /// Filled while compiling; read-only afterwards.
    var dynamicAnchors: [String: NodeRef] = [:]

    init(uri: String) { self.uri = uri }
}

/// A non-owning reference to a compiled schema: nodes are owned by their registry (which every `Schema`
/// keeps alive), so the graph, cycles included, needs no reference counting while validating.
struct NodeRef {
    unowned(unsafe) let node: SchemaNode
    init(_ node: SchemaNode) { self.node = node }
}

/// One compiled schema (object or boolean): its keywords, sorted by the instance types they apply to so that a
/// value only meets the keywords that can say something about it.
final class SchemaNode: @unchecked Sendable {
    /// `true` / `false` schemas (and an empty object, which is `true`).
    var isAlwaysTrue = false
    var isAlwaysFalse = false
    /// Absolute location: resource URI and JSON Pointer fragment.
    let location: String
    unowned(unsafe) var resource: SchemaResource
    /// Keywords for any instance (type, enum, const, in-place applicators).
    var common: [Keyword] = []
    var object: [Keyword] = []
    var array: [Keyword] = []
    var string: [Keyword] = []
    var number: [Keyword] = []
    /// `unevaluatedProperties` / `unevaluatedItems`: run last, over what the others evaluated.
    var unevaluated: [Keyword] = []

    init(location: String, resource: SchemaResource) {
        self.location = location
        self.resource = resource
    }

    /// Validates `instance`; `evaluated` (when a parent tracks annotations) receives the properties and items
    /// this schema evaluated, if it succeeds.
    func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if isAlwaysTrue { return true }
        if isAlwaysFalse {
            if c.detailed {
                c.report(keyword: "false", location: location, offset: instance.offset, expected: "nothing (the schema is false)",
                         found: Describe.found(instance.value), message: "\(c.subject) is not allowed here.")
            }
            return false
        }
        var pushed = false
        if c.trackScope && c.scope.last !== resource {
            c.scope.append(resource)
            pushed = true
        }
        defer { if pushed { c.scope.removeLast() } }
        let own = unevaluated.isEmpty ? evaluated : Evaluated()
        var valid = true
        for keyword in common where !keyword.validate(instance, c, own) {
            valid = false
            if !c.detailed { return false }
        }
        let specific: [Keyword]
        switch instance.value {
        case .object: specific = object
        case .array: specific = array
        case .string: specific = string
        case .number: specific = number
        default: specific = []
        }
        for keyword in specific where !keyword.validate(instance, c, own) {
            valid = false
            if !c.detailed { return false }
        }
        if !unevaluated.isEmpty {
            for keyword in unevaluated where !keyword.validate(instance, c, own) {
                valid = false
                if !c.detailed { return false }
            }
            if valid, let evaluated, let own { evaluated.merge(own) }
        }
        return valid
    }

    /// Every keyword, for analysis (best-branch selection, dynamic-scope detection).
    var allKeywords: [Keyword] { common + object + array + string + number + unevaluated }

    /// The subschemas this schema applies in place or to members/items.
    var children: [SchemaNode] { allKeywords.flatMap { $0.subschemas } }
}

/// A compiled keyword (or a group of closely related keywords evaluated together, such as `properties`,
/// `patternProperties` and `additionalProperties`).
class Keyword {
    /// The keyword as written (for violations).
    let name: String
    /// Absolute keyword location.
    let location: String

    init(name: String, location: String) {
        self.name = name
        self.location = location
    }

    /// True when `instance` satisfies the keyword. In detailed mode, records violations on `c`.
    func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool { true }

    var subschemas: [SchemaNode] { [] }
}
