import WebMap

/// A large document's top arrays are parsed on every core (`JSONParser.Options.concurrentMinimumSize`); fuzz
/// inputs are small, so here every input is parsed that way too, and the outcome must be the serial one: the
/// same error at the same offset, or the same tree (values, keys, offsets) and the same repeated keys.
enum ConcurrentParseCheck {
    static let options: JSONParser.Options = {
        var options = JSONParser.Options()
        options.concurrentMinimumSize = 0
        return options
    }()

    static func expectSameOutcome(_ text: SourceText, as serial: Result<ParsedJSON, JSONParseError>) {
        let concurrent = Result { () throws(JSONParseError) -> ParsedJSON in try JSONParser.parse(text, options: options) }
        switch (serial, concurrent) {
        case (.failure(let a), .failure(let b)):
            precondition(a.kind == b.kind && a.offset == b.offset && a.message == b.message,
                         "FuzzLint: the concurrent parse failed otherwise (\(b.message) at \(b.offset); serial: \(a.message) at \(a.offset))")
        case (.success(let a), .success(let b)):
            precondition(same(a.root, b.root), "FuzzLint: the concurrent parse made another tree")
            precondition(a.duplicateKeys.map(\.offset) == b.duplicateKeys.map(\.offset)
                         && a.duplicateKeys.map(\.pointer) == b.duplicateKeys.map(\.pointer),
                         "FuzzLint: the concurrent parse found other repeated keys")
        default:
            preconditionFailure("FuzzLint: one parse failed and the other did not")
        }
    }

    private static func same(_ a: JSONNode, _ b: JSONNode) -> Bool {
        guard a.offset == b.offset else { return false }
        switch (a.value, b.value) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y || (x.double.isNaN && y.double.isNaN)
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.members.count == y.members.count && zip(x.members, y.members).allSatisfy {
                $0.key == $1.key && $0.keyOffset == $1.keyOffset && same($0.value, $1.value)
            }
        default: return false
        }
    }
}
