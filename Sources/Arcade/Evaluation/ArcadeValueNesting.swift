/// How deeply arrays and dictionaries nest inside a value, bounded: writing a value as text (`'' + a`, a template
/// placeholder) recurses once per level, so a value nested deeper than `limit` (or holding itself:
/// `a[0] = a`) is refused before it is written.
extension ArcadeValue {
    /// Whether the value's arrays and dictionaries nest at most `limit` levels (a value that holds itself never does).
    func nestsAtMost(_ limit: Int) -> Bool {
        var budget = 1_000_000   // elements visited at most; a wider value is written without recursion trouble
        return ArcadeValue.nests(self, within: limit, budget: &budget)
    }

    private static func nests(_ value: ArcadeValue, within limit: Int, budget: inout Int) -> Bool {
        switch value {
        case .array(let array):
            guard limit > 0 else { return false }
            for element in array.values {
                budget -= 1
                if budget < 0 { return true }
                if !nests(element, within: limit - 1, budget: &budget) { return false }
            }
            return true
        case .dictionary(let dictionary):
            guard limit > 0 else { return false }
            for key in dictionary.keys {
                budget -= 1
                if budget < 0 { return true }
                if let element = dictionary[key], !nests(element, within: limit - 1, budget: &budget) { return false }
            }
            return true
        case .feature(let feature):
            guard limit > 0 else { return false }
            return nests(.dictionary(feature.attributes), within: limit - 1, budget: &budget)
        default:
            return true
        }
    }

    /// The value as `Text()` writes it, for `+` and templates; a run error for a value nested too deeply to write.
    func textForJoining(_ range: ArcadeSourceRange) throws -> String {
        switch self {
        case .array, .dictionary, .feature:
            guard nestsAtMost(ArcadeValue.maximumWrittenNesting) else {
                throw ArcadeError(ArcadeError.runtimeError,
                                  "this \(typeName) nests more than \(ArcadeValue.maximumWrittenNesting) levels deep (or holds itself) and cannot be written as text",
                                  at: range)
            }
            return textValue
        default:
            return textValue
        }
    }

    static let maximumWrittenNesting = 200
}
