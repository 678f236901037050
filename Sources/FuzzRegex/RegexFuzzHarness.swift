import JSONSchema
import WebMap

/// One fuzz input for the `pattern` engine (JSON Schema's ECMAScript regular expressions over ICU, with the
/// step budget of issue 31): the bytes up to the first line feed are the pattern, the rest the text. The
/// pattern is compiled as `pattern` (of member `v`) and as a `patternProperties` key (of member `k`), and the
/// text validated against both: as `v`'s value and as `k`'s only key. Must never crash or hang (libFuzzer's
/// -timeout catches a budget that does not bound the work); a pattern with no special character must answer
/// exactly as a byte substring search, in both places.
enum RegexFuzzHarness {
    enum Outcome: CustomStringConvertible {
        case notCompiled
        case checked(violations: Int)
        var description: String {
            switch self {
            case .notCompiled: return "the pattern does not compile (a schema error, as expected for bad syntax)"
            case .checked(let n): return "\(n) violation(s)"
            }
        }
    }

    static func run(_ bytes: [UInt8]) -> Outcome {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let pattern = String(decoding: bytes[..<split], as: UTF8.self)
        let text = split < bytes.count ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : ""
        // The text as a key lives in an object of its own: beside `v` it would repeat `v` when the text is "v",
        // and the last occurrence of a repeated key wins.
        let schemaText = #"{"properties": {"v": {"pattern": \#(quoted(pattern))}, "k": {"patternProperties": {\#(quoted(pattern)): {"const": 1}}}}}"#
        let instanceText = #"{"v": \#(quoted(text)), "k": {\#(quoted(text)): 2}}"#
        guard let schemaRoot = try? JSONParser.parse(schemaText).root,
              let schema = try? SchemaRegistry().compile(schemaRoot) else { return .notCompiled }
        guard let instance = try? JSONParser.parse(instanceText) else {
            fatalError("the harness wrote an instance that does not parse: \(instanceText)")
        }
        let violations = schema.validate(instance)
        let special = "\\^$.|?*+()[]{}"
        if !pattern.isEmpty, !pattern.unicodeScalars.contains(where: { special.unicodeScalars.contains($0) }) {
            let expected = containsBytes(Array(text.utf8), Array(pattern.utf8))
            let valueMatched = !violations.contains { $0.keyword == "pattern" }
            let keyMatched = violations.contains { $0.keyword == "const" }
            if valueMatched != expected || keyMatched != expected {
                fatalError("""
                    literal pattern \(quoted(pattern)) on \(quoted(text)): expected \(expected), the engine says \
                    \(valueMatched) for the value and \(keyMatched) for the key
                    """)
            }
        }
        return .checked(violations: violations.count)
    }

    /// True when `needle` occurs in `haystack`, byte for byte (what a literal pattern means: no Unicode
    /// equivalence, unlike `String.contains`).
    static func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
