/// "Did you mean" suggestions by edit distance, shared by the rules (`Suggestions` in Rules forwards here) and
/// the JSON Schema validator (enum, const and property-name suggestions).
public enum EditDistance {
    /// The candidate closest to `text` (case-insensitive Levenshtein distance), when close enough to help.
    public static func closest(to text: String, in candidates: [String], maximumDistance: Int? = nil) -> String? {
        closest(to: text, in: Candidates(candidates), maximumDistance: maximumDistance)
    }

    /// Names to suggest from, lowered once: a rule that looks up many names among the same candidates (a map's
    /// 100,000 layer titles) makes this once.
    public struct Candidates: Sendable {
        public let names: [String]
        fileprivate let lowered: [[Unicode.Scalar]]

        public init(_ names: [String]) {
            self.names = names
            lowered = names.map { Array($0.lowercased().unicodeScalars) }
        }
    }

    /// ``closest(to:in:maximumDistance:)`` among prepared candidates: the first of the closest, when close
    /// enough. Each candidate is only measured as far as it could still win (a candidate no closer than the
    /// best so far is left as soon as that is certain), so most cost a few comparisons.
    public static func closest(to text: String, in candidates: Candidates, maximumDistance: Int? = nil) -> String? {
        let limit = maximumDistance ?? max(2, text.count / 3)
        let lowered = Array(text.lowercased().unicodeScalars)
        var best: (index: Int, distance: Int)?
        for index in candidates.lowered.indices {
            // A later candidate replaces the best only when strictly closer.
            let bound = best.map { $0.distance - 1 } ?? limit
            if bound < 0 { break }
            if let d = distance(lowered, candidates.lowered[index], atMost: bound) { best = (index, d) }
        }
        return best.map { candidates.names[$0.index] }
    }

    /// The Levenshtein distance between `a` and `b` when it is at most `bound`, else nil (found without
    /// finishing when the lengths differ by more, or a whole row of the table exceeds it: rows never decrease).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        guard abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > bound { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= bound ? previous[b.count] : nil
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
