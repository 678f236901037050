import WebMap

/// Turns one schema object into the keywords of its `SchemaNode`, compiling subschemas through the registry.
struct KeywordCompiler {
    let registry: SchemaRegistry
    let document: SchemaDocument
    let pointer: [String]
    let info: LocationInfo
    let node: SchemaNode

    private var dialect: Dialect { info.dialect }

    private func location(_ tokens: String...) -> String {
        node.location + tokens.map { "/" + JSONPointer.escape($0) }.joined()
    }

    private func error(_ keyword: String, _ message: String) -> SchemaError {
        SchemaError(location: location(keyword), message: message)
    }

    private func subschema(_ tokens: String...) throws -> SchemaNode {
        try registry.node(document, pointer + tokens)
    }

    mutating func compile(_ json: JSONNode) throws {
        let object: JSONObject
        switch json.value {
        case .bool(let value):
            if value { node.isAlwaysTrue = true } else { node.isAlwaysFalse = true }
            return
        case .object(let o):
            object = o
        default:
            throw SchemaError(location: node.location, message: "a schema must be an object or a boolean, not \(json.typeName)")
        }
        var common: [Keyword] = []
        var objectKeywords: [Keyword] = []
        var arrayKeywords: [Keyword] = []
        var stringKeywords: [Keyword] = []
        var numberKeywords: [Keyword] = []
        var unevaluated: [Keyword] = []

        if dialect.isDraft7, let ref = object["$ref"] {
            // Draft-07: "$ref" overrides every sibling keyword.
            common.append(try reference(ref, name: "$ref"))
            node.common = common
            node.seal()
            return
        }

        // Validation vocabulary.
        if dialect.validation {
            if let type = object["type"] { common.append(try typeKeyword(type)) }
            if let values = object["enum"] {
                guard let array = values.array else { throw error("enum", "must be an array") }
                common.append(EnumKeyword(values: array.map(\.value), location: location("enum")))
            }
            if let value = object["const"] { common.append(ConstKeyword(value: value.value, location: location("const"))) }
            for name in ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"] {
                guard let value = object[name] else { continue }
                if dialect.isDraft4 {
                    // Draft-04: a boolean exclusiveMinimum / exclusiveMaximum makes minimum / maximum strict.
                    if value.bool != nil { continue }
                    let exclusive = name == "minimum" ? "exclusiveMinimum" : (name == "maximum" ? "exclusiveMaximum" : nil)
                    if let exclusive, object[exclusive]?.bool == true, case .number(let limit) = value.value {
                        numberKeywords.append(BoundKeyword(name: exclusive, limit: limit, location: location(exclusive)))
                        continue
                    }
                }
                guard case .number(let limit) = value.value else {
                    // Draft-04's boolean exclusiveMinimum/Maximum are not supported: say so rather than ignore.
                    throw error(name, "must be a number")
                }
                numberKeywords.append(BoundKeyword(name: name, limit: limit, location: location(name)))
            }
            if let value = object["multipleOf"] {
                guard case .number(let divisor) = value.value, divisor.double > 0 else { throw error("multipleOf", "must be a number greater than 0") }
                numberKeywords.append(MultipleOfKeyword(divisor: divisor, location: location("multipleOf")))
            }
            let minLength = try count(object, "minLength"), maxLength = try count(object, "maxLength")
            if minLength != nil || maxLength != nil {
                stringKeywords.append(LengthKeyword(minimum: minLength, maximum: maxLength,
                                                    minimumLocation: location("minLength"), maximumLocation: location("maxLength")))
            }
            if let value = object["pattern"] {
                guard let pattern = value.string else { throw error("pattern", "must be a string") }
                stringKeywords.append(PatternKeyword(regex: try regex(pattern, "pattern"), location: location("pattern")))
            }
            if let minimum = try count(object, "minItems") {
                arrayKeywords.append(ItemCountKeyword(name: "minItems", minimum: minimum, maximum: nil, location: location("minItems")))
            }
            if let maximum = try count(object, "maxItems") {
                arrayKeywords.append(ItemCountKeyword(name: "maxItems", minimum: nil, maximum: maximum, location: location("maxItems")))
            }
            if let unique = object["uniqueItems"] {
                guard let flag = unique.bool else { throw error("uniqueItems", "must be true or false") }
                if flag { arrayKeywords.append(UniqueItemsKeyword(location: location("uniqueItems"))) }
            }
            if let minimum = try count(object, "minProperties") {
                objectKeywords.append(PropertyCountKeyword(name: "minProperties", minimum: minimum, maximum: nil, location: location("minProperties")))
            }
            if let maximum = try count(object, "maxProperties") {
                objectKeywords.append(PropertyCountKeyword(name: "maxProperties", minimum: nil, maximum: maximum, location: location("maxProperties")))
            }
            if let required = object["required"] {
                let names = try strings(required, "required")
                if !names.isEmpty { objectKeywords.insert(RequiredKeyword(names: names, location: location("required")), at: 0) }
            }
            if !dialect.isDraft7, let value = object["dependentRequired"] {
                guard let map = value.object else { throw error("dependentRequired", "must be an object") }
                let dependencies = try map.uniqueMembers.map { ($0.key, try strings($0.value, "dependentRequired")) }
                objectKeywords.append(DependentRequiredKeyword(name: "dependentRequired", dependencies: dependencies,
                                                               location: location("dependentRequired")))
            }
        }

        // Core: references.
        if let ref = object["$ref"] { common.append(try reference(ref, name: "$ref")) }
        if !dialect.isDraft7, let value = object["$dynamicRef"] { common.append(try dynamicReference(value)) }

        // Applicator vocabulary.
        if dialect.applicator {
            for name in ["allOf", "anyOf", "oneOf"] {
                guard let value = object[name] else { continue }
                guard let array = value.array, !array.isEmpty else { throw error(name, "must be a non-empty array of schemas") }
                let branches = try array.indices.map { try subschema(name, String($0)) }
                if name == "allOf" {
                    common.append(AllOfKeyword(branches: branches, location: location(name)))
                } else {
                    common.append(AlternativesKeyword(name: name, branches: branches, location: location(name)))
                }
            }
            if object["not"] != nil { common.append(NotKeyword(node: try subschema("not"), location: location("not"))) }
            if object["if"] != nil {
                common.append(ConditionalKeyword(condition: try subschema("if"),
                                                 then: object["then"] != nil ? try subschema("then") : nil,
                                                 otherwise: object["else"] != nil ? try subschema("else") : nil,
                                                 location: location("if")))
            }
            if let members = try membersKeyword(object) { objectKeywords.append(members) }
            if object["propertyNames"] != nil {
                objectKeywords.append(PropertyNamesKeyword(node: try subschema("propertyNames"), location: location("propertyNames")))
            }
            if !dialect.isDraft7, let value = object["dependentSchemas"] {
                guard let map = value.object else { throw error("dependentSchemas", "must be an object") }
                let dependencies = try map.uniqueMembers.map { ($0.key, try subschema("dependentSchemas", $0.key)) }
                objectKeywords.append(DependentSchemasKeyword(name: "dependentSchemas", dependencies: dependencies,
                                                              location: location("dependentSchemas")))
            }
            if let items = try itemsKeyword(object) { arrayKeywords.insert(items, at: 0) }
            if object["contains"] != nil {
                var minimum = 1, maximum: Int?
                if !dialect.isDraft7 && dialect.validation {
                    minimum = try count(object, "minContains") ?? 1
                    maximum = try count(object, "maxContains")
                }
                arrayKeywords.append(ContainsKeyword(node: try subschema("contains"), minimum: minimum, maximum: maximum,
                                                     annotates: !dialect.isDraft7, location: location("contains")))
            }
        }
        // `dependencies` (draft-07, and accepted by 2019-09 / 2020-12 for compatibility).
        if let value = object["dependencies"], let map = value.object {
            var required: [(String, [String])] = []
            var schemas: [(String, SchemaNode)] = []
            for member in map.uniqueMembers {
                switch member.value.value {
                case .array: required.append((member.key, try strings(member.value, "dependencies")))
                case .object, .bool: schemas.append((member.key, try subschema("dependencies", member.key)))
                default: throw error("dependencies", "each dependency must be an array of names or a schema")
                }
            }
            if !required.isEmpty && dialect.validation {
                objectKeywords.append(DependentRequiredKeyword(name: "dependencies", dependencies: required, location: location("dependencies")))
            }
            if !schemas.isEmpty && dialect.applicator {
                objectKeywords.append(DependentSchemasKeyword(name: "dependencies", dependencies: schemas, location: location("dependencies")))
            }
        }

        // Unevaluated vocabulary (after everything else: it reads what the others evaluated).
        if !dialect.isDraft7 && dialect.unevaluated {
            if object["unevaluatedItems"] != nil {
                unevaluated.append(UnevaluatedItemsKeyword(node: try subschema("unevaluatedItems"), location: location("unevaluatedItems")))
            }
            if object["unevaluatedProperties"] != nil {
                unevaluated.append(UnevaluatedPropertiesKeyword(node: try subschema("unevaluatedProperties"),
                                                                location: location("unevaluatedProperties")))
            }
        }

        node.common = common
        node.object = objectKeywords
        node.array = arrayKeywords
        node.string = stringKeywords
        node.number = numberKeywords
        node.unevaluated = unevaluated
        node.seal()
        if common.isEmpty && objectKeywords.isEmpty && arrayKeywords.isEmpty && stringKeywords.isEmpty
            && numberKeywords.isEmpty && unevaluated.isEmpty {
            node.isAlwaysTrue = true
        }
    }

    // MARK: Keyword helpers

    private func typeKeyword(_ value: JSONNode) throws -> TypeKeyword {
        var set = TypeSet(rawValue: 0)
        let names: [String]
        if let name = value.string {
            names = [name]
        } else if let array = value.array {
            names = try array.map { guard let s = $0.string else { throw error("type", "must be a type name or an array of them") }; return s }
        } else {
            throw error("type", "must be a type name or an array of them")
        }
        for name in names {
            guard let type = TypeSet(name: name) else {
                let suggestion = EditDistance.closest(to: name, in: ["null", "boolean", "object", "array", "number", "string", "integer"])
                throw error("type", "unknown type '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            }
            set.formUnion(type)
        }
        return TypeKeyword(types: set, location: location("type"))
    }

    private func count(_ object: JSONObject, _ name: String) throws -> Int? {
        guard let value = object[name] else { return nil }
        guard case .number(let n) = value.value, Numbers.isInteger(n), n.double >= 0 else {
            throw error(name, "must be a non-negative integer")
        }
        return n.int ?? (n.double >= Double(Int.max) ? Int.max : Int(n.double))  // Double(Int.max) is 2^63, itself beyond Int
    }

    private func strings(_ value: JSONNode, _ name: String) throws -> [String] {
        guard let array = value.array else { throw error(name, "must be an array of strings") }
        return try array.map {
            guard let s = $0.string else { throw error(name, "must be an array of strings") }
            return s
        }
    }

    private func regex(_ pattern: String, _ name: String) throws -> ECMARegex {
        do { return try ECMARegex(pattern) } catch {
            throw self.error(name, "'\(pattern)' is not a regular expression this validator can use")
        }
    }

    private func reference(_ value: JSONNode, name: String) throws -> RefKeyword {
        guard let text = value.string else { throw error(name, "must be a URI reference (a string)") }
        let keyword = RefKeyword(name: name, location: location(name))
        do {
            keyword.target = NodeRef(try registry.reference(text, base: info.base).0)
        } catch let failure as SchemaError {
            throw SchemaError(location: location(name), message: "cannot resolve '\(text)': \(failure.message)")
        }
        return keyword
    }

    private func dynamicReference(_ value: JSONNode) throws -> DynamicRefKeyword {
        guard let text = value.string else { throw error("$dynamicRef", "must be a URI reference (a string)") }
        let keyword = DynamicRefKeyword(location: location("$dynamicRef"))
        let (target, resource, uri): (SchemaNode, String, URIReference)
        do {
            (target, resource, uri) = try registry.reference(text, base: info.base)
        } catch let failure as SchemaError {
            throw SchemaError(location: location("$dynamicRef"), message: "cannot resolve '\(text)': \(failure.message)")
        }
        keyword.target = NodeRef(target)
        // Dynamic only when the static target is a `$dynamicAnchor` of that name (the "bookend").
        if let fragment = uri.fragment, !fragment.isEmpty, !fragment.hasPrefix("/"),
           registry.hasDynamicAnchor(fragment, inResource: resource) {
            keyword.anchor = fragment
        }
        return keyword
    }

    private func membersKeyword(_ object: JSONObject) throws -> MembersKeyword? {
        var properties: [(String, SchemaNode)] = []
        var patterns: [(ECMARegex, SchemaNode)] = []
        var additional: SchemaNode?
        if let value = object["properties"] {
            guard let map = value.object else { throw error("properties", "must be an object") }
            for member in map.uniqueMembers { properties.append((member.key, try subschema("properties", member.key))) }
        }
        if let value = object["patternProperties"] {
            guard let map = value.object else { throw error("patternProperties", "must be an object") }
            for member in map.uniqueMembers {
                patterns.append((try regex(member.key, "patternProperties"), try subschema("patternProperties", member.key)))
            }
        }
        if object["additionalProperties"] != nil { additional = try subschema("additionalProperties") }
        if properties.isEmpty && patterns.isEmpty && additional == nil { return nil }
        return MembersKeyword(properties: properties, patterns: patterns, additional: additional,
                              propertiesLocation: location("properties"), patternPropertiesLocation: location("patternProperties"),
                              additionalLocation: location("additionalProperties"))
    }

    private func itemsKeyword(_ object: JSONObject) throws -> ItemsKeyword? {
        if dialect.hasArrayItems {
            guard let items = object["items"] else { return nil }
            if let array = items.array {
                let prefix = try array.indices.map { try subschema("items", String($0)) }
                let rest = object["additionalItems"] != nil ? try subschema("additionalItems") : nil
                return ItemsKeyword(prefix: prefix, prefixName: "items", prefixLocation: location("items"),
                                    rest: rest, restName: "additionalItems", restLocation: location("additionalItems"))
            }
            return ItemsKeyword(prefix: [], prefixName: "items", prefixLocation: location("items"),
                                rest: try subschema("items"), restName: "items", restLocation: location("items"))
        }
        var prefix: [SchemaNode] = []
        if let value = object["prefixItems"] {
            guard let array = value.array else { throw error("prefixItems", "must be an array of schemas") }
            prefix = try array.indices.map { try subschema("prefixItems", String($0)) }
        }
        let rest = object["items"] != nil ? try subschema("items") : nil
        if prefix.isEmpty && rest == nil { return nil }
        return ItemsKeyword(prefix: prefix, prefixName: "prefixItems", prefixLocation: location("prefixItems"),
                            rest: rest, restName: "items", restLocation: location("items"))
    }
}
