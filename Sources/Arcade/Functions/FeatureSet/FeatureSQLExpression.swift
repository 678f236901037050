import Foundation

/// The SQL-92 MapRules computes itself, on features it holds: the expressions the statistics functions take after
/// a FeatureSet (`Sum($layer, 'democrat + republican + other')`, `Average($layer, 'population / area')`) and the
/// where clauses of a FeatureSet made from JSON (`Filter(FeatureSet(json), "TYPE = 'Oak' AND DBH > 20")`).
///
/// It reads field names (case-insensitive, bare or in double quotes), numbers, 'text' (a quote doubled inside),
/// NULL, `timestamp 'YYYY-MM-DD HH:MM:SS'` and `date 'YYYY-MM-DD'` (UTC), parentheses, unary minus, + - * /,
/// comparisons (= <> != < <= > >=), IS [NOT] NULL, [NOT] IN (...), [NOT] LIKE with % and _, [NOT] BETWEEN ... AND,
/// NOT, AND, OR. Dates compute as their epoch milliseconds. NULL in, NULL out, with SQL's three-valued logic; a
/// where clause keeps the features for which it is true. Anything else is an error that names the text.
struct FeatureSQLExpression {
    indirect enum Node {
        case number(Double)
        case text(String)
        case null
        case field(String)
        case negate(Node)
        case arithmetic(Character, Node, Node)
        case compare(String, Node, Node)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        case isNull(Node, negated: Bool)
        case inList(Node, [Node], negated: Bool)
        case like(Node, Node, negated: Bool)
    }

    struct SQLError: Error, CustomStringConvertible {
        let message: String
        init(_ message: String) { self.message = message }
        var description: String { message }
    }

    let source: String
    let root: Node

    /// Parses `text`; a syntax error throws an `SQLError` whose message names the place.
    init(_ text: String) throws {
        source = text
        var parser = FeatureSQLParser(text)
        root = try parser.parseWhole()
    }

    /// The expression's value on a feature: a number, text, boolean or null.
    func value(on feature: ArcadeFeature) throws -> ArcadeValue { try evaluate(root, feature) }

    /// Whether a where clause keeps the feature (true, not false or unknown).
    func matches(_ feature: ArcadeFeature) throws -> Bool {
        if case .boolean(true) = try evaluate(root, feature) { return true }
        return false
    }

    private func evaluate(_ node: Node, _ feature: ArcadeFeature) throws -> ArcadeValue {
        switch node {
        case .number(let n): return .number(n)
        case .text(let t): return .text(t)
        case .null: return .null
        case .field(let name): return try field(name, feature)
        case .negate(let inner):
            let value = try evaluate(inner, feature)
            return value.isNull ? .null : .number(-value.numberValue)
        case .arithmetic(let op, let left, let right):
            return SQLValues.arithmetic(op, try evaluate(left, feature), try evaluate(right, feature))
        case .compare(let op, let left, let right):
            return SQLValues.compare(op, try evaluate(left, feature), try evaluate(right, feature))
        case .and(let left, let right):
            let l = try evaluate(left, feature)
            if case .boolean(false) = l { return .boolean(false) }
            let r = try evaluate(right, feature)
            if case .boolean(false) = r { return .boolean(false) }
            return l.isNull || r.isNull ? .null : .boolean(true)
        case .or(let left, let right):
            let l = try evaluate(left, feature)
            if case .boolean(true) = l { return .boolean(true) }
            let r = try evaluate(right, feature)
            if case .boolean(true) = r { return .boolean(true) }
            return l.isNull || r.isNull ? .null : .boolean(false)
        case .not(let inner):
            guard case .boolean(let b) = try evaluate(inner, feature) else { return .null }
            return .boolean(!b)
        case .isNull(let inner, let negated): return .boolean(try evaluate(inner, feature).isNull != negated)
        case .inList(let inner, let items, let negated):
            let value = try evaluate(inner, feature)
            if value.isNull { return .null }
            var unknown = false
            for item in items {
                switch SQLValues.compare("=", value, try evaluate(item, feature)) {
                case .boolean(true): return .boolean(!negated)
                case .null: unknown = true
                default: continue
                }
            }
            return unknown ? .null : .boolean(negated)
        case .like(let inner, let pattern, let negated):
            let value = try evaluate(inner, feature), wanted = try evaluate(pattern, feature)
            if value.isNull || wanted.isNull { return .null }
            return .boolean(try SQLValues.like(value.textValue, wanted.textValue) != negated)
        }
    }

    private func field(_ name: String, _ feature: ArcadeFeature) throws -> ArcadeValue {
        guard let value = feature.attributes[name] else {
            if let schema = feature.schema, schema.field(named: name) != nil { return .null }
            throw SQLError("there is no field '\(name)' in '\(source)'")
        }
        switch value {
        case .null, .number, .text: return value
        case .boolean(let b): return .number(b ? 1 : 0)
        case .date(let d): return .number(d.epochMilliseconds)
        default: throw SQLError("field '\(name)' holds a \(value.typeName), which SQL cannot compute with")
        }
    }
}

/// SQL's arithmetic, comparison and LIKE on values that are numbers, text or null.
enum SQLValues {
    static func arithmetic(_ op: Character, _ l: ArcadeValue, _ r: ArcadeValue) -> ArcadeValue {
        if l.isNull || r.isNull { return .null }
        if case .text(let a) = l, case .text(let b) = r, op == "+" { return .text(a + b) }
        let x = l.numberValue, y = r.numberValue
        switch op {
        case "+": return .number(x + y)
        case "-": return .number(x - y)
        case "*": return .number(x * y)
        default: return y == 0 ? .null : .number(x / y) // division by zero gives no value
        }
    }

    /// Numbers by value, text by UTF-16 code units, a number and a text as numbers; null: unknown.
    static func compare(_ op: String, _ l: ArcadeValue, _ r: ArcadeValue) -> ArcadeValue {
        if l.isNull || r.isNull { return .null }
        let order: Int
        if case .text(let a) = l, case .text(let b) = r {
            order = a == b ? 0 : (a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1)
        } else {
            let x = l.numberValue, y = r.numberValue
            if x.isNaN || y.isNaN { return .boolean(op == "<>" || op == "!=") }
            order = x < y ? -1 : (x > y ? 1 : 0)
        }
        switch op {
        case "=": return .boolean(order == 0)
        case "<>", "!=": return .boolean(order != 0)
        case "<": return .boolean(order < 0)
        case "<=": return .boolean(order <= 0)
        case ">": return .boolean(order > 0)
        default: return .boolean(order >= 0)
        }
    }

    /// `%` any run, `_` one character; the rest literally (case-sensitive). Without `_`, the literal pieces between
    /// the `%` are found in order in the UTF-8 bytes (linear); with `_`, a table over characters × pattern, bounded
    /// at 50 million cells (a 10 MB text with a long pattern is an error, not minutes of work).
    static func like(_ text: String, _ pattern: String) throws -> Bool {
        if !pattern.contains("_") { return likeWithoutUnderscore(Array(text.utf8), pattern) }
        let t = Array(text.unicodeScalars), p = Array(pattern.unicodeScalars)
        if t.count.multipliedReportingOverflow(by: p.count).partialValue > 50_000_000 {
            throw FeatureSQLExpression.SQLError("LIKE on a text of \(t.count) characters with a pattern of \(p.count) is too much work")
        }
        var previous = [Bool](repeating: false, count: t.count + 1)
        previous[0] = true
        for pc in p {
            var current = [Bool](repeating: false, count: t.count + 1)
            if pc == "%" { current[0] = previous[0] }
            for i in 0..<t.count {
                switch pc {
                case "%": current[i + 1] = current[i] || previous[i + 1]
                case "_": current[i + 1] = previous[i]
                default: current[i + 1] = previous[i] && t[i] == pc
                }
            }
            previous = current
        }
        return previous[t.count]
    }

    static func likeWithoutUnderscore(_ text: [UInt8], _ pattern: String) -> Bool {
        let pieces = pattern.split(separator: "%", omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard pieces.count > 1 else { return text == pieces[0] }
        let first = pieces[0], last = pieces[pieces.count - 1]
        guard text.count >= first.count + last.count, text.starts(with: first), text.suffix(last.count).elementsEqual(last) else {
            return false
        }
        var from = first.count
        let end = text.count - last.count
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = index(of: piece, in: text, from: from, before: end) else { return false }
            from = found + piece.count
        }
        return true
    }

    /// Where `needle` first starts in `haystack[from..<before]`.
    static func index(of needle: [UInt8], in haystack: [UInt8], from: Int, before: Int) -> Int? {
        guard before - from >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { h -> Int? in
            needle.withUnsafeBufferPointer { n -> Int? in
                guard let hb = h.baseAddress, let nb = n.baseAddress else { return nil }
                var offset = from
                let last = before - needle.count
                while offset <= last {
                    guard let hit = memchr(hb + offset, Int32(nb.pointee), last - offset + 1) else { return nil }
                    let position = hb.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(hb + position, nb, needle.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
