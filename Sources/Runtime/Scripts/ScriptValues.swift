import Foundation
import FeatureServiceModel
import WebMap

/// `$NAME.path.to.value` references and the values of script arguments.
enum ScriptValues {
    /// `value` with every reference replaced: a string that is exactly one reference takes the saved value as it
    /// is (a number stays a number); a reference inside a longer string is substituted as text.
    static func substitute(_ value: JSON, saved: [String: JSON], place: String) throws -> JSON {
        switch value {
        case .string(let text):
            let references = EditScript.references(inText: text)
            guard !references.isEmpty else { return value }
            if references.count == 1, text == "$" + references[0].text { return try resolve(references[0], saved: saved, place: place) }
            var result = text
            for reference in references.sorted(by: { $0.text.count > $1.text.count }) {
                let resolved = try resolve(reference, saved: saved, place: place)
                result = result.replacingOccurrences(of: "$" + reference.text, with: resolved.string ?? resolved.text)
            }
            return .string(result)
        case .array(let items): return .array(try items.map { try substitute($0, saved: saved, place: place) })
        case .object(let members): return .object(try members.map { ($0.0, try substitute($0.1, saved: saved, place: place)) })
        default: return value
        }
    }

    private static func resolve(_ reference: EditScript.Reference, saved: [String: JSON], place: String) throws -> JSON {
        guard var current = saved[reference.name] else {
            throw RuntimeError(RuntimeError.Identifier.scriptReference, "\(place): '$\(reference.text)': the step that saves '\(reference.name)' did not succeed.")
        }
        var walked = "$" + reference.name
        for part in reference.path {
            walked += "." + part
            if let items = current.array, let index = Int(part) {
                guard items.indices.contains(index) else {
                    throw RuntimeError(RuntimeError.Identifier.scriptReference, "\(place): '$\(reference.text)': \(walked) is beyond the \(items.count) saved item\(items.count == 1 ? "" : "s").")
                }
                current = items[index]
            } else if let next = current[part] ?? current.member(caseInsensitive: part) {
                current = next
            } else {
                let keys = current.objectMembers?.map(\.0).joined(separator: ", ") ?? current.text
                throw RuntimeError(RuntimeError.Identifier.scriptReference, "\(place): '$\(reference.text)': \(walked) does not exist (it has: \(keys.prefix(200))).")
            }
        }
        return current
    }

    /// Attribute values of a script object. An object or array (a reference to a saved feature, say) is no
    /// attribute value: the step fails rather than writing null.
    static func attributes(_ json: JSON?) throws -> Attributes {
        if let json, json != .null, json.objectMembers == nil {
            throw RuntimeError(RuntimeError.Identifier.scriptArgument, "attributes must be an object of values by field name, not \(json.text.prefix(200)).")
        }
        return Attributes(try (json?.objectMembers ?? []).map { name, value in
            switch value {
            case .object, .array:
                throw RuntimeError(RuntimeError.Identifier.scriptArgument, "attribute \(name): \(value.text.count > 80 ? value.text.prefix(80) + "…" : value.text) is an object or a list, not a value (a reference to a saved feature? name one of its values: $NAME.features.0.FIELD).")
            default:
                return (name, AttributeValue(value))
            }
        })
    }

    /// True when an attribute's value equals the expected one (2 equals 2.0; text compares as text).
    static func same(_ actual: AttributeValue, _ expected: AttributeValue) -> Bool {
        if actual.sameValue(as: expected) { return true }
        if let a = actual.double, let text = expected.string, let b = Double(text) { return a == b }
        return false
    }

    static func show(_ value: AttributeValue) -> String {
        switch value {
        case .string(let s): return "'\(s)'"
        case .null: return "null"
        default: return value.description
        }
    }
}
