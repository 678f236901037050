import WebMap

// In-place applicators: $ref, $dynamicRef, allOf, anyOf, oneOf, not, if / then / else.

final class RefKeyword: Keyword {
    /// Set once the target is compiled (references may be cyclic).
    var target: NodeRef!

    override init(name: String, location: String) { super.init(name: name, location: location) }

    override var subschemas: [SchemaNode] { target.map { [$0.node] } ?? [] }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        c.depth += 1
        defer { c.depth -= 1 }
        if c.tooDeep {
            c.reportCycle(keyword: name, location: location, offset: instance.offset)
            return false
        }
        return target.validate(instance, c, evaluated)
    }
}

final class DynamicRefKeyword: Keyword {
    /// Where the reference points statically.
    var target: NodeRef!
    /// The `$dynamicAnchor` name to look up through the dynamic scope, when the static target is one.
    var anchor: String?

    init(location: String) { super.init(name: "$dynamicRef", location: location) }

    override var subschemas: [SchemaNode] { target.map { [$0.node] } ?? [] }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        var node = target.node
        if let anchor {
            for resource in c.scope {
                if let found = resource.dynamicAnchors[anchor] {
                    node = found.node
                    break
                }
            }
        }
        c.depth += 1
        defer { c.depth -= 1 }
        if c.tooDeep {
            c.reportCycle(keyword: name, location: location, offset: instance.offset)
            return false
        }
        return node.validate(instance, c, evaluated)
    }
}

final class AllOfKeyword: Keyword {
    let branches: [NodeRef]
    /// Set when linking, when the branches dispatch on one property (see `ConditionDispatch`).
    private var dispatchOwner: ConditionDispatch?
    private var dispatch: Unmanaged<ConditionDispatch>?

    func link() {
        dispatchOwner = ConditionDispatch(branches: branches)
        dispatch = dispatchOwner.map { Unmanaged.passUnretained($0) }
    }

    init(branches: [SchemaNode], location: String) {
        self.branches = branches.map(NodeRef.init)
        super.init(name: "allOf", location: location)
    }

    override var subschemas: [SchemaNode] { branches.map(\.node) }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if let dispatch, evaluated == nil, !c.trackScope, !c.deduplicate, case .object(let object) = instance.value {
            return dispatch._withUnsafeGuaranteedRef { $0.validate(instance, object, c) }
        }
        var valid = true
        for branch in branches where !branch.validate(instance, c, evaluated) {
            valid = false
            if !c.detailed { return false }
        }
        return valid
    }
}

final class NotKeyword: Keyword {
    let node: NodeRef

    init(node: SchemaNode, location: String) {
        self.node = NodeRef(node)
        super.init(name: "not", location: location)
    }

    override var subschemas: [SchemaNode] { [node.node] }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        let matched = c.quietly { node.validate(instance, c, nil) }
        if !matched { return true }
        if c.detailed {
            var what = "the schema at \(node.node.location)"
            if let required = node.node.common.compactMap({ $0 as? RequiredKeyword }).first ?? node.node.object.compactMap({ $0 as? RequiredKeyword }).first,
               node.node.allKeywords.count == 1 {
                what = "have " + Describe.alternatives(required.names.map { "'\($0)'" })
                c.report(keyword: name, location: location, offset: instance.offset, expected: "not to " + what,
                         found: Describe.found(instance.value), message: "\(c.subject) must not \(what).")
                return false
            }
            c.report(keyword: name, location: location, offset: instance.offset, expected: "not to match \(what)",
                     found: Describe.found(instance.value), message: "\(c.subject) must not match \(what).")
        }
        return false
    }
}

final class ConditionalKeyword: Keyword {
    let condition: NodeRef
    let then: NodeRef?
    let otherwise: NodeRef?

    init(condition: SchemaNode, then: SchemaNode?, otherwise: SchemaNode?, location: String) {
        self.condition = NodeRef(condition)
        self.then = then.map(NodeRef.init)
        self.otherwise = otherwise.map(NodeRef.init)
        super.init(name: "if", location: location)
    }

    override var subschemas: [SchemaNode] { [condition.node] + (then.map { [$0.node] } ?? []) + (otherwise.map { [$0.node] } ?? []) }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        let conditionEvaluated = evaluated == nil ? nil : Evaluated()
        let holds = c.quietly { condition.validate(instance, c, conditionEvaluated) }
        if holds {
            if let evaluated, let conditionEvaluated { evaluated.merge(conditionEvaluated) }
            return then?.validate(instance, c, evaluated) ?? true
        }
        return otherwise?.validate(instance, c, evaluated) ?? true
    }
}

/// `anyOf` and `oneOf`.
final class AlternativesKeyword: Keyword {
    let branches: [NodeRef]
    let exactlyOne: Bool

    init(name: String, branches: [SchemaNode], location: String) {
        self.branches = branches.map(NodeRef.init)
        exactlyOne = name == "oneOf"
        super.init(name: name, location: location)
    }

    override var subschemas: [SchemaNode] { branches.map(\.node) }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if !exactlyOne && evaluated == nil {
            // anyOf without annotation tracking: the first match decides.
            let any = c.quietly { () -> Bool in
                for branch in branches where branch.validate(instance, c, nil) { return true }
                return false
            }
            if any { return true }
            if c.detailed { BestBranch.explain(self, instance, c) }
            return false
        }
        var matched: [Int] = []
        c.quietly {
            for (index, branch) in branches.enumerated() {
                let branchEvaluated = evaluated == nil ? nil : Evaluated()
                if branch.validate(instance, c, branchEvaluated) {
                    matched.append(index)
                    if let evaluated, let branchEvaluated { evaluated.merge(branchEvaluated) }
                    if exactlyOne && matched.count > 1 && evaluated == nil { break }
                }
            }
        }
        if matched.isEmpty {
            if c.detailed { BestBranch.explain(self, instance, c) }
            return false
        }
        if exactlyOne && matched.count > 1 {
            if c.detailed {
                let which = matched.prefix(2).map { "\($0 + 1)" }.joined(separator: " and ")
                c.report(keyword: name, location: location, offset: instance.offset, expected: "exactly one alternative",
                         found: "\(matched.count) alternatives",
                         message: "\(c.subject) matches more than one alternative of oneOf (alternatives \(which)); it must match exactly one.")
            }
            return false
        }
        return true
    }
}
