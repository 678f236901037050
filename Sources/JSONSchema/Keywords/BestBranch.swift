import WebMap

/// Explains a failed `anyOf` / `oneOf` with the alternative the instance was most likely meant to match,
/// instead of every alternative's complaints:
/// 1. a discriminator: alternatives that fix a property with `const` / `enum` (`"layerType": {"const":
///    "GroupLayer"}`) are chosen by the instance's value of that property; when it matches none of them, the
///    one violation is that property, with every allowed value and a "did you mean";
/// 2. when every alternative fails on the value itself with only `type`, `const` or `enum`, one violation
///    lists everything that would have been accepted;
/// 3. otherwise the alternative with the fewest violations (preferring one whose type fits and whose
///    violations are deepest, i.e. that matched furthest).
enum BestBranch {
    static func explain(_ keyword: AlternativesKeyword, _ instance: JSONNode, _ c: ValidationContext) {
        var candidates = Array(keyword.branches.indices)
        if case .object(let object) = instance.value {
            let tables = keyword.branches.map { discriminators(of: $0.node, depth: 0) }
            var chosen: [Int] = []
            for (index, table) in tables.enumerated() where !table.isEmpty {
                var all = true, any = false
                for (property, values) in table {
                    guard let value = object[property] else { continue }
                    if values.contains(where: { JSONEquality.equal($0, value.value) }) { any = true } else { all = false }
                }
                if all && any { chosen.append(index) }
            }
            if !chosen.isEmpty {
                candidates = chosen
            } else if let first = tables.first, tables.allSatisfy({ !$0.isEmpty }) {
                // A property every alternative discriminates on, present in the instance with another value.
                let shared = first.keys.filter { key in tables.allSatisfy { $0[key] != nil } }.sorted()
                if let property = shared.first(where: { object[$0] != nil }), let member = object.member(property) {
                    var allowed: [JSONValue] = []
                    for table in tables {
                        for value in table[property] ?? [] where !allowed.contains(where: { JSONEquality.equal($0, value) }) {
                            allowed.append(value)
                        }
                    }
                    reportValues(keyword, allowed: allowed, types: [], value: member.value, c,
                                 extra: .key(property))
                    return
                }
            }
        }
        var results: [(index: Int, violations: [SchemaViolation])] = []
        for index in candidates {
            let (_, found) = c.collecting { keyword.branches[index].validate(instance, c, nil) }
            results.append((index, found))
        }
        let here = c.pointer
        // Alternatives that each require a property the instance lacks: one violation naming them all.
        if results.count > 1, results.allSatisfy({ result in
            !result.violations.isEmpty && result.violations.allSatisfy { $0.instancePointer == here && $0.keyword == "required" }
        }) {
            var names: [String] = []
            for index in candidates {
                for keyword in keyword.branches[index].node.object {
                    guard let required = keyword as? RequiredKeyword else { continue }
                    let missing = required.names.filter { name in !(instance.object.map { RequiredKeyword.has($0, name) } ?? false) }
                    let phrase = Describe.alternatives(missing.map { "'\($0)'" }).replacingOccurrences(of: " or ", with: " and ")
                    if !phrase.isEmpty && !names.contains(phrase) { names.append(phrase) }
                }
            }
            if !names.isEmpty {
                let expected = (keyword.exactlyOne ? "exactly one of " : "one of ") + Describe.alternatives(names)
                c.report(keyword: keyword.name, location: keyword.location, offset: instance.offset, expected: expected,
                         found: "none of them",
                         message: "\(c.subject) must have \(expected) — it has none of them.")
                return
            }
        }
        let simple: Set<String> = ["type", "const", "enum"]
        if results.count > 1, results.allSatisfy({ result in
            !result.violations.isEmpty && result.violations.allSatisfy { $0.instancePointer == here && simple.contains($0.keyword) }
        }) {
            var allowed: [JSONValue] = []
            var types: [String] = []
            for index in candidates {
                let node = keyword.branches[index].node
                for k in node.common {
                    if let e = k as? EnumKeyword { allowed += e.values }
                    if let v = k as? ConstKeyword { allowed.append(v.value) }
                    if let t = k as? TypeKeyword, !(node.common.contains { $0 is EnumKeyword || $0 is ConstKeyword }) {
                        for name in t.types.names where !types.contains(name) { types.append(name) }
                    }
                }
            }
            if !allowed.isEmpty || !types.isEmpty {
                reportValues(keyword, allowed: allowed, types: types, value: instance, c, extra: nil)
                return
            }
        }
        guard let best = results.min(by: { score($0.violations, here) < score($1.violations, here) }) else { return }
        if best.violations.isEmpty {
            c.report(keyword: keyword.name, location: keyword.location, offset: instance.offset,
                     expected: "one of the alternatives", found: Describe.found(instance.value),
                     message: "\(c.subject) matches none of the alternatives of \(keyword.name).")
        }
        c.violations += best.violations
    }

    /// Lower is better: a type mismatch on the value itself, then the number of violations, then (negated)
    /// how deep they are.
    private static func score(_ violations: [SchemaViolation], _ here: JSONPointer) -> (Int, Int, Int) {
        let typeMismatch = violations.contains { $0.keyword == "type" && $0.instancePointer == here } ? 1 : 0
        let depth = violations.map(\.instancePointer.tokens.count).max() ?? 0
        return (typeMismatch, violations.count, -depth)
    }

    private static func reportValues(_ keyword: AlternativesKeyword, allowed: [JSONValue], types: [String], value: JSONNode,
                                     _ c: ValidationContext, extra: PathToken?) {
        var pieces = allowed.map(Describe.allowed)
        pieces += types.map { TypeKeyword.article($0) }
        let expected: String
        if types.isEmpty {
            expected = pieces.count == 1 ? Describe.quoted(allowed[0]) : "one of " + Describe.list(pieces)
        } else if allowed.isEmpty {
            expected = Describe.alternatives(types.map { TypeKeyword.article($0) })
        } else {
            expected = "one of " + Describe.list(pieces)
        }
        let subject = extra.map { ValidationContext.subject(of: c.path + [$0]) } ?? c.subject
        var found = Describe.found(value.value)
        if allowed.isEmpty {
            switch value.value {
            case .string, .number, .bool: found = Describe.typeName(value.value) + " " + Describe.quoted(value.value)
            default: found = Describe.typeName(value.value)
            }
        }
        var message = "\(subject) must be \(expected) — found \(found)."
        if case .string(let s) = value.value {
            let strings = allowed.compactMap { if case .string(let v) = $0 { return v } else { return nil } }
            if let suggestion = EditDistance.closest(to: s, in: strings) { message += " Did you mean '\(suggestion)'?" }
        }
        c.report(keyword: keyword.name, location: keyword.location, offset: value.offset, expected: expected, found: found,
                 message: message, extra: extra)
    }

    /// Properties an alternative fixes with `const` or `enum` (through `$ref` and `allOf`, a few levels deep).
    static func discriminators(of node: SchemaNode, depth: Int) -> [String: [JSONValue]] {
        var table: [String: [JSONValue]] = [:]
        for keyword in node.object {
            guard let members = keyword as? MembersKeyword else { continue }
            for name in members.declared {
                if let child = members.node(for: name), let values = fixedValues(of: child, depth: 0) { table[name] = values }
            }
        }
        if depth < 3 {
            for keyword in node.common {
                if let ref = keyword as? RefKeyword, let target = ref.target?.node {
                    table.merge(discriminators(of: target, depth: depth + 1)) { old, _ in old }
                } else if let all = keyword as? AllOfKeyword {
                    for branch in all.branches { table.merge(discriminators(of: branch.node, depth: depth + 1)) { old, _ in old } }
                }
            }
        }
        return table
    }

    private static func fixedValues(of node: SchemaNode, depth: Int) -> [JSONValue]? {
        for keyword in node.common {
            if let c = keyword as? ConstKeyword { return [c.value] }
            if let e = keyword as? EnumKeyword { return e.values }
        }
        if depth < 3 {
            for keyword in node.common {
                if let ref = keyword as? RefKeyword, let target = ref.target?.node { return fixedValues(of: target, depth: depth + 1) }
            }
        }
        return nil
    }
}
