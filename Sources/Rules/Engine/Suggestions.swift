import WebMap

/// "Did you mean" suggestions by edit distance (implemented in WebMap's `EditDistance`, which the JSON Schema
/// validator shares).
public enum Suggestions {
    /// The candidate closest to `text` (case-insensitive Levenshtein distance), when close enough to help.
    public static func closest(to text: String, in candidates: [String], maximumDistance: Int? = nil) -> String? {
        EditDistance.closest(to: text, in: candidates, maximumDistance: maximumDistance)
    }

    /// The candidates sorted by closeness, closest first.
    public static func ranked(_ text: String, in candidates: [String], count: Int = 3) -> [String] {
        EditDistance.ranked(text, in: candidates, count: count)
    }

    public static func distance(_ a: String, _ b: String) -> Int { EditDistance.distance(a, b) }
}

/// "Did you mean" answers computed once per misspelling: one expression can repeat the same unknown name
/// thousands of times, and each answer is an edit-distance search (62,500 repeats took 14 s in a debug build).
struct SuggestionMemo {
    private var answers: [String: String?] = [:]

    mutating func closest(to name: String, compute: (String) -> String?) -> String? {
        if let known = answers[name] { return known }
        let answer = compute(name)
        answers[name] = answer
        return answer
    }
}

