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
    public static func contains(_ text: String) -> Bool { hasOpeningBraces(text) && !names(in: text).isEmpty }

    /// The placeholder names in `text`, in order.
    public static func names(in text: String) -> [String] {
        guard hasOpeningBraces(text) else { return [] }
        return scan(text, variables: [:]).names
    }

    /// One pass over the tree; returns nil when nothing below `node` changed, so untouched branches are
    /// shared rather than copied.
    private static func substitute(_ node: JSONNode, pointer: JSONPointer, variables: [String: String],
                                   unresolved: inout [TemplatePlaceholder]) -> JSONNode {
        visit(node, pointer: pointer, variables: variables, unresolved: &unresolved) ?? node
    }

    private static func visit(_ node: JSONNode, pointer: JSONPointer, variables: [String: String],
                              unresolved: inout [TemplatePlaceholder]) -> JSONNode? {
        switch node.value {
        case .string(let text):
            guard hasOpeningBraces(text) else { return nil }
            let (output, _, missing) = scan(text, variables: variables)
            for name in missing { unresolved.append(TemplatePlaceholder(name: name, pointer: pointer, offset: node.offset)) }
            return output == text ? nil : JSONNode(.string(output), offset: node.offset)
        case .array(let elements):
            var copy: [JSONNode]?
            for i in elements.indices {
                if let changed = visit(elements[i], pointer: pointer / i, variables: variables, unresolved: &unresolved) {
                    if copy == nil { copy = elements }
                    copy![i] = changed
                }
            }
            return copy.map { JSONNode(.array($0), offset: node.offset) }
        case .object(let object):
            var copy: JSONObject?
            for i in object.members.indices {
                let member = object.members[i]
                if let changed = visit(member.value, pointer: pointer / member.key, variables: variables, unresolved: &unresolved) {
                    if copy == nil { copy = object }
                    copy!.members[i].value = changed
                }
            }
            return copy.map { JSONNode(.object($0), offset: node.offset) }
        default:
            return nil
        }
    }

    /// A byte scan for "{{" (Foundation's `contains` is far slower on the hot path).
    private static func hasOpeningBraces(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8(containsDoubleOpeningBrace)
    }

    /// True when `bytes` hold "{{" (for a string or for a whole file, `SourceText.containsDoubleOpeningBrace`).
    /// Sixteen positions at a time: each byte compared with "{" beside the byte after it (memchr to each "{"
    /// costs more on a whole file: a JSON document opens an object every few dozen bytes).
    static func containsDoubleOpeningBrace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 1 else { return false }
        let brace = SIMD16<UInt8>(repeating: UInt8(ascii: "{"))
        var i = 0
        while i + 17 <= bytes.count {
            let here = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let next = UnsafeRawPointer(base + i + 1).loadUnaligned(as: SIMD16<UInt8>.self)
            if any((here .== brace) .& (next .== brace)) { return true }
            i += 16
        }
        while i + 1 < bytes.count {
            if base[i] == UInt8(ascii: "{") && base[i + 1] == UInt8(ascii: "{") { return true }
            i += 1
        }
        return false
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
            let name = inner.trimmingSpaces()
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
