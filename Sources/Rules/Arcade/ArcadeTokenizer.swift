/// A token of an Arcade expression. Offsets count Unicode scalars of the expression text.
struct ArcadeToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A name: `$feature`, `Expects`, `var`, `Condition`.
        case identifier
        /// A '...' or "..." string, or a template literal with no `${}` in it; `value` is its text, escapes decoded.
        case string
        /// A template literal with interpolations (its code is tokenized like any other code).
        case template
        case number
        /// One of `( ) [ ] { } . , ;`, or any other operator character.
        case punctuation
    }

    var kind: Kind
    /// The first scalar of the token and the one after it.
    var start: Int
    var end: Int
    /// The name, the decoded string, or the punctuation character.
    var value: String
}

/// What makes an expression unreadable to the app: an unterminated string, template literal or comment, or
/// brackets that do not pair up.
struct ArcadeSyntaxProblem: Sendable, Equatable {
    /// Where the problem is: the opening quote, backtick, comment or bracket that is never closed, or the
    /// closing bracket that matches nothing.
    var offset: Int
    var message: String
}

/// Reads Arcade source into tokens, setting aside comments (`//`, `/* */`) and string contents ('...', "...",
/// backtick template literals, whose `${ ... }` interpolations are code), and checks that `( ) [ ] { }` pair
/// up. One pass, no recursion: the nesting of brackets and templates is an explicit stack, so a huge or deeply
/// nested expression costs time in proportion to its length and no call stack.
struct ArcadeTokenizer {
    private enum Frame {
        case paren(Int), bracket(Int), brace(Int)
        /// Inside `${` ... `}` of the template literal that starts at `template`.
        case interpolation(open: Int, template: Int)

        var offset: Int {
            switch self {
            case .paren(let o), .bracket(let o), .brace(let o): return o
            case .interpolation(let o, _): return o
            }
        }

        var opener: String {
            switch self {
            case .paren: return "("
            case .bracket: return "["
            case .brace: return "{"
            case .interpolation: return "${"
            }
        }
    }

    /// The tokens, in order, without comments.
    private(set) var tokens: [ArcadeToken] = []
    /// The first problem found (the app drops the expression at the first one; later ones may be echoes of it).
    private(set) var problem: ArcadeSyntaxProblem?

    private let text: [Unicode.Scalar]
    private var index = 0
    private var stack: [Frame] = []

    /// Tokenizes `text` at once.
    init(_ text: [Unicode.Scalar]) {
        self.text = text
        // About one token for every four scalars of real-looking expressions: room for them at once, and the
        // room left over given back (a map's 100,000 texts keep their tokens for all the rules).
        tokens.reserveCapacity(text.count / 4 + 4)
        run()
        if tokens.capacity > tokens.count + tokens.count / 8 + 2 { tokens = tokens.withUnsafeBufferPointer { Array($0) } }
    }

    private mutating func record(_ offset: Int, _ message: String) {
        if problem == nil { problem = ArcadeSyntaxProblem(offset: offset, message: message) }
    }

    private func at(_ i: Int) -> Unicode.Scalar? { i < text.count ? text[i] : nil }

    /// The text of scalars `range`, written straight into the string's UTF-8 storage (building a
    /// `String.UnicodeScalarView` appends scalar by scalar, which cost more than the rest of the tokenizer).
    private func string(_ range: Range<Int>) -> String {
        // ASCII text (nearly every name) is made at its exact size: a String of up to 15 bytes then lives
        // inside the value, where room for four bytes a scalar would have allocated storage for most names.
        if text[range].allSatisfy(\.isASCII) {
            return String(unsafeUninitializedCapacity: range.count) { buffer in
                for (n, scalar) in text[range].enumerated() { buffer[n] = UInt8(truncatingIfNeeded: scalar.value) }
                return range.count
            }
        }
        return String(unsafeUninitializedCapacity: range.count * 4) { buffer in
            var n = 0
            for scalar in text[range] {
                if scalar.isASCII {
                    buffer[n] = UInt8(truncatingIfNeeded: scalar.value)
                    n += 1
                } else if let encoded = UTF8.encode(scalar) {
                    for byte in encoded {
                        buffer[n] = byte
                        n += 1
                    }
                }
            }
            return n
        }
    }

    private mutating func run() {
        while index < text.count {
            let c = text[index]
            let start = index
            switch c {
            case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{FEFF}", "\u{2028}", "\u{2029}":
                index += 1
            case "/" where at(index + 1) == "/":
                while index < text.count, text[index] != "\n", text[index] != "\r" { index += 1 }
            case "/" where at(index + 1) == "*":
                index += 2
                var closed = false
                while index < text.count {
                    if text[index] == "*", at(index + 1) == "/" {
                        index += 2
                        closed = true
                        break
                    }
                    index += 1
                }
                if !closed { record(start, "the comment opened with '/*' is never closed with '*/'") }
            case "'", "\"":
                readQuotedString(quote: c)
            case "`":
                index += 1
                readTemplate(start: start, resumed: false)
            case "(":
                stack.append(.paren(start)); punctuation(start)
            case "[":
                stack.append(.bracket(start)); punctuation(start)
            case "{":
                stack.append(.brace(start)); punctuation(start)
            case ")", "]", "}":
                close(c, at: start)
            case "0"..."9":
                while index < text.count, Self.isNamePart(text[index]) || text[index] == "." { index += 1 }
                append(.number, start, string(start..<index))
            default:
                if Self.isNameStart(c) {
                    while index < text.count, Self.isNamePart(text[index]) { index += 1 }
                    append(.identifier, start, string(start..<index))
                } else {
                    punctuation(start)
                }
            }
        }
        // Whatever is still open at the end: report the innermost opener (nearest the mistake).
        if let last = stack.last {
            switch last {
            case .interpolation(let open, _):
                record(open, "the '${' interpolation of this template literal is never closed with '}'")
            default:
                record(last.offset, "'\(last.opener)' is never closed")
            }
        }
    }

    private mutating func append(_ kind: ArcadeToken.Kind, _ start: Int, _ value: String) {
        tokens.append(ArcadeToken(kind: kind, start: start, end: index, value: value))
    }

    private mutating func punctuation(_ start: Int) {
        index += 1
        append(.punctuation, start, String(Character(text[start])))
    }

    private mutating func close(_ c: Unicode.Scalar, at start: Int) {
        let expected: String
        switch c {
        case ")": expected = "("
        case "]": expected = "["
        default: expected = "{"
        }
        guard let top = stack.last else {
            record(start, "'\(c)' closes nothing: there is no '\(expected)' open before it")
            punctuation(start)
            return
        }
        switch (top, c) {
        case (.paren, ")"), (.bracket, "]"), (.brace, "}"):
            stack.removeLast()
            punctuation(start)
        case (.interpolation(_, let template), "}"):
            // The end of `${ ... }`: back to the template literal's text.
            stack.removeLast()
            index += 1
            readTemplate(start: template, resumed: true)
        default:
            record(start, "'\(c)' does not match the '\(top.opener)' still open before it")
            punctuation(start)
        }
    }

    /// A '...' or "..." string starting at `index`; an escape (`\'`, `\\`, `\n`, `\u{...}`) never ends it.
    private mutating func readQuotedString(quote: Unicode.Scalar) {
        let start = index
        index += 1
        var value = String.UnicodeScalarView()
        while index < text.count {
            let c = text[index]
            if c == quote {
                index += 1
                append(.string, start, String(value))
                return
            }
            if c == "\\" {
                readEscape(into: &value)
                continue
            }
            value.append(c)
            index += 1
        }
        index = text.count
        record(start, "the string opened with \(quote) is never closed")
    }

    /// The text of a template literal from `index` (after the backtick, or after the `}` of an interpolation)
    /// to its closing backtick or its next `${`.
    private mutating func readTemplate(start: Int, resumed: Bool) {
        var value = String.UnicodeScalarView()
        while index < text.count {
            let c = text[index]
            if c == "`" {
                index += 1
                // A literal with interpolations got its token at its first `${`.
                if !resumed { tokens.append(ArcadeToken(kind: .string, start: start, end: index, value: String(value))) }
                return
            }
            if c == "\\" {
                readEscape(into: &value)
                continue
            }
            if c == "$", at(index + 1) == "{" {
                if !resumed { tokens.append(ArcadeToken(kind: .template, start: start, end: index, value: "")) }
                stack.append(.interpolation(open: index, template: start))
                index += 2
                return
            }
            value.append(c)
            index += 1
        }
        index = text.count
        record(start, "the template literal opened with ` is never closed")
    }

    /// The escape at `index` (a backslash): its character appended to `value`, `index` moved past it.
    /// `\uXXXX` and `\u{X...}` are decoded; an escape of any other character stands for that character.
    private mutating func readEscape(into value: inout String.UnicodeScalarView) {
        guard let next = at(index + 1) else {
            index += 1
            return
        }
        if next == "u" {
            var digits = ""
            var end = index + 2
            if at(end) == "{" {
                end += 1
                while let d = at(end), d != "}", digits.count < 8 { digits.unicodeScalars.append(d); end += 1 }
                if at(end) == "}" { end += 1 }
            } else {
                while let d = at(end), digits.count < 4, d.properties.isASCIIHexDigit { digits.unicodeScalars.append(d); end += 1 }
            }
            if let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) {
                value.append(scalar)
                index = end
                return
            }
        }
        value.append(Self.escaped(next))
        index += 2
    }

    private static func escaped(_ c: Unicode.Scalar) -> Unicode.Scalar {
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        default: return c
        }
    }

    // ASCII answered without Unicode's property tables: nearly every scalar of an expression is ASCII, and the
    // table look-ups were most of the tokenizer's time.
    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isASCIILetter(c.value) || c == "$" || c == "_" }
        return c.properties.isAlphabetic
    }

    static func isNamePart(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return isASCIILetter(c.value) || (c.value >= 0x30 && c.value <= 0x39) || c == "$" || c == "_" }
        return c.properties.isAlphabetic || c.properties.numericType != nil
    }

    private static func isASCIILetter(_ value: UInt32) -> Bool {
        let lower = value | 0x20
        return lower >= 0x61 && lower <= 0x7A
    }
}
