import Foundation

/// `{{ name }}` placeholders, as solution templates and secret-injection build steps write them.
/// Substitution replaces them in every string value; node offsets are unchanged, so positions still point
/// into the original file.
public struct TemplatePlaceholder: Sendable {
    public var name: String
    public var pointer: JSONPointer
    public var offset: Int
}

public enum TemplatePlaceholders {
    /// Substitutes `variables` into every string of `node`; returns the new tree and the placeholders left
    /// unresolved, in document order.
    public static func substitute(_ node: JSONNode, variables: [String: String]) -> (JSONNode, [TemplatePlaceholder]) {
        var unresolved: [TemplatePlaceholder] = []
        let result = substitute(node, pointer: .root, variables: variables, unresolved: &unresolved)
        return (result, unresolved)
    }

    /// True when the text holds at least one `{{ ... }}` placeholder.
    public static func contains(_ text: String) -> Bool { !names(in: text).isEmpty }

    /// The placeholder names in `text`, in order.
    public static func names(in text: String) -> [String] {
        scan(text, variables: [:]).names
    }

    private static func substitute(_ node: JSONNode, pointer: JSONPointer, variables: [String: String],
                                   unresolved: inout [TemplatePlaceholder]) -> JSONNode {
        switch node.value {
        case .string(let text):
            guard text.contains("{{") else { return node }
            let (output, names, missing) = scan(text, variables: variables)
            _ = names
            for name in missing { unresolved.append(TemplatePlaceholder(name: name, pointer: pointer, offset: node.offset)) }
            return JSONNode(.string(output), offset: node.offset)
        case .array(let elements):
            var copy = elements
            var changed = false
            for i in copy.indices where copy[i].containsBraces {
                copy[i] = substitute(copy[i], pointer: pointer / i, variables: variables, unresolved: &unresolved)
                changed = true
            }
            return changed ? JSONNode(.array(copy), offset: node.offset) : node
        case .object(var object):
            for i in object.members.indices where object.members[i].value.containsBraces {
                object.members[i].value = substitute(object.members[i].value, pointer: pointer / object.members[i].key,
                                                     variables: variables, unresolved: &unresolved)
            }
            return JSONNode(.object(object), offset: node.offset)
        default:
            return node
        }
    }

    /// Returns the text with known placeholders replaced, all names, and the unknown names.
    private static func scan(_ text: String, variables: [String: String]) -> (String, names: [String], missing: [String]) {
        var output = ""
        var names: [String] = []
        var missing: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let inner = rest[open.upperBound..<close.lowerBound]
            let name = inner.trimmingCharacters(in: .whitespaces)
            output += rest[..<open.lowerBound]
            if !name.isEmpty, !name.contains("{"), !name.contains("}") {
                names.append(name)
                if let value = variables[name] { output += value } else {
                    missing.append(name)
                    output += rest[open.lowerBound..<close.upperBound]
                }
            } else {
                output += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        output += rest
        return (output, names, missing)
    }
}

private extension JSONNode {
    /// Cheap pre-check so that substitution copies only the branches that hold a placeholder.
    var containsBraces: Bool {
        switch value {
        case .string(let s): return s.contains("{{")
        case .array(let a): return a.contains { $0.containsBraces }
        case .object(let o): return o.members.contains { $0.value.containsBraces }
        default: return false
        }
    }
}
