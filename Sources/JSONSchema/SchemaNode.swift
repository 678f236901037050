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
    private let reference: Unmanaged<SchemaNode>
    init(_ node: SchemaNode) { reference = Unmanaged.passUnretained(node) }

    var node: SchemaNode { reference.takeUnretainedValue() }

    /// True when the target schema accepts `value` by its type alone (see `SchemaNode.typeMask`).
    @inline(__always)
    func acceptsByType(_ value: JSONValue) -> Bool {
        let mask = reference._withUnsafeGuaranteedRef { $0.typeMask }
        return mask != 0 && TypeSet(rawValue: mask).allows(value)
    }

    /// Validates without retaining the node (the hot path).
    @inline(__always)
    func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        reference._withUnsafeGuaranteedRef { $0.validate(instance, c, evaluated) }
    }
}

/// One compiled schema (object or boolean): its keywords, sorted by the instance types they apply to so that a
/// value only meets the keywords that can say something about it.
final class SchemaNode: @unchecked Sendable {
    /// `true` / `false` schemas (and an empty object, which is `true`).
    var isAlwaysTrue = false
    var isAlwaysFalse = false
    /// When the schema is only a `type` keyword: the allowed types (a valid value needs nothing else).
    private(set) var onlyTypes: UInt8 = 0
    /// When the schema is only a `$ref` (to a schema that is not itself a chain of references back here): the
    /// schema it stands for, validated directly.
    private var forward: Unmanaged<SchemaNode>?
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

    /// The keywords again, as non-owning references in an immutable object, for the validation loop: reading
    /// them costs no reference counting.
    private var programOwner = KeywordProgram.empty
    private var program = Unmanaged.passUnretained(KeywordProgram.empty)

    /// True when `instance` passes by its type alone (the node is only a `type` keyword); false means "validate".
    @inline(__always)
    var typeMask: UInt8 { onlyTypes }

    /// Called once every node of a compilation exists: a node that is only a `$ref` forwards to its target.
    func linkForward() {
        guard common.count == 1, object.isEmpty, array.isEmpty, string.isEmpty, number.isEmpty, unevaluated.isEmpty,
              let ref = common[0] as? RefKeyword, ref.name == "$ref", let first = ref.target?.node else { return }
        var target = first
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        while target.common.count == 1, target.object.isEmpty, target.array.isEmpty, target.string.isEmpty,
              target.number.isEmpty, target.unevaluated.isEmpty, let next = (target.common[0] as? RefKeyword)?.target?.node {
            guard seen.insert(ObjectIdentifier(target)).inserted else { return }
            target = next
        }
        guard !seen.contains(ObjectIdentifier(target)) else { return }
        forward = Unmanaged.passUnretained(target)
    }

    /// The schema this one forwards to (it is only a `$ref`), once linked.
    var forwardTarget: SchemaNode? { forward?.takeUnretainedValue() }

    /// The node's only keyword, when it has exactly one and validating the node comes down to calling it.
    var soleKeyword: Keyword? {
        guard forward == nil, !isAlwaysTrue, !isAlwaysFalse, common.count == 1, object.isEmpty, array.isEmpty,
              string.isEmpty, number.isEmpty, unevaluated.isEmpty else { return nil }
        return common[0]
    }

    /// Called once every node of a compilation exists and is forwarded: keywords that plan ahead from the
    /// schemas below them (`AllOfKeyword`'s dispatch on a property) make their plans.
    func linkKeywords() {
        for keyword in allKeywords {
            (keyword as? AllOfKeyword)?.link()
        }
    }

    /// Called once the keyword lists are final.
    func seal() {
        if common.count == 1, object.isEmpty, array.isEmpty, string.isEmpty, number.isEmpty, unevaluated.isEmpty,
           let type = common[0] as? TypeKeyword {
            onlyTypes = type.types.rawValue
        }
        programOwner = KeywordProgram(common: common, object: object, array: array, string: string, number: number,
                                      unevaluated: unevaluated)
        program = Unmanaged.passUnretained(programOwner)
    }

    /// Validates `instance`; `evaluated` (when a parent tracks annotations) receives the properties and items
    /// this schema evaluated, if it succeeds.
    func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if onlyTypes != 0 && TypeSet(rawValue: onlyTypes).allows(instance.value) { return true }
        if let forward, !c.trackScope {
            // A schema that is only a `$ref` forwards without its keyword, so the cycle check is made here too:
            // `{"allOf": [{"$ref": "#"}]}` recursed until the stack overflowed.
            c.depth += 1
            defer { c.depth -= 1 }
            if c.tooDeep {
                c.reportCycle(keyword: "$ref", location: location, offset: instance.offset)
                return false
            }
            return forward._withUnsafeGuaranteedRef { $0.validate(instance, c, evaluated) }
        }
        if isAlwaysTrue { return true }
        if isAlwaysFalse {
            if c.detailed {
                c.report(keyword: "false", location: location, offset: instance.offset, expected: "nothing (the schema is false)",
                         found: Describe.found(instance.value), message: "\(c.subject) is not allowed here.")
            }
            return false
        }
        if c.trackScope && c.scope.last !== resource {
            c.scope.append(resource)
            defer { c.scope.removeLast() }
            return program._withUnsafeGuaranteedRef { $0.run(instance, c, evaluated) }
        }
        return program._withUnsafeGuaranteedRef { $0.run(instance, c, evaluated) }
    }

    /// Every keyword, for analysis (best-branch selection, dynamic-scope detection).
    var allKeywords: [Keyword] { common + object + array + string + number + unevaluated }

    /// The subschemas this schema applies in place or to members/items.
    var children: [SchemaNode] { allKeywords.flatMap { $0.subschemas } }
}

/// A non-owning reference to a keyword (owned by its node's keyword lists).
struct KeywordRef {
    private let reference: Unmanaged<Keyword>
    init(_ keyword: Keyword) { reference = Unmanaged.passUnretained(keyword) }

    @inline(__always)
    func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        reference._withUnsafeGuaranteedRef { $0.validate(instance, c, evaluated) }
    }
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

/// A node's keywords, sorted by the instance types they apply to, frozen for validation.
final class KeywordProgram {
    let common: [KeywordRef]
    let object: [KeywordRef]
    let array: [KeywordRef]
    let string: [KeywordRef]
    let number: [KeywordRef]
    let unevaluated: [KeywordRef]
    let tracksEvaluation: Bool
    /// The types allowed by a `type` keyword that comes first in `common` (0 when there is none): checked here,
    /// the keyword is only called (to report) when the value is not one of them.
    let leadingTypes: UInt8

    static let empty = KeywordProgram(common: [], object: [], array: [], string: [], number: [], unevaluated: [])

    init(common: [Keyword], object: [Keyword], array: [Keyword], string: [Keyword], number: [Keyword], unevaluated: [Keyword]) {
        self.common = common.map(KeywordRef.init)
        self.object = object.map(KeywordRef.init)
        self.array = array.map(KeywordRef.init)
        self.string = string.map(KeywordRef.init)
        self.number = number.map(KeywordRef.init)
        self.unevaluated = unevaluated.map(KeywordRef.init)
        tracksEvaluation = !unevaluated.isEmpty
        leadingTypes = (common.first as? TypeKeyword)?.types.rawValue ?? 0
    }

    @inline(__always)
    func run(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if tracksEvaluation { return runTracking(instance, c, evaluated) }
        var valid = true
        return runAssertions(instance, c, evaluated, &valid) && valid
    }

    /// With `unevaluatedProperties` / `unevaluatedItems`: the other keywords' annotations are collected first.
    private func runTracking(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        let own = Evaluated()
        var valid = true
        if !runAssertions(instance, c, own, &valid) { return false }
        if !Self.run(unevaluated, instance, c, own, &valid) { return false }
        if valid, let evaluated { evaluated.merge(own) }
        return valid
    }

    /// The keywords for any value, then those for the value's type; false when validation should stop.
    @inline(__always)
    private func runAssertions(_ instance: JSONNode, _ c: ValidationContext, _ own: Evaluated?, _ valid: inout Bool) -> Bool {
        let skip = leadingTypes != 0 && TypeSet(rawValue: leadingTypes).allows(instance.value) ? 1 : 0
        if !Self.run(common, from: skip, instance, c, own, &valid) { return false }
        switch instance.value {
        case .object: return Self.run(object, instance, c, own, &valid)
        case .array: return Self.run(array, instance, c, own, &valid)
        case .string: return Self.run(string, instance, c, own, &valid)
        case .number: return Self.run(number, instance, c, own, &valid)
        default: return true
        }
    }

    /// Runs `keywords`; false when validation should stop (fast mode and a failure), `valid` cleared on failure.
    @inline(__always)
    private static func run(_ keywords: [KeywordRef], from start: Int = 0, _ instance: JSONNode, _ c: ValidationContext,
                            _ own: Evaluated?, _ valid: inout Bool) -> Bool {
        for i in start..<keywords.count where !keywords[i].validate(instance, c, own) {
            valid = false
            if !c.detailed { return false }
        }
        return true
    }
}
