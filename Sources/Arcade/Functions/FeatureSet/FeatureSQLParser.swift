import Foundation

/// Parses the SQL-92 of `FeatureSQLExpression` (see there for what it reads). Nesting is bounded (100 levels) and
/// so is the number of operators (1,000: a chain `1+1+1...` makes a tree as deep as it is long, which evaluation
/// walks recursively), so hostile text is an error, never a deep recursion.
struct FeatureSQLParser {
    typealias Node = FeatureSQLExpression.Node
    typealias SQLError = FeatureSQLExpression.SQLError

    let scalars: [Unicode.Scalar]
    var position = 0
    var depth = 0
    var operators = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func parseWhole() throws -> Node {
        let node = try parseOr()
        skipSpaces()
        if position < scalars.count { throw SQLError("unexpected '\(scalars[position])' at character \(position + 1)") }
        return node
    }

    mutating func parseOr() throws -> Node {
        var node = try parseAnd()
        while keyword("OR") { try count(); node = .or(node, try parseAnd()) }
        return node
    }

    mutating func parseAnd() throws -> Node {
        var node = try parseNot()
        while keyword("AND") { try count(); node = .and(node, try parseNot()) }
        return node
    }

    mutating func parseNot() throws -> Node {
        try enter()
        defer { depth -= 1 }
        if keyword("NOT") { return .not(try parseNot()) }
        return try parsePredicate()
    }

    mutating func parsePredicate() throws -> Node {
        let left = try parseSum()
        skipSpaces()
        for op in ["<>", "!=", "<=", ">=", "=", "<", ">"] where peek(op) {
            position += op.unicodeScalars.count
            return .compare(op, left, try parseSum())
        }
        if keyword("IS") {
            let negated = keyword("NOT")
            guard keyword("NULL") else { throw SQLError("IS must be followed by NULL or NOT NULL") }
            return .isNull(left, negated: negated)
        }
        let negated = keyword("NOT")
        if keyword("IN") {
            guard symbol("(") else { throw SQLError("IN must be followed by a list in parentheses") }
            var items = [try parseSum()]
            while symbol(",") { items.append(try parseSum()) }
            guard symbol(")") else { throw SQLError("a ')' is missing after the IN list") }
            return .inList(left, items, negated: negated)
        }
        if keyword("LIKE") { return .like(left, try parseSum(), negated: negated) }
        if keyword("BETWEEN") {
            let low = try parseSum()
            guard keyword("AND") else { throw SQLError("BETWEEN must be written BETWEEN low AND high") }
            let range = Node.and(.compare(">=", left, low), .compare("<=", left, try parseSum()))
            return negated ? .not(range) : range
        }
        if negated { throw SQLError("NOT must be followed by IN, LIKE or BETWEEN here") }
        return left
    }

    mutating func parseSum() throws -> Node {
        var node = try parseProduct()
        while let op = operatorAhead(["+", "-"]) { position += 1; try count(); node = .arithmetic(op, node, try parseProduct()) }
        return node
    }

    mutating func parseProduct() throws -> Node {
        var node = try parseUnary()
        while let op = operatorAhead(["*", "/"]) { position += 1; try count(); node = .arithmetic(op, node, try parseUnary()) }
        return node
    }

    mutating func parseUnary() throws -> Node {
        try enter()
        defer { depth -= 1 }
        if operatorAhead(["-"]) != nil { position += 1; return .negate(try parseUnary()) }
        if operatorAhead(["+"]) != nil { position += 1; return try parseUnary() }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws -> Node {
        skipSpaces()
        guard position < scalars.count else { throw SQLError("the expression ends where a value was expected") }
        let c = scalars[position]
        if c == "(" {
            position += 1
            let inner = try parseOr()
            guard symbol(")") else { throw SQLError("a ')' is missing") }
            return inner
        }
        if c == "'" { return .text(try quoted("'")) }
        if c == "\"" { return .field(try quoted("\"")) }
        if CharacterSet.decimalDigits.contains(c) || c == "." { return .number(try number()) }
        if CharacterSet.letters.contains(c) || c == "_" {
            let name = identifier()
            switch name.uppercased() {
            case "NULL": return .null
            case "TIMESTAMP", "DATE":
                skipSpaces()
                guard position < scalars.count, scalars[position] == "'" else { return .field(name) }
                let text = try quoted("'")
                guard let instant = Self.instant(text) else { throw SQLError("'\(text)' is not a date (YYYY-MM-DD HH:MM:SS)") }
                return .number(instant)
            default: return .field(name)
            }
        }
        throw SQLError("unexpected '\(c)' at character \(position + 1)")
    }

    /// Epoch milliseconds of 'YYYY-MM-DD[ HH:MM:SS[.fff]]' in UTC.
    static func instant(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard parts.count >= 3, parts.count <= 7 else { return nil }
        var components = DateComponents()
        components.year = parts[0]; components.month = parts[1]; components.day = parts[2]
        components.hour = parts.count > 3 ? parts[3] : 0
        components.minute = parts.count > 4 ? parts[4] : 0
        components.second = parts.count > 5 ? parts[5] : 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = ArcadeDate.utc
        guard (1...9999).contains(parts[0]), let date = calendar.date(from: components) else { return nil }
        return date.timeIntervalSince1970 * 1000
    }

    mutating func count() throws {
        operators += 1
        if operators > 1000 { throw SQLError("the expression has more than 1,000 operators") }
    }

    mutating func enter() throws {
        depth += 1
        if depth > 100 { throw SQLError("the expression is nested too deeply") }
    }

    mutating func identifier() -> String {
        let start = position
        while position < scalars.count, CharacterSet.alphanumerics.contains(scalars[position]) || scalars[position] == "_" {
            position += 1
        }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    mutating func number() throws -> Double {
        let start = position
        while position < scalars.count, CharacterSet(charactersIn: "0123456789.eE").contains(scalars[position])
            || ((scalars[position] == "-" || scalars[position] == "+") && "eE".unicodeScalars.contains(scalars[position - 1])) {
            position += 1
        }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        guard let number = Double(text) else { throw SQLError("'\(text)' is not a number") }
        return number
    }

    mutating func quoted(_ quote: Unicode.Scalar) throws -> String {
        position += 1
        var text = String.UnicodeScalarView()
        while position < scalars.count {
            let c = scalars[position]
            position += 1
            if c == quote {
                if position < scalars.count, scalars[position] == quote { text.append(c); position += 1; continue }
                return String(text)
            }
            text.append(c)
        }
        throw SQLError("a quoted text is not closed")
    }

    /// The keyword (any case) as a whole word next, consumed if so.
    mutating func keyword(_ word: String) -> Bool {
        skipSpaces()
        let letters = Array(word.unicodeScalars)
        guard position + letters.count <= scalars.count else { return false }
        for (offset, letter) in letters.enumerated()
        where String(scalars[position + offset]).uppercased() != String(letter) { return false }
        let end = position + letters.count
        if end < scalars.count, CharacterSet.alphanumerics.contains(scalars[end]) || scalars[end] == "_" { return false }
        position = end
        return true
    }

    mutating func symbol(_ s: Unicode.Scalar) -> Bool {
        skipSpaces()
        guard position < scalars.count, scalars[position] == s else { return false }
        position += 1
        return true
    }

    func peek(_ text: String) -> Bool {
        let wanted = Array(text.unicodeScalars)
        return position + wanted.count <= scalars.count && Array(scalars[position..<(position + wanted.count)]) == wanted
    }

    mutating func operatorAhead(_ operators: [Character]) -> Character? {
        skipSpaces()
        guard position < scalars.count else { return nil }
        let c = Character(scalars[position])
        return operators.contains(c) ? c : nil
    }

    mutating func skipSpaces() {
        while position < scalars.count, CharacterSet.whitespacesAndNewlines.contains(scalars[position]) { position += 1 }
    }
}
