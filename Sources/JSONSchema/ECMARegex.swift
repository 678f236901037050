import Foundation

/// A `pattern` / `patternProperties` regular expression. JSON Schema patterns are ECMA-262 regular expressions
/// (with Unicode semantics); Foundation's `NSRegularExpression` is ICU's dialect, so patterns are translated
/// before compiling:
/// - `\d`, `\w` (and `\D`, `\W`, and inside classes) match ASCII only, as in ECMA-262; ICU's match Unicode.
/// - `\s` / `\S` use ECMA-262's whitespace set (which includes U+FEFF).
/// - `$` outside a class matches only at the very end (ICU's `$` also matches before a final line break).
/// - `[` inside a class is a literal (ICU reads it as a nested set), as are `&&` and `--` (ICU set operators).
/// - `[^]` matches any character and `[]` nothing.
/// Known gaps (documented in Schemas/README.md, "Validator conformance"): ICU accepts some syntax ECMA-262's
/// Unicode mode rejects (possessive quantifiers, atomic groups, inline flags, `\Z`), so such a schema compiles
/// here; Annex B leniencies of non-Unicode JavaScript (`{` as a literal, `\8`) follow ICU, which refuses them
/// when the schema is compiled. JSON Schema patterns have no flags, so case-insensitive matching never applies.
final class ECMARegex: @unchecked Sendable {
    let source: String
    private let regex: NSRegularExpression
    /// A faster matcher for the common shapes `^literal`, `literal$`, `^literal$` and `literal`.
    private let literal: LiteralMatcher?

    init(_ pattern: String) throws {
        source = pattern
        literal = LiteralMatcher(pattern)
        regex = try NSRegularExpression(pattern: Self.translate(pattern), options: [])
    }

    /// What matching one string found: a match, none, or no answer within the step budget.
    enum Outcome: Equatable {
        case matched
        case notMatched
        /// The engine gave up after `steps` matching steps (a pattern that backtracks exponentially on this text).
        case gaveUp(steps: Int)
    }

    /// Whether the pattern matches anywhere in `string` (patterns are not implicitly anchored), within a step
    /// budget. ICU's engine backtracks: `(a*)*b` on 24 `a`s takes seconds, and each more `a` doubles it. ICU
    /// counts its steps and reports progress every 10,000 of them (and once per start position tried), so the
    /// search is stopped after `budgetTicks(forLength:)` such reports: about 1,000,000 steps plus 100 per
    /// UTF-16 unit of the text, which linear patterns on real values never come near.
    func match(_ string: String) -> Outcome {
        if let literal { return literal.matches(string) ? .matched : .notMatched }
        let length = (string as NSString).length
        let budget = Self.budgetTicks(forLength: length)
        var ticks = 0
        var found = false
        var gaveUp = false
        regex.enumerateMatches(in: string, options: [.reportProgress], range: NSRange(location: 0, length: length)) { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
                return
            }
            ticks += 1
            if ticks > budget {
                gaveUp = true
                stop.pointee = true
            }
        }
        if found { return .matched }
        return gaveUp ? .gaveUp(steps: Self.stepBudget(forLength: length)) : .notMatched
    }

    /// The progress reports allowed for a text of `length` UTF-16 units: one per start position ICU may try,
    /// plus one per 10,000 steps of the budget.
    static func budgetTicks(forLength length: Int) -> Int {
        (length + 1) + stepBudget(forLength: length) / 10_000
    }

    /// The matching steps allowed for a text of `length` UTF-16 units: 1,000,000 plus 100 per unit.
    static func stepBudget(forLength length: Int) -> Int {
        1_000_000 + 100 * length
    }

    // MARK: Translation from ECMA-262 to ICU

    static let whitespace = "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"
    static let notWhitespace = "\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}"
    static let word = "a-zA-Z0-9_"
    static let notWord = "\\x{0}-\\x{2F}\\x{3A}-\\x{40}\\x{5B}-\\x{5E}\\x{60}\\x{7B}-\\x{10FFFF}"
    static let digit = "0-9"
    static let notDigit = "\\x{0}-\\x{2F}\\x{3A}-\\x{10FFFF}"

    static func translate(_ pattern: String) -> String {
        let chars = Array(pattern.unicodeScalars)
        var out = ""
        var i = 0
        var inClass = false
        var classStart = false
        while i < chars.count {
            let c = chars[i]
            if c == "\\" {
                guard i + 1 < chars.count else { out += "\\\\"; i += 1; continue }
                let n = chars[i + 1]
                i += 2
                switch n {
                case "d": out += inClass ? digit : "[\(digit)]"
                case "D": out += inClass ? notDigit : "[\(notDigit)]"
                case "w": out += inClass ? word : "[\(word)]"
                case "W": out += inClass ? notWord : "[\(notWord)]"
                case "s": out += inClass ? whitespace : "[\(whitespace)]"
                case "S": out += inClass ? notWhitespace : "[\(notWhitespace)]"
                case "c":
                    // \cX: the control character X % 32 (ECMA-262 accepts upper and lower case letters).
                    if i < chars.count, chars[i].properties.isAlphabetic, chars[i].isASCII {
                        let value = chars[i].value % 32
                        out += String(format: "\\x{%X}", value)
                        i += 1
                    } else {
                        out += "\\\\c"
                    }
                case "u":
                    // \uXXXX, \u{X...}; a surrogate pair written as two escapes becomes one code point.
                    if i < chars.count, chars[i] == "{" {
                        var j = i + 1
                        var hex = ""
                        while j < chars.count, chars[j] != "}" { hex.unicodeScalars.append(chars[j]); j += 1 }
                        out += "\\x{\(hex)}"
                        i = j + 1
                    } else if i + 4 <= chars.count, let high = UInt32(String(String.UnicodeScalarView(chars[i..<(i + 4)])), radix: 16) {
                        i += 4
                        if (0xD800...0xDBFF).contains(high), i + 6 <= chars.count, chars[i] == "\\", chars[i + 1] == "u",
                           let low = UInt32(String(String.UnicodeScalarView(chars[(i + 2)..<(i + 6)])), radix: 16),
                           (0xDC00...0xDFFF).contains(low) {
                            i += 6
                            out += String(format: "\\x{%X}", 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                        } else {
                            out += String(format: "\\x{%X}", high)
                        }
                    } else {
                        out += "u"
                    }
                case "/": out += "/"
                case "-": out += "\\-"
                default:
                    out += "\\"
                    out.unicodeScalars.append(n)
                }
                classStart = false
                continue
            }
            if inClass {
                switch c {
                case "]":
                    if classStart {
                        // `[]` (matches nothing) or `[^]` (matches anything) in ECMA-262. Scalars, not
                        // characters: a prepended mark such as U+0600 forms one character with the `[`.
                        if out.unicodeScalars.last == "^" {
                            out.unicodeScalars.removeLast(2)
                            out += "(?s:.)"
                        } else {
                            out.unicodeScalars.removeLast(1)
                            out += "(?!)"
                        }
                    } else {
                        out += "]"
                    }
                    inClass = false
                case "[": out += "\\["
                case "&": out += "\\&"
                case "-":
                    // A `-` ending the class or followed by another `-` is a literal.
                    if i + 1 < chars.count, chars[i + 1] == "]" || chars[i + 1] == "-" { out += "\\-" } else { out += "-" }
                default:
                    out.unicodeScalars.append(c)
                }
                classStart = false
                i += 1
                continue
            }
            switch c {
            case "[":
                inClass = true
                classStart = true
                out += "["
                if i + 1 < chars.count, chars[i + 1] == "^" {
                    out += "^"
                    i += 1
                }
                i += 1
                continue
            case "$":
                out += "(?![\\s\\S])"
            case "(":
                out += "("
                // (?<name>...) is the same in ICU; lookbehind too.
            default:
                out.unicodeScalars.append(c)
            }
            i += 1
        }
        return out
    }
}

/// Matches patterns that are a plain literal, optionally anchored: no regex engine needed.
private struct LiteralMatcher {
    let text: String
    let anchoredStart: Bool
    let anchoredEnd: Bool

    /// Scalar by scalar, not character by character: `.` followed by a combining mark is one `Character` but
    /// still the regular expression's dot, and `^` followed by one is still an anchor.
    init?(_ pattern: String) {
        var body = Substring(pattern).unicodeScalars
        anchoredStart = body.first == "^"
        if anchoredStart { body = body.dropFirst() }
        anchoredEnd = body.last == "$" && body.dropLast().last != "\\"
        if anchoredEnd { body = body.dropLast() }
        let special: Set<Unicode.Scalar> = ["\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "^", "$"]
        guard !body.contains(where: { special.contains($0) }) else { return nil }
        text = String(body)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    func matches(_ string: String) -> Bool {
        switch (anchoredStart, anchoredEnd) {
        case (true, true): return string.utf8.elementsEqual(text.utf8)
        case (true, false): return string.utf8.starts(with: text.utf8)
        case (false, true): return string.utf8.reversed().starts(with: text.utf8.reversed())
        case (false, false): return Self.contains(Array(string.utf8), Array(text.utf8))
        }
    }
}
