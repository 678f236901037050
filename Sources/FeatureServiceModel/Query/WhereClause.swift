import Foundation
import WebMap
import FeatureServiceModel

/// A `where` clause refused by the parser: `offset` is the 0-based character offset where the parser
/// stopped, and `message` says what it expected there.
public struct WhereSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var offset: Int
    public var message: String
    public var description: String { "Invalid where clause at character offset \(offset): \(message)" }

    package var serviceError: ServiceError {
        ServiceError(code: 400, message: "Unable to perform query. Invalid where clause at character offset \(offset).", details: [description])
    }
}

/// The parsed form of a `where` clause: the safe SQL subset of docs/service.md (comparisons, AND / OR / NOT,
/// IN, BETWEEN, LIKE, IS [NOT] NULL, parentheses, numbers, strings, DATE and TIMESTAMP literals, UPPER and
/// LOWER). Field names are resolved against the layer's fields while parsing. The tree is compiled into
/// SQL with every literal bound as a parameter: no input text ever becomes SQL text.
public indirect enum WhereExpression: Sendable, Equatable {
    case and(WhereExpression, WhereExpression)
    case or(WhereExpression, WhereExpression)
    case not(WhereExpression)
    case compare(WhereOperand, ComparisonOperator, WhereOperand)
    case inList(WhereOperand, [WhereOperand], negated: Bool)
    case between(WhereOperand, WhereOperand, WhereOperand, negated: Bool)
    case like(WhereOperand, WhereOperand, escape: String?, negated: Bool)
    case isNull(WhereOperand, negated: Bool)

    public enum ComparisonOperator: String, Sendable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }
}

public indirect enum WhereOperand: Sendable, Equatable {
    /// A field of the layer, by its canonical name.
    case field(String)
    case integer(Int64)
    case real(Double)
    case string(String)
    /// A DATE or TIMESTAMP literal, as epoch milliseconds (UTC).
    case date(Int64)
    case upper(WhereOperand)
    case lower(WhereOperand)
}

/// Tokeniser and recursive-descent parser for `where` clauses.
public struct WhereParser {
    enum TokenKind: Equatable {
        case identifier(String)
        case quotedIdentifier(String)
        case integer(Int64)
        case real(Double)
        case string(String)
        case symbol(String)
        case end
    }

    struct Token {
        public init(kind: TokenKind, offset: Int) {
            self.kind = kind
            self.offset = offset
        }

        var kind: TokenKind
        var offset: Int
    }

    private var tokens: [Token] = []
    private var position = 0
    private let resolveField: (String) -> FieldDefinition?
    private var nesting = 0
    private var predicates = 0
    private var literals = 0

    /// Bounds that keep parsing, compiling and SQLite's expression depth and bound variables in range.
    static let maximumNesting = 32
    static let maximumPredicates = 500
    static let maximumLiterals = 10_000

    private mutating func enter(at offset: Int) throws(WhereSyntaxError) {
        nesting += 1
        guard nesting <= Self.maximumNesting else {
            throw WhereSyntaxError(offset: offset, message: "the clause nests deeper than \(Self.maximumNesting) levels")
        }
    }

    private mutating func leave() { nesting -= 1 }

    static let keywords: Set<String> = ["AND", "OR", "NOT", "IN", "BETWEEN", "LIKE", "IS", "NULL", "DATE", "TIMESTAMP", "ESCAPE", "UPPER", "LOWER"]

    /// Parses `text`; `resolveField` answers the layer's field for a name (case-insensitive) or nil.
    public static func parse(_ text: String, resolveField: @escaping (String) -> FieldDefinition?) throws(WhereSyntaxError) -> WhereExpression {
        var parser = WhereParser(resolveField: resolveField)
        // Tokenise up to the first unreadable character, parse what came before it, and report whichever
        // problem comes first in the text.
        var lexical: WhereSyntaxError?
        do { parser.tokens = try tokenize(text) } catch {
            lexical = error
            parser.tokens = (try? tokenize(String(Array(text).prefix(error.offset)))) ?? []
            if parser.tokens.isEmpty { throw error }
        }
        do throws(WhereSyntaxError) {
            let expression = try parser.parseOr()
            let next = parser.peek
            guard next.kind == .end else { throw WhereSyntaxError(offset: next.offset, message: "unexpected \(describe(next.kind)) after a complete condition") }
            if let lexical { throw lexical }
            return expression
        } catch {
            if let lexical, error.offset >= lexical.offset { throw lexical }
            throw error
        }
    }

    private init(resolveField: @escaping (String) -> FieldDefinition?) { self.resolveField = resolveField }

    // MARK: Tokens

    static func tokenize(_ text: String) throws(WhereSyntaxError) -> [Token] {
        let chars = Array(text)
        var tokens: [Token] = []
        var i = 0
        func isIdentifierStart(_ c: Character) -> Bool { c.isLetter || c == "_" }
        func isIdentifierPart(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "." }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            let start = i
            if c == "-" && i + 1 < chars.count && chars[i + 1] == "-" {
                throw WhereSyntaxError(offset: i, message: "comments ('--') are not allowed")
            }
            if c == "/" && i + 1 < chars.count && chars[i + 1] == "*" {
                throw WhereSyntaxError(offset: i, message: "comments ('/*') are not allowed")
            }
            if c == "'" {
                var value = ""
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "'" {
                        if i + 1 < chars.count && chars[i + 1] == "'" { value.append("'"); i += 2; continue }
                        i += 1
                        closed = true
                        break
                    }
                    value.append(chars[i])
                    i += 1
                }
                guard closed else { throw WhereSyntaxError(offset: start, message: "the string that starts here is never closed (double a quote inside a string: 'O''Brien')") }
                tokens.append(Token(kind: .string(value), offset: start))
                continue
            }
            if c == "\"" {
                var value = ""
                i += 1
                while i < chars.count && chars[i] != "\"" { value.append(chars[i]); i += 1 }
                guard i < chars.count else { throw WhereSyntaxError(offset: start, message: "the quoted field name that starts here is never closed") }
                i += 1
                tokens.append(Token(kind: .quotedIdentifier(value), offset: start))
                continue
            }
            if c.isASCII && c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isASCII && chars[i + 1].isNumber) {
                var text = ""
                while i < chars.count && (chars[i].isASCII && chars[i].isNumber || chars[i] == ".") { text.append(chars[i]); i += 1 }
                if i < chars.count && (chars[i] == "e" || chars[i] == "E") {
                    var exponent = String(chars[i])
                    var j = i + 1
                    if j < chars.count && (chars[j] == "+" || chars[j] == "-") { exponent.append(chars[j]); j += 1 }
                    var digits = false
                    while j < chars.count && chars[j].isASCII && chars[j].isNumber { exponent.append(chars[j]); j += 1; digits = true }
                    if digits { text += exponent; i = j }
                }
                if i < chars.count && isIdentifierStart(chars[i]) {
                    throw WhereSyntaxError(offset: start, message: "'\(text)\(chars[i])' is neither a number nor a field name")
                }
                if let int = Int64(text) { tokens.append(Token(kind: .integer(int), offset: start)) }
                else if let real = Double(text), real.isFinite { tokens.append(Token(kind: .real(real), offset: start)) }
                else { throw WhereSyntaxError(offset: start, message: "'\(text)' is not a number") }
                continue
            }
            if isIdentifierStart(c) {
                var name = ""
                while i < chars.count && isIdentifierPart(chars[i]) { name.append(chars[i]); i += 1 }
                tokens.append(Token(kind: .identifier(name), offset: start))
                continue
            }
            let two = i + 1 < chars.count ? String([c, chars[i + 1]]) : ""
            if ["<>", "<=", ">=", "!="].contains(two) {
                tokens.append(Token(kind: .symbol(two == "!=" ? "<>" : two), offset: start))
                i += 2
                continue
            }
            if "=<>(),-+".contains(c) {
                tokens.append(Token(kind: .symbol(String(c)), offset: start))
                i += 1
                continue
            }
            if c == ";" { throw WhereSyntaxError(offset: i, message: "';' is not allowed: a where clause is one condition, not a statement") }
            throw WhereSyntaxError(offset: i, message: "the character '\(c)' is not part of the supported where syntax")
        }
        tokens.append(Token(kind: .end, offset: chars.count))
        return tokens
    }

    static func describe(_ kind: TokenKind) -> String {
        switch kind {
        case .identifier(let s): return "'\(s)'"
        case .quotedIdentifier(let s): return "\"\(s)\""
        case .integer(let i): return "the number \(i)"
        case .real(let d): return "the number \(d)"
        case .string(let s): return "the string '\(s.prefix(40))'"
        case .symbol(let s): return "'\(s)'"
        case .end: return "the end of the clause"
        }
    }

    // MARK: Grammar

    private var peek: Token { tokens[position] }

    private mutating func advance() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private func isKeyword(_ token: Token, _ keyword: String) -> Bool {
        if case .identifier(let name) = token.kind { return name.uppercased() == keyword }
        return false
    }

    private mutating func accept(keyword: String) -> Bool {
        guard isKeyword(peek, keyword) else { return false }
        _ = advance()
        return true
    }

    private mutating func accept(symbol: String) -> Bool {
        guard peek.kind == .symbol(symbol) else { return false }
        _ = advance()
        return true
    }

    private mutating func expect(symbol: String, _ what: String) throws(WhereSyntaxError) {
        guard accept(symbol: symbol) else { throw WhereSyntaxError(offset: peek.offset, message: "expected \(what), found \(Self.describe(peek.kind))") }
    }

    private mutating func parseOr() throws(WhereSyntaxError) -> WhereExpression {
        var left = try parseAnd()
        while accept(keyword: "OR") { left = .or(left, try parseAnd()) }
        return left
    }

    private mutating func parseAnd() throws(WhereSyntaxError) -> WhereExpression {
        var left = try parseNot()
        while accept(keyword: "AND") { left = .and(left, try parseNot()) }
        return left
    }

    private mutating func parseNot() throws(WhereSyntaxError) -> WhereExpression {
        let offset = peek.offset
        if accept(keyword: "NOT") {
            try enter(at: offset)
            defer { leave() }
            return .not(try parseNot())
        }
        return try parsePredicate()
    }

    /// True when the parenthesis at the current position opens a condition rather than a value.
    private func parenthesisOpensCondition() -> Bool {
        // Look past the matching parenthesis: a comparison operator after it means a value in parentheses.
        var depth = 0
        var i = position
        while i < tokens.count {
            switch tokens[i].kind {
            case .symbol("("): depth += 1
            case .symbol(")"):
                depth -= 1
                if depth == 0 {
                    let next = tokens[min(i + 1, tokens.count - 1)]
                    if case .symbol(let s) = next.kind, ["=", "<>", "<", "<=", ">", ">="].contains(s) { return false }
                    return true
                }
            case .end: return true
            default: break
            }
            i += 1
        }
        return true
    }

    private mutating func parsePredicate() throws(WhereSyntaxError) -> WhereExpression {
        if peek.kind == .symbol("("), parenthesisOpensCondition() {
            try enter(at: advance().offset)
            defer { leave() }
            let inner = try parseOr()
            try expect(symbol: ")", "')' closing the parenthesis")
            return inner
        }
        predicates += 1
        guard predicates <= Self.maximumPredicates else {
            throw WhereSyntaxError(offset: peek.offset, message: "the clause has more than \(Self.maximumPredicates) conditions")
        }
        let left = try parseOperand()
        let negated = accept(keyword: "NOT")
        if accept(keyword: "IN") {
            try expect(symbol: "(", "'(' after IN")
            var items = [try parseOperand()]
            while accept(symbol: ",") { items.append(try parseOperand()) }
            try expect(symbol: ")", "',' or ')' in the IN list")
            return .inList(left, items, negated: negated)
        }
        if accept(keyword: "BETWEEN") {
            let low = try parseOperand()
            guard accept(keyword: "AND") else { throw WhereSyntaxError(offset: peek.offset, message: "expected AND in BETWEEN ... AND ..., found \(Self.describe(peek.kind))") }
            return .between(left, low, try parseOperand(), negated: negated)
        }
        if accept(keyword: "LIKE") {
            let pattern = try parseOperand()
            var escape: String?
            if accept(keyword: "ESCAPE") {
                let token = advance()
                guard case .string(let e) = token.kind, e.count == 1 else { throw WhereSyntaxError(offset: token.offset, message: "ESCAPE takes a one-character string") }
                escape = e
            }
            return .like(left, pattern, escape: escape, negated: negated)
        }
        if negated { throw WhereSyntaxError(offset: peek.offset, message: "expected IN, BETWEEN or LIKE after NOT, found \(Self.describe(peek.kind))") }
        if accept(keyword: "IS") {
            let not = accept(keyword: "NOT")
            guard accept(keyword: "NULL") else { throw WhereSyntaxError(offset: peek.offset, message: "expected NULL after IS\(not ? " NOT" : ""), found \(Self.describe(peek.kind))") }
            return .isNull(left, negated: not)
        }
        guard case .symbol(let symbol) = peek.kind, let op = WhereExpression.ComparisonOperator(rawValue: symbol) else {
            throw WhereSyntaxError(offset: peek.offset, message: "expected a comparison (=, <>, <, <=, >, >=), IN, BETWEEN, LIKE or IS NULL, found \(Self.describe(peek.kind))")
        }
        _ = advance()
        return .compare(left, op, try parseOperand())
    }

    private mutating func parseOperand() throws(WhereSyntaxError) -> WhereOperand {
        let token = advance()
        literals += 1
        guard literals <= Self.maximumLiterals else {
            throw WhereSyntaxError(offset: token.offset, message: "the clause has more than \(Self.maximumLiterals) values")
        }
        switch token.kind {
        case .integer(let i): return .integer(i)
        case .real(let d): return .real(d)
        case .string(let s): return .string(s)
        case .symbol("-"), .symbol("+"):
            let sign: Int64 = token.kind == .symbol("-") ? -1 : 1
            let next = advance()
            switch next.kind {
            case .integer(let i): return .integer(sign * i)
            case .real(let d): return .real(Double(sign) * d)
            default: throw WhereSyntaxError(offset: next.offset, message: "expected a number after the sign, found \(Self.describe(next.kind))")
            }
        case .symbol("("):
            try enter(at: token.offset)
            defer { leave() }
            let inner = try parseOperand()
            try expect(symbol: ")", "')'")
            return inner
        case .quotedIdentifier(let name):
            return .field(try field(name, at: token.offset))
        case .identifier(let name):
            let upper = name.uppercased()
            if upper == "DATE" || upper == "TIMESTAMP", case .string(let text) = peek.kind {
                let literal = advance()
                guard let ms = Self.parseDate(text, timestamp: upper == "TIMESTAMP") else {
                    throw WhereSyntaxError(offset: literal.offset, message: upper == "DATE" ? "DATE takes 'yyyy-mm-dd'" : "TIMESTAMP takes 'yyyy-mm-dd hh:mm:ss'")
                }
                return .date(ms)
            }
            if upper == "UPPER" || upper == "LOWER" {
                guard peek.kind == .symbol("(") else { throw WhereSyntaxError(offset: peek.offset, message: "expected '(' after \(upper)") }
                try enter(at: advance().offset)
                defer { leave() }
                let inner = try parseOperand()
                try expect(symbol: ")", "')' closing \(upper)(")
                return upper == "UPPER" ? .upper(inner) : .lower(inner)
            }
            if Self.keywords.contains(upper) {
                throw WhereSyntaxError(offset: token.offset, message: "expected a field name or a value, found the keyword \(upper)")
            }
            if peek.kind == .symbol("(") {
                throw WhereSyntaxError(offset: token.offset, message: "the function \(name)() is not supported (only UPPER and LOWER are)")
            }
            return .field(try field(name, at: token.offset))
        default:
            throw WhereSyntaxError(offset: token.offset, message: "expected a field name or a value, found \(Self.describe(token.kind))")
        }
    }

    private func field(_ name: String, at offset: Int) throws(WhereSyntaxError) -> String {
        guard let field = resolveField(name) else { throw WhereSyntaxError(offset: offset, message: "'\(name)' is not a field of this layer") }
        return field.name
    }

    /// `yyyy-mm-dd` or `yyyy-mm-dd hh:mm:ss` (UTC) as epoch milliseconds.
    package static func parseDate(_ text: String, timestamp: Bool) -> Int64? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count >= 1, parts.count <= 2 else { return nil }
        let ymd = parts[0].split(separator: "-").compactMap { Int($0) }
        guard ymd.count == 3 else { return nil }
        var hms = [0, 0, 0]
        if parts.count == 2 {
            let time = parts[1].split(separator: ":").map { Double($0) }
            // In range before converting: Int(nan) or Int(1e300) traps, and stopped the server.
            guard time.count >= 2, time.count <= 3, time.allSatisfy({ $0.map { $0.isFinite && $0 >= 0 && $0 < 61 } ?? false }) else { return nil }
            hms = [Int(time[0]!), Int(time[1]!), time.count == 3 ? Int(time[2]!) : 0]
        }
        guard (1...9999).contains(ymd[0]) else { return nil }
        var components = DateComponents()
        components.year = ymd[0]; components.month = ymd[1]; components.day = ymd[2]
        components.hour = hms[0]; components.minute = hms[1]; components.second = hms[2]
        guard (1...12).contains(ymd[1]), (1...31).contains(ymd[2]), (0...23).contains(hms[0]), (0...59).contains(hms[1]), (0...60).contains(hms[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
