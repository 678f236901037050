/// Turns Arcade's text into tokens. Works on the UTF-8 bytes and counts Unicode scalars as it goes, so every
/// token carries scalar offsets, line and column. Stops at the first error (unterminated string, template or
/// comment, a character Arcade does not know) and reports it at its place.
final class ArcadeLexer {
    /// The text's UTF-8 bytes, copied once (freed with the lexer).
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private var index = 0
    /// Scalar offset of `index`.
    private var scalar = 0
    private var line = 1
    /// Scalar offset where the current line starts.
    private var lineStart = 0
    /// Open template placeholders: for each, how many `{` are open inside it.
    private var templateBraces: [Int] = []
    /// For each open placeholder, where its template literal starts (its opening backtick): a literal that is
    /// never closed is reported there, where the reader has to look.
    private var templateStarts: [ArcadeSourceRange] = []
    private var sawNewline = false

    /// The first error, if any. `failed` says the same without copying it (the lexer asks at every token).
    private(set) var error: ArcadeError?
    private(set) var failed = false
    private var finished = false

    init(_ source: String) {
        var text = source
        text.makeContiguousUTF8()
        storage = text.utf8.withContiguousStorageIfAvailable { bytes in
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = copy.initialize(from: bytes)
            return copy
        } ?? {
            let bytes = Array(text.utf8)
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = copy.initialize(from: bytes)
            return copy
        }()
    }

    deinit { storage.deallocate() }

    /// The source's length in UTF-8 bytes.
    var byteCount: Int { storage.count }

    /// The next token; `.endOfInput` at the end and after an error (read `error`). Tokens are read one at a time,
    /// as the parser asks, so a parser that stops early (nesting too deep) never reads the rest of the text.
    ///
    /// The texts of names and literals are appended to `texts` (names as written, literals' values with their
    /// escapes applied); the token points into it (`ArcadeToken.text`).
    func nextToken(_ texts: inout [UInt8]) -> ArcadeToken {
        if !finished {
            let buffer = UnsafeBufferPointer(storage)
            skipSpaceAndComments(buffer)
            if !failed, index < buffer.count {
                let newline = sawNewline
                sawNewline = false
                if var token = next(buffer, &texts) {
                    token.newlineBefore = newline
                    return token
                }
            }
            finished = true
            if !failed && !templateBraces.isEmpty {
                fail("unterminated template literal: a `${` placeholder is never closed by `}`", at: here(), length: 0)
            }
        }
        var end = ArcadeToken(kind: .endOfInput, range: here())
        end.newlineBefore = true
        return end
    }

    // MARK: - Positions

    private func here() -> ArcadeSourceRange {
        ArcadeSourceRange(start: scalar, end: scalar, line: line, column: scalar - lineStart + 1)
    }

    private func range(from start: ArcadeSourceRange) -> ArcadeSourceRange {
        ArcadeSourceRange(start: start.start, end: scalar, line: start.line, column: start.column)
    }

    private func fail(_ message: String, at position: ArcadeSourceRange, length: Int = 1) {
        guard !failed else { return }
        failed = true
        error = ArcadeError(ruleId: ArcadeError.syntax, message: message, line: position.line,
                            column: position.column, offset: position.start, length: max(1, length))
    }

    /// Moves past one byte, counting scalars and lines.
    @inline(__always)
    private func advance(_ buffer: UnsafeBufferPointer<UInt8>) {
        let byte = buffer[index]
        index += 1
        if byte & 0xC0 != 0x80 { scalar += 1 }
        if byte == 0x0A || (byte == 0x0D && (index >= buffer.count || buffer[index] != 0x0A)) {
            line += 1
            lineStart = scalar
            sawNewline = true
        }
    }

    private func peek(_ buffer: UnsafeBufferPointer<UInt8>, _ ahead: Int = 0) -> UInt8 {
        index + ahead < buffer.count ? buffer[index + ahead] : 0
    }

    // MARK: - Space and comments

    private func skipSpaceAndComments(_ buffer: UnsafeBufferPointer<UInt8>) {
        while index < buffer.count {
            let byte = buffer[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                advance(buffer)
            case 0xC2 where peek(buffer, 1) == 0xA0:   // no-break space
                advance(buffer); advance(buffer)
            case 0xEF where peek(buffer, 1) == 0xBB && peek(buffer, 2) == 0xBF:   // byte order mark
                advance(buffer); advance(buffer); advance(buffer)
            case 0xE2 where peek(buffer, 1) == 0x80 && (peek(buffer, 2) == 0xA8 || peek(buffer, 2) == 0xA9):
                advance(buffer); advance(buffer); advance(buffer)   // line and paragraph separators
                line += 1
                lineStart = scalar
                sawNewline = true
            case UInt8(ascii: "/") where peek(buffer, 1) == UInt8(ascii: "/"):
                while index < buffer.count && buffer[index] != 0x0A && buffer[index] != 0x0D { advance(buffer) }
            case UInt8(ascii: "/") where peek(buffer, 1) == UInt8(ascii: "*"):
                let start = here()
                advance(buffer); advance(buffer)
                var closed = false
                while index < buffer.count {
                    if buffer[index] == UInt8(ascii: "*") && peek(buffer, 1) == UInt8(ascii: "/") {
                        advance(buffer); advance(buffer)
                        closed = true
                        break
                    }
                    advance(buffer)
                }
                if !closed {
                    fail("unterminated comment: `/*` is never closed by `*/`", at: start, length: 2)
                    return
                }
            default:
                return
            }
        }
    }

    // MARK: - Tokens

    private func next(_ buffer: UnsafeBufferPointer<UInt8>, _ texts: inout [UInt8]) -> ArcadeToken? {
        let start = here()
        let byte = buffer[index]
        if isIdentifierStart(byte) { return identifier(buffer, &texts, start) }
        if isDigit(byte) || (byte == UInt8(ascii: ".") && isDigit(peek(buffer, 1))) { return number(buffer, start) }
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return string(buffer, &texts, start, quote: byte)
        case UInt8(ascii: "`"):
            advance(buffer)
            return templatePiece(buffer, &texts, start, opening: true, literal: start)
        case UInt8(ascii: "{"):
            if !templateBraces.isEmpty { templateBraces[templateBraces.count - 1] += 1 }
        case UInt8(ascii: "}"):
            if let open = templateBraces.last {
                if open == 0 {
                    templateBraces.removeLast()
                    let literal = templateStarts.popLast() ?? start
                    advance(buffer)
                    return templatePiece(buffer, &texts, start, opening: false, literal: literal)
                }
                templateBraces[templateBraces.count - 1] -= 1
            }
        default:
            break
        }
        return punctuator(buffer, start)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x24 || byte >= 0xC0
    }

    private func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) || (byte >= 0x80) }

    private func identifier(_ buffer: UnsafeBufferPointer<UInt8>, _ texts: inout [UInt8], _ start: ArcadeSourceRange) -> ArcadeToken {
        // No byte of a name breaks a line: move over it counting scalars only.
        let first = index
        var continuations = 0
        while index < buffer.count {
            let byte = buffer[index]
            guard isIdentifierPart(byte) else { break }
            if byte & 0xC0 == 0x80 { continuations += 1 }
            index += 1
        }
        scalar += index - first - continuations
        let word = UnsafeBufferPointer(rebasing: buffer[first..<index])
        let text = TextSpan(start: texts.count, count: word.count)
        texts.append(contentsOf: word)
        let range = range(from: start)
        if let keyword = ArcadeLexer.keyword(word) {
            return ArcadeToken(kind: .keyword(keyword), text: text, range: range)
        }
        return ArcadeToken(kind: .identifier, text: text, range: range)
    }

    /// The keyword these bytes spell in any case, without building a string.
    static func keyword(_ word: UnsafeBufferPointer<UInt8>) -> ArcadeKeyword? {
        guard word.count >= 2 && word.count <= 8 else { return nil }
        @inline(__always) func matches(_ spelled: StaticString) -> Bool {
            guard spelled.utf8CodeUnitCount == word.count else { return false }
            let letters = spelled.utf8Start
            for i in 0..<word.count where word[i] | 0x20 != letters[i] { return false }
            return true
        }
        switch word[0] | 0x20 {
        case UInt8(ascii: "v"): return matches("var") ? .var : nil
        case UInt8(ascii: "i"): return matches("if") ? .if : (matches("in") ? .in : nil)
        case UInt8(ascii: "e"): return matches("else") ? .else : nil
        case UInt8(ascii: "f"): return matches("for") ? .for : (matches("function") ? .function : (matches("false") ? .false : nil))
        case UInt8(ascii: "w"): return matches("while") ? .while : nil
        case UInt8(ascii: "b"): return matches("break") ? .break : nil
        case UInt8(ascii: "c"): return matches("continue") ? .continue : nil
        case UInt8(ascii: "r"): return matches("return") ? .return : nil
        case UInt8(ascii: "t"): return matches("true") ? .true : nil
        case UInt8(ascii: "n"): return matches("null") ? .null : nil
        default: return nil
        }
    }

    private func number(_ buffer: UnsafeBufferPointer<UInt8>, _ start: ArcadeSourceRange) -> ArcadeToken? {
        let first = index
        while isDigit(peek(buffer)) { advance(buffer) }
        if peek(buffer) == UInt8(ascii: ".") {
            advance(buffer)
            while isDigit(peek(buffer)) { advance(buffer) }
        }
        if peek(buffer) == UInt8(ascii: "e") || peek(buffer) == UInt8(ascii: "E") {
            let sign = peek(buffer, 1) == UInt8(ascii: "+") || peek(buffer, 1) == UInt8(ascii: "-") ? 1 : 0
            if isDigit(peek(buffer, 1 + sign)) {
                advance(buffer)
                if sign == 1 { advance(buffer) }
                while isDigit(peek(buffer)) { advance(buffer) }
            }
        }
        if isIdentifierStart(peek(buffer)) {
            fail("a number cannot be followed directly by a letter", at: here())
            return nil
        }
        // Whole numbers of up to 15 digits (most literals: indexes, counts, years) are exact as Int: no text to parse.
        if index - first <= 15 {
            var whole = 0
            var digitsOnly = true
            for offset in first..<index {
                let byte = buffer[offset]
                guard isDigit(byte) else { digitsOnly = false; break }
                whole = whole * 10 + Int(byte - 0x30)
            }
            if digitsOnly { return ArcadeToken(kind: .number, number: Double(whole), range: range(from: start)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[first..<index]), as: UTF8.self)
        guard let value = Double(text) else {
            fail("'\(text.prefix(40))' is not a number", at: start, length: index - first)
            return nil
        }
        return ArcadeToken(kind: .number, number: value, range: range(from: start))
    }

    private func string(_ buffer: UnsafeBufferPointer<UInt8>, _ texts: inout [UInt8], _ start: ArcadeSourceRange, quote: UInt8) -> ArcadeToken? {
        advance(buffer)
        let valueStart = texts.count
        var runStart = index
        while true {
            guard index < buffer.count else {
                fail("unterminated text: the string is never closed by \(quote == 0x22 ? "\"" : "'")", at: start)
                return nil
            }
            let byte = buffer[index]
            if byte == quote || byte == UInt8(ascii: "\\") || byte == 0x0A || byte == 0x0D {
                appendRun(buffer, &texts, from: runStart)
                if byte == quote {
                    advance(buffer)
                    return ArcadeToken(kind: .string, text: TextSpan(start: valueStart, count: texts.count - valueStart), range: range(from: start))
                }
                if byte != UInt8(ascii: "\\") {
                    fail("unterminated text: a line ends before the string is closed by \(quote == 0x22 ? "\"" : "'")", at: start)
                    return nil
                }
                guard escape(buffer, &texts) else { return nil }
                runStart = index
            } else {
                // Bulk skip: bytes inside a run need no line bookkeeping beyond scalar counting; eight at a time
                // while none of them ends the run.
                skipPlainBytes(buffer, quote: quote)
            }
        }
    }

    /// Appends the bytes from `start` to `index` to the literal's value being read (at the end of `texts`).
    @inline(__always)
    private func appendRun(_ buffer: UnsafeBufferPointer<UInt8>, _ texts: inout [UInt8], from start: Int) {
        if start < index { texts.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index])) }
    }

    /// Moves over bytes that are neither `quote`, a backslash nor a line break, eight at a time where it can
    /// (counting the scalars they hold: every byte that is not a UTF-8 continuation byte starts one).
    private func skipPlainBytes(_ buffer: UnsafeBufferPointer<UInt8>, quote: UInt8) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
            let x = word ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & highs != 0
        }
        guard let base = buffer.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= buffer.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if hasByte(word, quote) || hasByte(word, 0x5C) || hasByte(word, 0x0A) || hasByte(word, 0x0D) { break }
            let continuations = (word & ~(word << 1) & highs).nonzeroBitCount
            scalar += 8 - continuations
            index += 8
        }
        // The text may end right after the last whole word (an unterminated string of the right length).
        guard index < buffer.count else { return }
        let byte = buffer[index]
        if byte != quote && byte != 0x5C && byte != 0x0A && byte != 0x0D {
            index += 1
            if byte & 0xC0 != 0x80 { scalar += 1 }
        }
    }

    /// Reads `\x` at `index` and appends its value to the literal's (at the end of `texts`). Unknown escapes
    /// stand for the character itself, as in JavaScript, on which Arcade runs.
    private func escape(_ buffer: UnsafeBufferPointer<UInt8>, _ texts: inout [UInt8]) -> Bool {
        let start = here()
        advance(buffer)   // the backslash
        guard index < buffer.count else {
            fail("unterminated text after `\\`", at: start)
            return false
        }
        let byte = buffer[index]
        switch byte {
        case UInt8(ascii: "n"): texts.append(0x0A); advance(buffer)
        case UInt8(ascii: "t"): texts.append(0x09); advance(buffer)
        case UInt8(ascii: "r"): texts.append(0x0D); advance(buffer)
        case UInt8(ascii: "b"): texts.append(0x08); advance(buffer)
        case UInt8(ascii: "f"): texts.append(0x0C); advance(buffer)
        case UInt8(ascii: "v"): texts.append(0x0B); advance(buffer)
        case UInt8(ascii: "0") where !isDigit(peek(buffer, 1)): texts.append(0x00); advance(buffer)
        case UInt8(ascii: "u"):
            advance(buffer)
            var code: UInt32 = 0
            if peek(buffer) == UInt8(ascii: "{") {
                advance(buffer)
                var digits = 0
                while let digit = hexValue(peek(buffer)), digits < 8 {
                    code = code * 16 + digit
                    digits += 1
                    advance(buffer)
                }
                guard digits > 0, peek(buffer) == UInt8(ascii: "}") else {
                    fail("`\\u{...}` needs hexadecimal digits and a closing `}`", at: start, length: 2)
                    return false
                }
                advance(buffer)
            } else {
                for _ in 0..<4 {
                    guard let digit = hexValue(peek(buffer)) else {
                        fail("`\\u` must be followed by four hexadecimal digits", at: start, length: 2)
                        return false
                    }
                    code = code * 16 + digit
                    advance(buffer)
                }
                // A UTF-16 surrogate pair written as two escapes: \uD83D\uDE00.
                if (0xD800...0xDBFF).contains(code), peek(buffer) == UInt8(ascii: "\\"), peek(buffer, 1) == UInt8(ascii: "u") {
                    var low: UInt32 = 0
                    var ok = true
                    for k in 0..<4 {
                        guard let digit = hexValue(peek(buffer, 2 + k)) else { ok = false; break }
                        low = low * 16 + digit
                    }
                    if ok && (0xDC00...0xDFFF).contains(low) {
                        for _ in 0..<6 { advance(buffer) }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                }
            }
            UTF8.encode(Unicode.Scalar(code) ?? "\u{FFFD}") { texts.append($0) }
        case 0x0D:
            advance(buffer)   // a line continuation: backslash, line break
            if peek(buffer) == 0x0A { advance(buffer) }
        case 0x0A:
            advance(buffer)
        default:
            // The character itself (\\, \', \", \`, \$, \/ and any other).
            let first = index
            advance(buffer)
            while index < buffer.count && buffer[index] & 0xC0 == 0x80 { advance(buffer) }
            texts.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[first..<index]))
        }
        return true
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    /// A piece of a template literal, from just after `` ` `` or a placeholder's `}` to `` ` `` or `${`.
    private func templatePiece(_ buffer: UnsafeBufferPointer<UInt8>, _ texts: inout [UInt8], _ start: ArcadeSourceRange, opening: Bool,
                               literal: ArcadeSourceRange) -> ArcadeToken? {
        let valueStart = texts.count
        var runStart = index
        while true {
            guard index < buffer.count else {
                fail("unterminated template literal: it is never closed by a backtick", at: literal)
                return nil
            }
            let byte = buffer[index]
            if byte == UInt8(ascii: "`") || byte == UInt8(ascii: "\\") || (byte == UInt8(ascii: "$") && peek(buffer, 1) == UInt8(ascii: "{")) {
                appendRun(buffer, &texts, from: runStart)
                let value = TextSpan(start: valueStart, count: texts.count - valueStart)
                if byte == UInt8(ascii: "\\") {
                    guard escape(buffer, &texts) else { return nil }
                    runStart = index
                    continue
                }
                if byte == UInt8(ascii: "`") {
                    advance(buffer)
                    return ArcadeToken(kind: opening ? .templateFull : .templateTail, text: value, range: range(from: start))
                }
                advance(buffer); advance(buffer)
                if templateBraces.count >= 64 {
                    fail("template literals are nested too deeply", at: start)
                    return nil
                }
                templateBraces.append(0)
                templateStarts.append(literal)
                return ArcadeToken(kind: opening ? .templateHead : .templateMiddle, text: value, range: range(from: start))
            }
            advance(buffer)
        }
    }

    private func punctuator(_ buffer: UnsafeBufferPointer<UInt8>, _ start: ArcadeSourceRange) -> ArcadeToken? {
        let a = buffer[index], b = peek(buffer, 1), c = peek(buffer, 2)
        func ascii(_ s: Unicode.Scalar) -> UInt8 { UInt8(ascii: s) }
        var length = 1
        let symbol: ArcadePunctuator?
        switch a {
        case ascii("("): symbol = .leftParen
        case ascii(")"): symbol = .rightParen
        case ascii("["): symbol = .leftBracket
        case ascii("]"): symbol = .rightBracket
        case ascii("{"): symbol = .leftBrace
        case ascii("}"): symbol = .rightBrace
        case ascii(","): symbol = .comma
        case ascii(";"): symbol = .semicolon
        case ascii(":"): symbol = .colon
        case ascii("."): symbol = .dot
        case ascii("~"): symbol = .bitNot
        case ascii("^"): symbol = .bitXor
        case ascii("%"): symbol = .percent
        case ascii("+"):
            if b == ascii("+") { symbol = .plusPlus; length = 2 } else if b == ascii("=") { symbol = .plusAssign; length = 2 } else { symbol = .plus }
        case ascii("-"):
            if b == ascii("-") { symbol = .minusMinus; length = 2 } else if b == ascii("=") { symbol = .minusAssign; length = 2 } else { symbol = .minus }
        case ascii("*"):
            if b == ascii("=") { symbol = .starAssign; length = 2 } else { symbol = .star }
        case ascii("/"):
            if b == ascii("=") { symbol = .slashAssign; length = 2 } else { symbol = .slash }
        case ascii("="):
            if b == ascii("=") { symbol = .equal; length = 2 } else { symbol = .assign }
        case ascii("!"):
            if b == ascii("=") { symbol = .notEqual; length = 2 } else { symbol = .not }
        case ascii("<"):
            if b == ascii("=") { symbol = .lessEqual; length = 2 } else if b == ascii("<") { symbol = .shiftLeft; length = 2 } else { symbol = .less }
        case ascii(">"):
            if b == ascii("=") { symbol = .greaterEqual; length = 2 }
            else if b == ascii(">") && c == ascii(">") { symbol = .unsignedShiftRight; length = 3 }
            else if b == ascii(">") { symbol = .shiftRight; length = 2 }
            else { symbol = .greater }
        case ascii("&"):
            if b == ascii("&") { symbol = .and; length = 2 } else { symbol = .bitAnd }
        case ascii("|"):
            if b == ascii("|") { symbol = .or; length = 2 } else { symbol = .bitOr }
        default: symbol = nil
        }
        guard let symbol else {
            let first = index
            advance(buffer)
            while index < buffer.count && buffer[index] & 0xC0 == 0x80 { advance(buffer) }
            let character = String(decoding: UnsafeBufferPointer(rebasing: buffer[first..<index]), as: UTF8.self)
            let shown = character.unicodeScalars.first.map { $0.value < 0x20 ? "U+" + String($0.value, radix: 16, uppercase: true) : character } ?? character
            fail("unexpected character '\(shown)'", at: start)
            return nil
        }
        for _ in 0..<length { advance(buffer) }
        return ArcadeToken(kind: .punctuator(symbol), range: range(from: start))
    }
}
