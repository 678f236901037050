import Foundation

// Path globbing for configuration overrides. Glibc's fnmatch has no `**`, and no package here offers
// globbing, so this small matcher is written by hand: `*` and `?` within one path segment, `**` across them
// (`**/` also matches no folder at all).
//
// The pattern is read as a small automaton and the path is scanned once, carrying the set of pattern positions
// that can be reached so far (a Thompson simulation): time is at most (path length + 1) x (pattern length + 1)
// steps, whatever the pattern. A backtracking matcher tried every split of the path for every `**` and was
// exponential in their number (issue 31: 24 `**/` that do not match ran for minutes).
public enum Glob {
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        let tokens = Self.tokens(Array(pattern.unicodeScalars))
        var current = [Bool](repeating: false, count: tokens.count + 1)
        var next = current
        current[0] = true
        close(&current, tokens)
        for c in path.unicodeScalars {
            for index in next.indices { next[index] = false }
            var any = false
            for index in tokens.indices where current[index] {
                switch tokens[index] {
                case .literal(let l) where l == c: next[index + 1] = true; any = true
                case .anyOne where c != "/": next[index + 1] = true; any = true
                case .star where c != "/": next[index] = true; any = true
                case .globstar: next[index] = true; any = true
                default: break
                }
            }
            if !any { return false }
            close(&next, tokens)
            swap(&current, &next)
        }
        return current[tokens.count]
    }

    /// One step of a pattern. `globstar` is `**` (with a following `/`, which it may also skip).
    private enum Token: Equatable {
        case literal(Unicode.Scalar)
        case anyOne
        case star
        case globstar
    }

    /// The pattern's steps: `**` followed by `/` is one `globstar` (the `/` folded into it, so that `**/x`
    /// matches `x`, `a/x` and `a/b/x`), `*` a `star`, `?` an `anyOne`, anything else itself.
    private static func tokens(_ p: [Unicode.Scalar]) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            if p[i] == "*" {
                if i + 1 < p.count && p[i + 1] == "*" {
                    tokens.append(.globstar)
                    i += 2
                    if i < p.count && p[i] == "/" { i += 1 }
                } else {
                    tokens.append(.star)
                    i += 1
                }
            } else {
                tokens.append(p[i] == "?" ? .anyOne : .literal(p[i]))
                i += 1
            }
        }
        return tokens
    }

    /// Adds the positions reachable without reading a character: past a `*` or `**` that matches nothing.
    /// Those moves only go forward, so one pass in order reaches them all.
    private static func close(_ states: inout [Bool], _ tokens: [Token]) {
        for index in tokens.indices where states[index] {
            switch tokens[index] {
            case .star, .globstar: states[index + 1] = true
            case .literal, .anyOne: break
            }
        }
    }

    /// `path` relative to `base` when it is inside it, else `path` as given (both standardised).
    public static func relativePath(of path: String, to base: String) -> String {
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        let root = URL(fileURLWithPath: base).standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : path
    }
}
