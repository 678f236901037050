import Foundation

// Path globbing for configuration overrides. Glibc's fnmatch has no `**`, and no package here offers
// globbing, so this small matcher is written by hand: `*` and `?` within one path segment, `**` across them.
public enum Glob {
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        match(Array(pattern.unicodeScalars), 0, Array(path.unicodeScalars), 0)
    }

    private static func match(_ p: [Unicode.Scalar], _ pi: Int, _ s: [Unicode.Scalar], _ si: Int) -> Bool {
        var pi = pi, si = si
        while pi < p.count {
            let c = p[pi]
            if c == "*" {
                if pi + 1 < p.count && p[pi + 1] == "*" {
                    var next = pi + 2
                    if next < p.count && p[next] == "/" { next += 1 }
                    var k = si
                    while k <= s.count {
                        if match(p, next, s, k) { return true }
                        k += 1
                    }
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

    /// `path` relative to `base` when it is inside it, else `path` as given (both standardised).
    public static func relativePath(of path: String, to base: String) -> String {
        let full = URL(fileURLWithPath: path).standardizedFileURL.path
        let root = URL(fileURLWithPath: base).standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : path
    }
}
