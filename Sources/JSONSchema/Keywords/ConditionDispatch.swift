import WebMap

// `allOf` of `if` / `then` branches that test one property, the way schemas dispatch on a discriminator:
//
//   "allOf": [{"if": {"properties": {"layerType": {"const": "GroupLayer"}}, "required": ["layerType"]},
//              "then": {"$ref": "#/$defs/groupLayer"}}, ...]
//
// Validated as written, each branch runs a whole schema to decide its condition: a node, its `required`
// (a scan of the members), its `properties` (another scan), the property's node and its `const`. A layer of a
// web map met ten such conditions, a pop-up element six. Here the property is found once for all the branches
// and each condition is its value test alone. The outcome, violations and their order are those of the
// branches validated one by one: the same `then` / `else` schemas run, in the same order, on the same value.

/// What one `if` schema asks of an object: that property `key` (if present, or always when `required`) passes
/// a test. Recognised only in schemas that say nothing else, so the test is the whole condition.
struct PropertyCondition {
    /// The property's name: read once by `ConditionDispatch` (a step copied in the loop holds no string).
    static func key(of condition: SchemaNode) -> String? {
        (condition.forwardTarget ?? condition).object.last.flatMap { ($0 as? MembersKeyword)?.declared.first }
    }

    let required: Bool
    /// The condition was reached through a bare `$ref`, which counts one level of nesting (`ValidationContext.depth`).
    let throughReference: Bool
    /// The property's schema, and its single keyword when it has one (called directly, with the same result).
    let node: NodeRef
    let keyword: KeywordRef?

    /// Recognises `{"properties": {K: S}}` and `{"properties": {K: S}, "required": [K]}`, possibly behind a `$ref`.
    init?(_ condition: SchemaNode) {
        var node = condition
        throughReference = node.forwardTarget != nil
        if let target = node.forwardTarget { node = target }
        guard !node.isAlwaysTrue, !node.isAlwaysFalse, node.typeMask == 0, node.forwardTarget == nil,
              node.common.isEmpty, node.array.isEmpty, node.string.isEmpty, node.number.isEmpty,
              node.unevaluated.isEmpty, (1...2).contains(node.object.count),
              let members = node.object.last as? MembersKeyword,
              members.declared.count == 1, members.patterns.isEmpty, members.additional == nil else { return nil }
        if node.object.count == 2 {
            guard let required = node.object[0] as? RequiredKeyword, required.names == members.declared else { return nil }
            self.required = true
        } else {
            required = false
        }
        let property = members.nodes[0]
        self.node = property
        keyword = property.node.soleKeyword.map(KeywordRef.init)
    }

    /// The condition's result for an object whose last member named `key` has `value` (nil when there is none),
    /// as validating the `if` schema quietly would give it.
    @inline(__always)
    func holds(_ value: JSONNode?, _ c: ValidationContext) -> Bool {
        if throughReference {
            c.depth += 1
            defer { c.depth -= 1 }
            if c.tooDeep { return false }
            return test(value, c)
        }
        return test(value, c)
    }

    @inline(__always)
    private func test(_ value: JSONNode?, _ c: ValidationContext) -> Bool {
        guard let value else { return !required }
        if let keyword { return c.quietly { keyword.validate(value, c, nil) } }
        return c.quietly { node.validate(value, c, nil) }
    }
}

/// An `allOf` whose branches (all, or all but some that are validated as they are) are `if` / `then` / `else`
/// schemas with a `PropertyCondition` on one key.
final class ConditionDispatch {
    enum Step {
        /// A branch validated as it stands.
        case branch(NodeRef)
        case conditional(PropertyCondition, then: NodeRef?, otherwise: NodeRef?)
    }

    let key: String
    let steps: [Step]

    /// Nil unless at least two branches are conditions on the same property and no other branch is a condition.
    init?(branches: [NodeRef]) {
        var key: String?
        var conditions = 0
        var steps: [Step] = []
        for branch in branches {
            let node = branch.node
            guard node.forwardTarget == nil, node.typeMask == 0, !node.isAlwaysTrue, !node.isAlwaysFalse,
                  node.common.count == 1, node.object.isEmpty, node.array.isEmpty, node.string.isEmpty,
                  node.number.isEmpty, node.unevaluated.isEmpty,
                  let conditional = node.common[0] as? ConditionalKeyword else {
                steps.append(.branch(branch))
                continue
            }
            guard let condition = PropertyCondition(conditional.condition.node),
                  let conditionKey = PropertyCondition.key(of: conditional.condition.node), key == nil || key == conditionKey else {
                return nil
            }
            key = conditionKey
            conditions += 1
            steps.append(.conditional(condition, then: conditional.then, otherwise: conditional.otherwise))
        }
        guard let key, conditions >= 2 else { return nil }
        self.key = key
        self.steps = steps
    }

    /// Validates an object in a run that tracks neither annotations nor the dynamic scope and whose document has
    /// no repeated keys (`AllOfKeyword` checks).
    func validate(_ instance: JSONNode, _ object: JSONObject, _ c: ValidationContext) -> Bool {
        // The last member of that name, what `properties` validates when keys repeat.
        let value = object[key]
        var valid = true
        for step in steps {
            let ok: Bool
            switch step {
            case .branch(let branch):
                ok = branch.validate(instance, c, nil)
            case .conditional(let condition, let then, let otherwise):
                if condition.holds(value, c) {
                    ok = then?.validate(instance, c, nil) ?? true
                } else {
                    ok = otherwise?.validate(instance, c, nil) ?? true
                }
            }
            if !ok {
                valid = false
                if !c.detailed { return false }
            }
        }
        return valid
    }
}
