import WebMap

// Keywords about arrays: prefixItems / items (2020-12) and items / additionalItems (draft-07) evaluated
// together, contains with minContains / maxContains, minItems / maxItems, uniqueItems, unevaluatedItems.

final class ItemsKeyword: Keyword {
    let prefix: [NodeRef]
    /// The schema of every item after the prefix (nil: no constraint).
    let rest: NodeRef?
    let prefixName: String
    let prefixLocation: String
    let restName: String
    let restLocation: String

    init(prefix: [SchemaNode], prefixName: String, prefixLocation: String, rest: SchemaNode?, restName: String, restLocation: String) {
        self.prefix = prefix.map(NodeRef.init)
        self.rest = rest.map(NodeRef.init)
        self.prefixName = prefixName
        self.prefixLocation = prefixLocation
        self.restName = restName
        self.restLocation = restLocation
        super.init(name: prefix.isEmpty ? restName : prefixName, location: prefix.isEmpty ? restLocation : prefixLocation)
    }

    override var subschemas: [SchemaNode] { prefix.map(\.node) + (rest.map { [$0.node] } ?? []) }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .array(let elements) = instance.value else { return true }
        let count = elements.count
        var valid = true
        if let rest, rest.node.isAlwaysFalse, count > prefix.count {
            valid = false
            if !c.detailed { return false }
            let allowed = prefix.count
            c.report(keyword: restName, location: restLocation, offset: elements[allowed].offset,
                     expected: "at most \(Describe.plural(allowed, "item"))", found: "\(count) items",
                     message: "\(c.subject) must have at most \(Describe.plural(allowed, "item")) — found \(count).",
                     extra: .index(allowed))
        }
        let limit = rest == nil || rest!.node.isAlwaysFalse ? min(prefix.count, count) : count
        let completed = elements.withUnsafeBufferPointer { buffer -> Bool in
            for index in 0..<limit {
                let ref = index < prefix.count ? prefix[index] : rest!
                if ref.acceptsByType(buffer[index].value) { continue }
                let pushed = c.enter(.index(index))
                let ok = ref.validate(buffer[index], c, nil)
                c.leave(pushed)
                if !ok {
                    valid = false
                    if !c.detailed { return false }
                }
            }
            return true
        }
        if !completed { return false }
        if let evaluated {
            if rest != nil { evaluated.markAllItems() } else { evaluated.markItems(upTo: prefix.count, of: count) }
        }
        return valid
    }
}

final class ContainsKeyword: Keyword {
    let node: NodeRef
    let minimum: Int
    let maximum: Int?
    /// True in 2020-12, where matched items count as evaluated for `unevaluatedItems`.
    let annotates: Bool

    init(node: SchemaNode, minimum: Int, maximum: Int?, annotates: Bool, location: String) {
        self.node = NodeRef(node)
        self.minimum = minimum
        self.maximum = maximum
        self.annotates = annotates
        super.init(name: "contains", location: location)
    }

    override var subschemas: [SchemaNode] { [node.node] }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .array(let elements) = instance.value else { return true }
        let mustCountAll = maximum != nil || (evaluated != nil && annotates)
        var matches = 0
        c.quietly {
            for (index, element) in elements.enumerated() where node.validate(element, c, nil) {
                matches += 1
                if annotates { evaluated?.markItem(index, of: elements.count) }
                if !mustCountAll && matches >= minimum { break }
            }
        }
        if matches < minimum {
            if c.detailed {
                let expected = "at least \(Describe.plural(minimum, "item")) matching the 'contains' schema"
                c.report(keyword: minimum == 1 ? name : "minContains", location: location, offset: instance.offset,
                         expected: expected, found: "\(matches)",
                         message: "\(c.subject) must contain \(expected) (\(node.node.location)) — found \(matches).")
            }
            return false
        }
        if let maximum, matches > maximum {
            if c.detailed {
                let expected = "at most \(Describe.plural(maximum, "item")) matching the 'contains' schema"
                c.report(keyword: "maxContains", location: location, offset: instance.offset, expected: expected,
                         found: "\(matches)", message: "\(c.subject) must contain \(expected) — found \(matches).")
            }
            return false
        }
        return true
    }
}

final class ItemCountKeyword: Keyword {
    let minimum: Int?
    let maximum: Int?

    init(name: String, minimum: Int?, maximum: Int?, location: String) {
        self.minimum = minimum
        self.maximum = maximum
        super.init(name: name, location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .array(let elements) = instance.value else { return true }
        if let minimum, elements.count < minimum {
            if c.detailed {
                let expected = "at least \(Describe.plural(minimum, "item"))"
                c.report(keyword: name, location: location, offset: instance.offset, expected: expected, found: "\(elements.count)",
                         message: "\(c.subject) must have \(expected) — found \(elements.count).")
            }
            return false
        }
        if let maximum, elements.count > maximum {
            if c.detailed {
                let expected = "at most \(Describe.plural(maximum, "item"))"
                c.report(keyword: name, location: location, offset: instance.offset, expected: expected, found: "\(elements.count)",
                         message: "\(c.subject) must have \(expected) — found \(elements.count).")
            }
            return false
        }
        return true
    }
}

final class UniqueItemsKeyword: Keyword {
    init(location: String) { super.init(name: "uniqueItems", location: location) }

    /// The first pair of equal items, if any.
    static func firstRepeat(_ elements: [JSONNode]) -> (Int, Int)? {
        if elements.count < 2 { return nil }
        if elements.count <= 16 {
            for i in 0..<elements.count {
                for j in (i + 1)..<elements.count where JSONEquality.equal(elements[i].value, elements[j].value) { return (i, j) }
            }
            return nil
        }
        var seen: [HashableJSON: Int] = [:]
        for (index, element) in elements.enumerated() {
            if let first = seen.updateValue(index, forKey: HashableJSON(value: element.value)) { return (first, index) }
        }
        return nil
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .array(let elements) = instance.value else { return true }
        guard let (first, second) = Self.firstRepeat(elements) else { return true }
        if c.detailed {
            c.report(keyword: name, location: location, offset: elements[second].offset, expected: "no repeated items",
                     found: "items \(first) and \(second) are equal",
                     message: "\(c.subject) must not repeat items — item \(second) equals item \(first) (\(Describe.found(elements[second].value))).",
                     extra: .index(second))
        }
        return false
    }
}

final class UnevaluatedItemsKeyword: Keyword {
    let node: NodeRef

    init(node: SchemaNode, location: String) {
        self.node = NodeRef(node)
        super.init(name: "unevaluatedItems", location: location)
    }

    override var subschemas: [SchemaNode] { [node.node] }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .array(let elements) = instance.value else { return true }
        var valid = true
        for (index, element) in elements.enumerated() where !(evaluated?.isItemEvaluated(index) ?? false) {
            if node.node.isAlwaysFalse {
                valid = false
                if !c.detailed { return false }
                c.report(keyword: name, location: location, offset: element.offset, expected: "no further items",
                         found: Describe.found(element.value),
                         message: "\(c.subject) has item \(index), which is not allowed here (no keyword of the schema covers it).",
                         extra: .index(index))
                continue
            }
            let pushed = c.enter(.index(index))
            let ok = node.validate(element, c, nil)
            c.leave(pushed)
            if !ok {
                valid = false
                if !c.detailed { return false }
            }
        }
        if valid { evaluated?.markAllItems() }
        return valid
    }
}
