import WebMap

// Keywords about objects: properties / patternProperties / additionalProperties (evaluated together, in one
// pass over the members), required, dependentRequired, dependentSchemas, propertyNames, min/maxProperties,
// unevaluatedProperties.

/// `properties`, `patternProperties` and `additionalProperties` of one schema.
final class MembersKeyword: Keyword {
    let properties: [String: NodeRef]
    /// Declared property names, in schema order (for "did you mean").
    let declared: [String]
    let patterns: [(regex: ECMARegex, node: NodeRef)]
    let additional: NodeRef?
    let propertiesLocation: String
    let patternPropertiesLocation: String
    let additionalLocation: String
    let additionalName: String

    init(properties: [(String, SchemaNode)], patterns: [(ECMARegex, SchemaNode)], additional: SchemaNode?,
         propertiesLocation: String, patternPropertiesLocation: String, additionalLocation: String) {
        var map: [String: NodeRef] = [:]
        for (name, node) in properties { map[name] = NodeRef(node) }
        self.properties = map
        declared = properties.map(\.0)
        self.patterns = patterns.map { ($0.0, NodeRef($0.1)) }
        self.additional = additional.map(NodeRef.init)
        self.propertiesLocation = propertiesLocation
        self.patternPropertiesLocation = patternPropertiesLocation
        self.additionalLocation = additionalLocation
        additionalName = "additionalProperties"
        super.init(name: properties.isEmpty ? (patterns.isEmpty ? "additionalProperties" : "patternProperties") : "properties",
                   location: propertiesLocation)
    }

    override var subschemas: [SchemaNode] {
        declared.compactMap { properties[$0]?.node } + patterns.map(\.node.node) + (additional.map { [$0.node] } ?? [])
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .object(let object) = instance.value else { return true }
        let members = c.members(object)
        let count = members.count
        var valid = true
        for index in 0..<count {
            let member = members[index]
            var matched = false
            if let ref = properties[member.key] {
                matched = true
                let pushed = c.enter(.key(member.key))
                let ok = ref.node.validate(member.value, c, nil)
                c.leave(pushed)
                if !ok {
                    valid = false
                    if !c.detailed { return false }
                }
            }
            if !patterns.isEmpty {
                for (regex, ref) in patterns where regex.matches(member.key) {
                    matched = true
                    let pushed = c.enter(.key(member.key))
                    let ok = ref.node.validate(member.value, c, nil)
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
                    let ok = additional.node.validate(member.value, c, nil)
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
        for member in object.members where member.key == key { return true }
        return false
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
            if !ref.node.validate(instance, c, evaluated) {
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
            let ok = node.node.validate(JSONNode(.string(member.key), offset: member.keyOffset), c, nil)
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
            let ok = node.node.validate(member.value, c, nil)
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
