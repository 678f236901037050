import Rules

/// One fuzz input for the configuration glob matcher (`Glob`, linear since issue 31): the bytes up to the
/// first line feed are the glob, the rest the path. Must never crash or hang; and where the backtracking
/// definition it replaced is cheap to run (few stars, short paths), the answers must agree.
enum GlobFuzzHarness {
    static func run(_ bytes: [UInt8]) -> Bool {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let pattern = String(decoding: bytes[..<split], as: UTF8.self)
        let path = split < bytes.count ? String(decoding: bytes[(split + 1)...], as: UTF8.self) : ""
        let matched = Glob.matches(pattern, path)
        if pattern.unicodeScalars.filter({ $0 == "*" }).count <= 4 && path.unicodeScalars.count <= 64 {
            let expected = Reference.matches(pattern, path)
            if matched != expected {
                fatalError("Glob.matches(\(String(reflecting: pattern)), \(String(reflecting: path))) is \(matched), the definition says \(expected)")
            }
        }
        return matched
    }

    /// The backtracking matcher from before issue 31: exponential in the number of `**`, exact by definition.
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
