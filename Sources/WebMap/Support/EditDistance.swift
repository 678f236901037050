/// "Did you mean" suggestions by edit distance, shared by the rules (`Suggestions` in Rules forwards here) and
/// the JSON Schema validator (enum, const and property-name suggestions).
public enum EditDistance {
    /// The candidate closest to `text` (case-insensitive Levenshtein distance), when close enough to help.
    public static func closest(to text: String, in candidates: [String], maximumDistance: Int? = nil) -> String? {
        let limit = maximumDistance ?? max(2, text.count / 3)
        let lowered = text.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(lowered, candidate.lowercased())
            if d <= limit, best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    /// The candidates sorted by closeness, closest first.
    public static func ranked(_ text: String, in candidates: [String], count: Int = 3) -> [String] {
        let lowered = text.lowercased()
        return Array(candidates.map { ($0, distance(lowered, $0.lowercased())) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(count).map(\.0))
    }

    /// Levenshtein distance between `a` and `b`, counted in Unicode scalars.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
