/// Parses Arcade's text into an `ArcadeScript`, or reports the first syntax error at its place.
///
///     switch ArcadeParser.parse("var x = 1\nx + 1") {
///     case .success(let script): print(script.makeStatements().count)   // 2
///     case .failure(let errors): print(errors[0])                  // arcade/syntax at line ..., column ...
///     }
///
/// Never throws out of control and never recurses without bound: nesting deeper than `maximumNesting` (brackets,
/// blocks, unary operators) or a tree taller than `maximumHeight` is a syntax error ("nested too deeply"). A chain
/// of operators of one precedence (`1 + 1 + ... + 1`, as generated expressions have) is one flat node, however long.
public enum ArcadeParser {
    /// How deeply brackets, blocks and prefix operators may nest.
    public static let maximumNesting = 200
    /// How many levels an expression's tree may have (a chain such as `a + b + c + ...` is one level; `a.b.c...`
    /// and `f()()...` count one a step).
    public static let maximumHeight = 1000

    public static func parse(_ source: String) -> Result<ArcadeScript, ArcadeSyntaxErrors> {
        // About one node for every four bytes of real-looking expressions.
        var parser = Parser(lexer: ArcadeLexer(source), expectedNodes: min(source.utf8.count / 4 + 8, 1 << 16))
        do {
            let root = try parser.script()
            if let error = parser.lexer.error { return .failure(ArcadeSyntaxErrors(errors: [error])) }
            var tree = parser.tree
            swap(&tree.bytes, &parser.texts)
            tree.releaseSpareCapacity()
            return .success(ArcadeScript(tree: tree, root: root))
        } catch let error as ArcadeError {
            // A string, template literal or comment that is never closed turns the rest of the text into noise
            // for the parser: read the rest of the tokens, and report that (at its opening) when there is one.
            // (Only texts with a quote, backtick or slash can hold one: a megabyte of `(` is not read twice.)
            if source.utf8.contains(where: { $0 == 0x27 || $0 == 0x22 || $0 == 0x60 || $0 == 0x2F }) {
                while !parser.lexer.failed, parser.lexer.nextToken(&parser.texts).kind != .endOfInput {}
            }
            if let lexical = parser.lexer.error {
                return .failure(ArcadeSyntaxErrors(errors: [lexical]))
            }
            return .failure(ArcadeSyntaxErrors(errors: [error]))
        } catch {
            return .failure(ArcadeSyntaxErrors(errors: [ArcadeError(ruleId: ArcadeError.syntax, message: "\(error)",
                                                                    line: 1, column: 1, offset: 0)]))
        }
    }
}

/// The syntax errors of an expression, in the order of the text (today the first one only: the parser stops there).
public struct ArcadeSyntaxErrors: Error, CustomStringConvertible {
    public let errors: [ArcadeError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Recursive descent over the tokens, one function per grammar level.
struct Parser {
    let lexer: ArcadeLexer
    /// The tokens read and not yet forgotten: always at least three past `position` (or up to the end of the
    /// input), and the one before it (for `previousEnd`). Older tokens are dropped as the parser moves on.
    private(set) var tokens: [ArcadeToken] = []
    var position = 0
    /// The nodes built so far.
    var tree: SyntaxNodes
    /// Children gathered for a node not yet built (arguments, elements, statements), as a stack: each list from
    /// its mark to the top, taken off when its node is built.
    var pending: [Int32] = []
    /// The texts of the tokens read (`ArcadeToken.text` points into it): the tree's `bytes` when the parse ends.
    var texts: [UInt8] = []
    /// The operators of a chain of binary operators being read (`SyntaxOperators` codes), as a stack like `pending`.
    var pendingOperators: [UInt8] = []
    var nesting = 0
    /// How many loops enclose the current statement inside the current function (`break`, `continue` need one).
    var loops = 0

    init(lexer: ArcadeLexer, expectedNodes: Int) {
        self.lexer = lexer
        tree = SyntaxNodes(expectedNodes: expectedNodes)
        tokens.reserveCapacity(16)
        pending.reserveCapacity(32)
        // The texts are at most as long as the source, but for numbers written again as dictionary keys.
        texts.reserveCapacity(lexer.byteCount + 16)
        fill()
    }

    /// Whether the lexer has given its last token (`.endOfInput`).
    private var readAll = false

    private mutating func fill() {
        if position >= 256 {
            tokens.removeFirst(position - 1)
            position = 1
        }
        while tokens.count < position + 4 && !readAll {
            let token = lexer.nextToken(&texts)
            readAll = token.kind == .endOfInput
            tokens.append(token)
        }
    }

    var current: ArcadeToken { tokens[position] }
    /// The current token's kind, read without copying the token.
    var currentKind: ArcadeToken.Kind { tokens[position].kind }
    var previousEnd: Int { position > 0 ? tokens[position - 1].range.end : 0 }

    /// The script's statements, then its root node (the last one); returns the root's index.
    mutating func script() throws -> Int32 {
        let mark = pending.count
        while currentKind != .endOfInput {
            pending.append(try statement())
        }
        let end = tokens[position].range
        let start = mark < pending.count ? tree[pending[mark]].range : end
        let range = ArcadeSourceRange(start: 0, end: end.end, line: 1, column: 1).through(start)
        return build(.script, range, from: mark)
    }

    // MARK: - Helpers

    mutating func advance() -> ArcadeToken {
        let token = tokens[position]
        skip()
        return token
    }

    /// Moves past the current token (without copying it, as `advance` does).
    mutating func skip() {
        if position < tokens.count - 1 { position += 1 }
        fill()
    }

    /// Moves to a token already read (at most three ahead).
    mutating func move(to index: Int) {
        position = min(index, tokens.count - 1)
        fill()
    }

    func isPunctuator(_ p: ArcadePunctuator) -> Bool { currentKind == .punctuator(p) }
    func isKeyword(_ k: ArcadeKeyword) -> Bool { currentKind == .keyword(k) }

    mutating func take(_ p: ArcadePunctuator) -> Bool {
        if isPunctuator(p) { skip(); return true }
        return false
    }

    mutating func expect(_ p: ArcadePunctuator, _ what: @autoclosure () -> String, opener: ArcadeToken? = nil) throws -> ArcadeToken {
        guard isPunctuator(p) else {
            let context = what()
            var message = "expected '\(p.rawValue)'\(context.isEmpty ? "" : " " + context), found \(describe(current))"
            var place = tokens[position].range
            if let opener {
                message = "expected '\(p.rawValue)' to close the '\(describe(opener, quoted: false))' at line \(opener.range.line), column \(opener.range.column), found \(describe(current))"
                // A wrong closing bracket is the mistake; anything else means the opener is never closed.
                if ![.rightParen, .rightBracket, .rightBrace].contains(where: { currentKind == .punctuator($0) }) {
                    place = opener.range
                }
            }
            throw error(message, at: place)
        }
        return advance()
    }

    /// The text of a token (for messages and checks; the tree keeps spans, not Strings).
    func text(_ span: TextSpan) -> String {
        guard span.start >= 0 else { return "" }
        return texts.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[span.start..<span.start + span.count]), as: UTF8.self) }
    }

    /// Adds a text made here (a dictionary key written as a number) to `texts`.
    mutating func keep(_ text: String) -> TextSpan {
        let start = texts.count
        texts.append(contentsOf: text.utf8)
        return TextSpan(start: start, count: texts.count - start)
    }

    func error(_ message: String, at range: ArcadeSourceRange) -> ArcadeError {
        ArcadeError(ArcadeError.syntax, message, at: range)
    }

    func describe(_ token: ArcadeToken, quoted: Bool = true) -> String {
        switch token.kind {
        case .number: return "a number"
        case .string: return "a text"
        case .templateFull, .templateHead: return "a template literal"
        case .templateMiddle, .templateTail: return "'}'"
        case .identifier: return "'\(text(token.text).prefix(40))'"
        case .keyword: return "'\(text(token.text))'"
        case .punctuator(let p): return quoted ? "'\(p.rawValue)'" : p.rawValue
        case .endOfInput: return "the end of the expression"
        }
    }

    /// Enters one level of nesting; a syntax error past the bound.
    mutating func enter(_ at: ArcadeSourceRange) throws {
        nesting += 1
        if nesting > ArcadeParser.maximumNesting {
            throw error("nested too deeply: more than \(ArcadeParser.maximumNesting) levels of brackets, blocks or operators", at: at)
        }
    }

    mutating func leave() { nesting -= 1 }

    func range(from start: ArcadeSourceRange) -> ArcadeSourceRange {
        ArcadeSourceRange(start: start.start, end: max(start.end, previousEnd), line: start.line, column: start.column)
    }

    /// A node over one or two children, its height checked.
    mutating func node(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8 = 0, text: TextSpan = .none,
                       _ child: Int32, _ other: Int32? = nil) throws -> Int32 {
        var height = tree[child].height
        if let other { height = max(height, tree[other].height) }
        return tree.add(kind, range, detail: detail, text: text, height: try checked(height + 1, range), child, other)
    }

    /// A node over the children gathered in `pending` from `mark` (taken off), its height checked; absent
    /// children are allowed.
    mutating func node(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8 = 0, text: TextSpan = .none,
                       from mark: Int) throws -> Int32 {
        var height: Int32 = 0
        for child in pending[mark...] where child != SyntaxNodes.absent { height = max(height, tree[child].height) }
        let index = tree.add(kind, range, detail: detail, text: text, height: try checked(height + 1, range), children: pending[mark...])
        truncatePending(to: mark)
        return index
    }

    /// Takes the children gathered from `mark` off `pending` (one at a time: `removeLast(k)` goes through the
    /// general `replaceSubrange`, a cost at every node).
    @inline(__always)
    mutating func truncatePending(to mark: Int) {
        while pending.count > mark { pending.removeLast() }
    }

    /// A statement node over the children gathered from `mark` (statements are not bounded by height, but by nesting).
    mutating func build(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8 = 0, text: TextSpan = .none, from mark: Int) -> Int32 {
        let index = tree.add(kind, range, detail: detail, text: text, children: pending[mark...])
        truncatePending(to: mark)
        return index
    }

    /// A leaf: a literal, a name, a statement without parts.
    mutating func leaf(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8 = 0, text: TextSpan = .none, number: Double = 0) -> Int32 {
        tree.add(kind, range, detail: detail, text: text, number: number)
    }

    func checked(_ height: Int32, _ range: ArcadeSourceRange) throws -> Int32 {
        if height > ArcadeParser.maximumHeight {
            throw error("nested too deeply: the expression has more than \(ArcadeParser.maximumHeight) levels", at: range)
        }
        return height
    }
}
