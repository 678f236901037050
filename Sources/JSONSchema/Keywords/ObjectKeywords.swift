import WebMap

// Keywords about objects: properties / patternProperties / additionalProperties (evaluated together, in one
// pass over the members), required, dependentRequired, dependentSchemas, propertyNames, min/maxProperties,
// unevaluatedProperties.

/// `properties`, `patternProperties` and `additionalProperties` of one schema.
final class MembersKeyword: Keyword {
    /// Declared property names and their schemas, in schema order.
    let declared: [String]
    let nodes: [NodeRef]
    let index: KeyIndex
    let patterns: [(regex: ECMARegex, node: NodeRef)]
    let additional: NodeRef?
    let propertiesLocation: String
    let patternPropertiesLocation: String
    let additionalLocation: String
    let additionalName: String

    init(properties: [(String, SchemaNode)], patterns: [(ECMARegex, SchemaNode)], additional: SchemaNode?,
         propertiesLocation: String, patternPropertiesLocation: String, additionalLocation: String) {
        declared = properties.map(\.0)
        nodes = properties.map { NodeRef($0.1) }
        index = KeyIndex(declared)
        self.patterns = patterns.map { ($0.0, NodeRef($0.1)) }
        self.additional = additional.map(NodeRef.init)
        self.propertiesLocation = propertiesLocation
        self.patternPropertiesLocation = patternPropertiesLocation
        self.additionalLocation = additionalLocation
        additionalName = "additionalProperties"
        super.init(name: properties.isEmpty ? (patterns.isEmpty ? "additionalProperties" : "patternProperties") : "properties",
                   location: propertiesLocation)
    }

    /// The schema of declared property `key`.
    func node(for key: String) -> SchemaNode? {
        index.find(key).map { nodes[$0].node }
    }

    override var subschemas: [SchemaNode] { nodes.map(\.node) + patterns.map(\.node.node) + (additional.map { [$0.node] } ?? []) }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        if patterns.isEmpty && additional == nil && evaluated == nil && !c.deduplicate {
            return validateDeclared(object, c)
        }
        let members = c.members(object)
        let count = members.count
        var valid = true
        for index in 0..<count {
            let member = members[index]
            var matched = false
            if let found = self.index.find(member.key) {
                matched = true
                let pushed = c.enter(.key(member.key))
                let ok = nodes[found].validate(member.value, c, nil)
                c.leave(pushed)
                if !ok {
                    valid = false
                    if !c.detailed { return false }
                }
            }
            if !patterns.isEmpty {
                for (regex, ref) in patterns {
                    switch regex.match(member.key) {
                    case .matched: break
                    case .notMatched: continue
                    case .gaveUp(let steps):
                        // No answer is not a match nor a miss: the member is refused, with the reason.
                        c.reportGaveUp(keyword: "patternProperties", location: patternPropertiesLocation, offset: member.keyOffset,
                                       regex: regex, steps: steps, text: member.key, extra: .key(member.key))
                        matched = true
                        valid = false
                        if !c.detailed { return false }
                        continue
                    }
                    matched = true
                    let pushed = c.enter(.key(member.key))
                    let ok = ref.validate(member.value, c, nil)
                    c.leave(pushed)
                    if !ok {
                        valid = false
                        if !c.detailed { return false }
                    }
                }
            }
            if !matched, let additional {
                matched = true
                if additional.node.isAlwaysFalse {
                    valid = false
                    if !c.detailed { return false }
                    reportNotAllowed(member, object: object, c)
                } else {
                    let pushed = c.enter(.key(member.key))
                    let ok = additional.validate(member.value, c, nil)
                    c.leave(pushed)
                    if !ok {
                        valid = false
                        if !c.detailed { return false }
                    }
                }
            }
            if matched, let evaluated { evaluated.markProperty(index, of: count) }
        }
        return valid
    }

    /// Declared properties and nothing else, no annotations to collect, no repeated keys: each member is looked
    /// up among the declared names (by length, then one comparison), in document order.
    private func validateDeclared(_ object: JSONObject, _ c: ValidationContext) -> Bool {
        object.members.withUnsafeBufferPointer { members in
            var valid = true
            for j in 0..<members.count {
                guard let i = index.find(members[j].key), !nodes[i].acceptsByType(members[j].value.value) else { continue }
                let pushed = c.enter(.key(members[j].key))
                let ok = nodes[i].validate(members[j].value, c, nil)
                c.leave(pushed)
                if !ok {
                    valid = false
                    if !c.detailed { return false }
                }
            }
            return valid
        }
    }

    private func reportNotAllowed(_ member: JSONMember, object: JSONObject, _ c: ValidationContext) {
        let absent = declared.filter { object[$0] == nil }
        var message = "\(c.subject) has property '\(member.key)', which is not allowed here."
        if let suggestion = EditDistance.closest(to: member.key, in: absent.isEmpty ? declared : absent) {
            message += " Did you mean '\(suggestion)'?"
        } else if !declared.isEmpty && declared.count <= 12 {
            message += " Allowed: \(Describe.list(declared))."
        }
        c.report(keyword: additionalName, location: additionalLocation, offset: member.keyOffset,
                 expected: declared.isEmpty ? "no properties" : "only " + Describe.list(declared),
                 found: "'\(member.key)'", message: message, extra: .key(member.key))
    }
}

final class RequiredKeyword: Keyword {
    let names: [String]

    init(names: [String], location: String) {
        self.names = names
        super.init(name: "required", location: location)
    }

    @inline(__always)
    static func has(_ object: JSONObject, _ key: String) -> Bool {
        let length = key.utf8.count
        return object.members.withUnsafeBufferPointer { members in
            for i in 0..<members.count where members[i].key.utf8.count == length && members[i].key == key { return true }
            return false
        }
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        var valid = true
        for name in names where !Self.has(object, name) {
            valid = false
            if !c.detailed { return false }
            var message = "\(c.subject) is missing required property '\(name)'."
            let present = object.members.map(\.key).filter { !names.contains($0) }
            if let typo = EditDistance.closest(to: name, in: present) {
                message += " It has '\(typo)': is that a misspelling?"
            }
            c.report(keyword: self.name, location: location, offset: instance.offset,
                     expected: "property '\(name)'", found: "no '\(name)'", message: message)
        }
        return valid
    }
}

final class DependentRequiredKeyword: Keyword {
    let dependencies: [(String, [String])]

    init(name: String, dependencies: [(String, [String])], location: String) {
        self.dependencies = dependencies
        super.init(name: name, location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        var valid = true
        for (trigger, required) in dependencies where RequiredKeyword.has(object, trigger) {
            for name in required where !RequiredKeyword.has(object, name) {
                valid = false
                if !c.detailed { return false }
                c.report(keyword: self.name, location: location, offset: instance.offset,
                         expected: "property '\(name)' (because '\(trigger)' is present)", found: "no '\(name)'",
                         message: "\(c.subject) has '\(trigger)', so it must also have '\(name)'.")
            }
        }
        return valid
    }
}

final class DependentSchemasKeyword: Keyword {
    let dependencies: [(String, NodeRef)]

    init(name: String, dependencies: [(String, SchemaNode)], location: String) {
        self.dependencies = dependencies.map { ($0.0, NodeRef($0.1)) }
        super.init(name: name, location: location)
    }

    override var subschemas: [SchemaNode] { dependencies.map(\.1.node) }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        var valid = true
        for (trigger, ref) in dependencies where RequiredKeyword.has(object, trigger) {
            if !ref.validate(instance, c, evaluated) {
                valid = false
                if !c.detailed { return false }
            }
        }
        return valid
    }
}

final class PropertyNamesKeyword: Keyword {
    let node: NodeRef

    init(node: SchemaNode, location: String) {
        self.node = NodeRef(node)
        super.init(name: "propertyNames", location: location)
    }

    override var subschemas: [SchemaNode] { [node.node] }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        var valid = true
        for member in object.members {
            let pushed = c.enter(.key(member.key))
            let ok = node.validate(JSONNode(.string(member.key), offset: member.keyOffset), c, nil)
            c.leave(pushed)
            if !ok {
                valid = false
                if !c.detailed { return false }
            }
        }
        return valid
    }
}

final class PropertyCountKeyword: Keyword {
    let minimum: Int?
    let maximum: Int?

    init(name: String, minimum: Int?, maximum: Int?, location: String) {
        self.minimum = minimum
        self.maximum = maximum
        super.init(name: name, location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        let count = c.members(object).count
        if let minimum, count < minimum {
            if c.detailed {
                let expected = "at least \(Describe.plural(minimum, "property"))".replacingOccurrences(of: "propertys", with: "properties")
                c.report(keyword: name, location: location, offset: instance.offset, expected: expected, found: "\(count)",
                         message: "\(c.subject) must have \(expected) — found \(count).")
            }
            return false
        }
        if let maximum, count > maximum {
            if c.detailed {
                let expected = "at most \(Describe.plural(maximum, "property"))".replacingOccurrences(of: "propertys", with: "properties")
                c.report(keyword: name, location: location, offset: instance.offset, expected: expected, found: "\(count)",
                         message: "\(c.subject) must have \(expected) — found \(count).")
            }
            return false
        }
        return true
    }
}

final class UnevaluatedPropertiesKeyword: Keyword {
    let node: NodeRef

    init(node: SchemaNode, location: String) {
        self.node = NodeRef(node)
        super.init(name: "unevaluatedProperties", location: location)
    }

    override var subschemas: [SchemaNode] { [node.node] }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        let members = c.members(object)
        var valid = true
        for (index, member) in members.enumerated() where !(evaluated?.isPropertyEvaluated(index) ?? false) {
            if node.node.isAlwaysFalse {
                valid = false
                if !c.detailed { return false }
                c.report(keyword: name, location: location, offset: member.keyOffset, expected: "no other properties",
                         found: "'\(member.key)'",
                         message: "\(c.subject) has property '\(member.key)', which is not allowed here (no keyword of the schema declares it).",
                         extra: .key(member.key))
                continue
            }
            let pushed = c.enter(.key(member.key))
            let ok = node.validate(member.value, c, nil)
            c.leave(pushed)
            if !ok {
                valid = false
                if !c.detailed { return false }
            }
        }
        if valid { evaluated?.markAllProperties() }
        return valid
    }
}

/// Finds a key among a fixed set of strings without hashing it: the keys of the same length in UTF-8 (most keys
/// of a schema differ in length), then an exact comparison. Cheaper than `Dictionary<String, _>` for the short
/// keys JSON objects have. A key is found when it is `==` to one of the set and as long: the test `required`
/// and `properties` have always made.
struct KeyIndex {
    private let keys: [String]
    /// `order[starts[n] ..< starts[n + 1]]`: the indices (in `keys`) of the keys of `n` UTF-8 bytes.
    private let starts: [Int32]
    private let order: [Int32]

    init(_ keys: [String]) {
        self.keys = keys
        let longest = keys.map(\.utf8.count).max() ?? -1
        var starts = [Int32](repeating: 0, count: longest + 2)
        var order: [Int32] = []
        for length in 0..<(longest + 1) {
            starts[length] = Int32(order.count)
            for (i, key) in keys.enumerated() where key.utf8.count == length { order.append(Int32(i)) }
        }
        starts[longest + 1] = Int32(order.count)
        self.starts = starts
        self.order = order
    }

    /// The index of `key` in the set, or nil.
    @inline(__always)
    func find(_ key: String) -> Int? {
        let length = key.utf8.count
        guard length + 1 < starts.count else { return nil }
        var i = Int(starts[length])
        let end = Int(starts[length + 1])
        while i < end {
            let candidate = Int(order[i])
            if keys[candidate] == key { return candidate }
            i += 1
        }
        return nil
    }
}
