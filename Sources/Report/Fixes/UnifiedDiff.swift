/// A unified diff (`diff -u` format, 3 lines of context) between two versions of a file, for
/// `maprules lint --fix-dry-run`.
///
/// Written here rather than taken from elsewhere: Foundation has no diff of text on Linux, shelling out to
/// `diff` needs temporary files and a `diff` on the machine (not on Windows, not in a minimal container), and
/// a package for it would be a dependency for forty lines. The changes a fix makes are few and small, so the
/// lines common to both ends are set aside first and Myers' O(ND) algorithm runs on what is left, where D (the
/// number of changed lines) is small; past `maximumEdits` the middle is shown as one replaced block, which is
/// still a correct diff, only not a minimal one.
public enum UnifiedDiff {
    static let context = 3
    static let maximumEdits = 1_000

    /// The diff of `old` to `new` under the names `a/path` and `b/path`; "" when they are equal.
    public static func render(path: String, old: [UInt8], new: [UInt8]) -> String {
        guard old != new else { return "" }
        let a = lines(old), b = lines(new)
        let script = editScript(a, b)
        var out = "--- a/\(path)\n+++ b/\(path)\n"
        for hunk in hunks(script) {
            let oldLines = hunk.filter { $0.kind != .insert }
            let newLines = hunk.filter { $0.kind != .delete }
            let oldStart = oldLines.first.map { $0.oldIndex + 1 } ?? (hunk.first.map { $0.oldIndex } ?? 0)
            let newStart = newLines.first.map { $0.newIndex + 1 } ?? (hunk.first.map { $0.newIndex } ?? 0)
            out += "@@ -\(range(oldStart, oldLines.count)) +\(range(newStart, newLines.count)) @@\n"
            for line in hunk {
                let text: Line
                let mark: String
                switch line.kind {
                case .keep: text = a[line.oldIndex]; mark = " "
                case .delete: text = a[line.oldIndex]; mark = "-"
                case .insert: text = b[line.newIndex]; mark = "+"
                }
                out += mark + text.text + "\n"
                if !text.endsWithNewline { out += "\\ No newline at end of file\n" }
            }
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String { count == 1 ? "\(start)" : "\(start),\(count)" }

    struct Line: Equatable {
        var text: String
        var endsWithNewline: Bool
    }

    /// The lines of `bytes`, without their line feeds (a carriage return before one stays in the text).
    static func lines(_ bytes: [UInt8]) -> [Line] {
        var result: [Line] = []
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 0x0A {
            result.append(Line(text: String(decoding: bytes[start..<i], as: UTF8.self), endsWithNewline: true))
            start = i + 1
        }
        if start < bytes.count { result.append(Line(text: String(decoding: bytes[start...], as: UTF8.self), endsWithNewline: false)) }
        return result
    }

    enum Kind { case keep, delete, insert }

    struct Step {
        var kind: Kind
        /// The line's index in the old file (for an insertion: the index of the old line it comes before).
        var oldIndex: Int
        var newIndex: Int
    }

    /// Every line of both files as kept, deleted or inserted, in order.
    static func editScript(_ a: [Line], _ b: [Line]) -> [Step] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        var steps = (0..<prefix).map { Step(kind: .keep, oldIndex: $0, newIndex: $0) }
        let middleA = Array(a[prefix..<(a.count - suffix)]), middleB = Array(b[prefix..<(b.count - suffix)])
        let middle = myers(middleA, middleB) ?? (middleA.indices.map { Step(kind: .delete, oldIndex: $0, newIndex: 0) }
            + middleB.indices.map { Step(kind: .insert, oldIndex: middleA.count, newIndex: $0) })
        steps += middle.map { Step(kind: $0.kind, oldIndex: $0.oldIndex + prefix, newIndex: $0.newIndex + prefix) }
        steps += (0..<suffix).map { Step(kind: .keep, oldIndex: a.count - suffix + $0, newIndex: b.count - suffix + $0) }
        return steps
    }

    /// Myers' greedy shortest edit script, or nil when it needs more than `maximumEdits` edits.
    private static func myers(_ a: [Line], _ b: [Line]) -> [Step]? {
        let n = a.count, m = b.count
        let limit = min(n + m, maximumEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        outer: for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { found = true; trace.append(v); break outer }
            }
        }
        guard found else { return nil }
        // Walk back from the end through the saved frontiers.
        var steps: [Step] = []
        var x = n, y = m
        for d in stride(from: trace.count - 2, through: 1, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let previousX = v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1; y -= 1
                steps.append(Step(kind: .keep, oldIndex: x, newIndex: y))
            }
            if x == previousX {
                y -= 1
                steps.append(Step(kind: .insert, oldIndex: x, newIndex: y))
            } else {
                x -= 1
                steps.append(Step(kind: .delete, oldIndex: x, newIndex: y))
            }
        }
        while x > 0, y > 0 {
            x -= 1; y -= 1
            steps.append(Step(kind: .keep, oldIndex: x, newIndex: y))
        }
        return steps.reversed()
    }

    /// The steps grouped into hunks: each change with up to `context` kept lines around it, changes closer
    /// than twice that sharing a hunk.
    private static func hunks(_ steps: [Step]) -> [[Step]] {
        let changed = steps.indices.filter { steps[$0].kind != .keep }
        guard !changed.isEmpty else { return [] }
        var groups: [[Step]] = []
        var start = max(0, changed[0] - context)
        var end = min(steps.count - 1, changed[0] + context)
        for index in changed.dropFirst() {
            if index - context <= end + 1 {
                end = min(steps.count - 1, index + context)
            } else {
                groups.append(Array(steps[start...end]))
                start = max(0, index - context)
                end = min(steps.count - 1, index + context)
            }
        }
        groups.append(Array(steps[start...end]))
        return groups
    }
}
