import Foundation
import Rules
import Testing

/// `Glob`, the matcher of `.maprules.json` override globs: what it matches, and that it stays linear.
@Suite struct GlobTests {
    @Test func matchesWithinAndAcrossFolders() {
        #expect(Glob.matches("maps/*.json", "maps/trees.json"))
        #expect(!Glob.matches("maps/*.json", "maps/sub/trees.json"))
        #expect(Glob.matches("maps/**/*.json", "maps/trees.json"))
        #expect(Glob.matches("maps/**/*.json", "maps/a/b/trees.json"))
        #expect(Glob.matches("**", "a/b/c"))
        #expect(Glob.matches("t?ees.json", "trees.json"))
        #expect(!Glob.matches("a?b", "a/b"))
        #expect(!Glob.matches("maps/*.json", "maps/trees.jsonx"))
        #expect(Glob.matches("", ""))
        #expect(!Glob.matches("", "a"))
    }

    /// Issue 31, item 5: 24 `**/` that do not match took minutes (each `**` tried every split of the path, so
    /// the work grew with the number of ways to share the path among them). Bound: (path + 1) x (pattern + 1)
    /// steps: about 0.1 s here in a debug build, so 10 s leaves room for a loaded machine and none for the
    /// exponential matcher.
    @Test(.timeLimit(.minutes(1))) func manyGlobstarsThatDoNotMatchAreLinear() {
        let pattern = String(repeating: "**/", count: 24) + "x.json"
        let path = (0..<40).map { "folder\($0)" }.joined(separator: "/") + "/map.json"
        let start = Date()
        #expect(!Glob.matches(pattern, path))
        let long = String(repeating: "*a", count: 100) + "b"
        #expect(!Glob.matches(long, String(repeating: "a", count: 2000)))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    /// The same answers as the backtracking matcher it replaced, on every small pattern and path over a small
    /// alphabet (the old matcher is exact on them; only its running time was wrong).
    @Test func agreesWithTheBacktrackingDefinition() {
        let patternAlphabet: [String] = ["a", "/", "*", "?", "**", "**/"]
        let pathAlphabet: [String] = ["a", "b", "/"]
        func words(_ alphabet: [String], upTo length: Int) -> [String] {
            var result = [""]
            var layer = [""]
            for _ in 0..<length {
                layer = layer.flatMap { w in alphabet.map { w + $0 } }
                result += layer
            }
            return result
        }
        let patterns = words(patternAlphabet, upTo: 3)
        let paths = words(pathAlphabet, upTo: 4)
        var disagreements: [String] = []
        for pattern in patterns {
            for path in paths where Glob.matches(pattern, path) != Reference.matches(pattern, path) {
                disagreements.append("\(pattern) ~ \(path)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// The backtracking matcher from before issue 31 (exponential, but the definition of the answers).
    enum Reference {
        static func matches(_ pattern: String, _ path: String) -> Bool {
            match(Array(pattern.unicodeScalars), 0, Array(path.unicodeScalars), 0)
        }

        static func match(_ p: [Unicode.Scalar], _ pi: Int, _ s: [Unicode.Scalar], _ si: Int) -> Bool {
            var pi = pi, si = si
            while pi < p.count {
                let c = p[pi]
                if c == "*" {
                    if pi + 1 < p.count && p[pi + 1] == "*" {
                        var next = pi + 2
                        if next < p.count && p[next] == "/" { next += 1 }
                        for k in si...s.count where match(p, next, s, k) { return true }
                        return false
                    }
                    var k = si
                    while k <= s.count {
                        if match(p, pi + 1, s, k) { return true }
                        if k < s.count && s[k] == "/" { return false }
                        k += 1
                    }
                    return false
                }
                guard si < s.count else { return false }
                if c == "?" ? s[si] == "/" : c != s[si] { return false }
                pi += 1
                si += 1
            }
            return si == s.count
        }
    }
}
