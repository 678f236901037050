import Foundation

/// Just enough JSON Schema (2020-12) to check the shipped report and configuration schemas against
/// JSONSerialization output: `type`, `const`, `enum`, `required`, `properties`, `additionalProperties`,
/// `propertyNames`, `items`, `minItems`, `pattern`, `minLength`, `minimum`, and local `$ref`s. Anything else fails loudly,
/// so a schema that grows a keyword cannot pass unchecked.
struct MiniSchemaValidator {
    let root: Any

    static let known: Set<String> = [
        "$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "required", "properties",
        "additionalProperties", "propertyNames", "items", "pattern", "minLength", "minimum", "$ref",
        "minItems",
    ]

    /// Violations as "pointer: what", empty when `instance` is valid.
    func errors(_ instance: Any) -> [String] {
        var out: [String] = []
        check(instance, against: root, at: "", into: &out)
        return out
    }

    private func resolve(_ ref: String) -> Any? {
        guard ref.hasPrefix("#/") else { return nil }
        var node: Any? = root
        for part in ref.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] }
        return node
    }

    private func typeName(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            let code = String(cString: number.objCType)
            if code == "c" || code == "B" { return "boolean" }
            return number.doubleValue.rounded() == number.doubleValue ? "integer" : "number"
        }
        if value is String { return "string" }
        if value is [Any] { return "array" }
        if value is [String: Any] { return "object" }
        return "unknown"
    }

    private func equal(_ a: Any, _ b: Any) -> Bool {
        (a as? NSObject)?.isEqual(b) ?? false
    }

    private func check(_ value: Any, against schemaValue: Any, at pointer: String, into out: inout [String]) {
        if let flag = schemaValue as? Bool {
            if !flag { out.append("\(pointer): not allowed") }
            return
        }
        guard let schema = schemaValue as? [String: Any] else { out.append("\(pointer): bad schema"); return }
        for key in schema.keys where !Self.known.contains(key) { out.append("\(pointer): unsupported keyword \(key)") }
        if let ref = schema["$ref"] as? String {
            guard let target = resolve(ref) else { out.append("\(pointer): unresolved \(ref)"); return }
            check(value, against: target, at: pointer, into: &out)
        }
        let actual = typeName(value)
        if let type = schema["type"] {
            let allowed = (type as? [String]) ?? [type as? String ?? ""]
            if !(allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))) {
                out.append("\(pointer): type \(actual), expected \(allowed)")
                return
            }
        }
        if let constant = schema["const"], !equal(value, constant) { out.append("\(pointer): not the constant") }
        if let options = schema["enum"] as? [Any], !options.contains(where: { equal(value, $0) }) {
            out.append("\(pointer): \(value) not in enum")
        }
        if let string = value as? String, actual == "string" {
            if let pattern = schema["pattern"] as? String, string.range(of: pattern, options: .regularExpression) == nil {
                out.append("\(pointer): '\(string)' does not match \(pattern)")
            }
            if let minLength = schema["minLength"] as? Int, string.unicodeScalars.count < minLength {
                out.append("\(pointer): shorter than \(minLength)")
            }
        }
        if let minimum = schema["minimum"] as? Double, let number = value as? NSNumber, actual == "integer" || actual == "number",
           number.doubleValue < minimum {
            out.append("\(pointer): below \(minimum)")
        }
        if let array = value as? [Any], let minItems = schema["minItems"] as? Int, array.count < minItems {
            out.append("\(pointer): fewer than \(minItems) items")
        }
        if let array = value as? [Any], let items = schema["items"] {
            for (i, element) in array.enumerated() { check(element, against: items, at: "\(pointer)/\(i)", into: &out) }
        }
        if let object = value as? [String: Any], actual == "object" {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                out.append("\(pointer): missing \(key)")
            }
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if let names = schema["propertyNames"] { check(key, against: names, at: "\(pointer)/\(key) (name)", into: &out) }
                if let sub = properties[key] {
                    check(member, against: sub, at: "\(pointer)/\(key)", into: &out)
                } else if let additional = schema["additionalProperties"] {
                    check(member, against: additional, at: "\(pointer)/\(key)", into: &out)
                }
            }
        }
    }
}
