import Foundation

/// The SQL-92 expressions the statistics functions take after a FeatureSet (`Sum($layer, 'democrat + republican +
/// other')`, `Average($layer, 'population / area')`), computed on each feature read from the source: field names
/// (case-insensitive, bare or in double quotes), numbers, 'text', NULL, parentheses, unary minus and + - * /.
/// NULL in, NULL out, as SQL; the statistics leave NULLs out. Anything else is a run error that names the text.
struct FeatureSQLExpression {
    indirect enum Node {
        case number(Double)
        case text(String)
        case null
        case field(String)
        case negate(Node)
        case binary(Character, Node, Node)
    }

    let source: String
    let root: Node

    /// Parses `text`; a syntax error throws a message for a run error.
    init(_ text: String) throws {
        source = text
        var parser = Parser(scalars: Array(text.unicodeScalars))
        root = try parser.parseWhole()
    }

    /// The expression's value on a feature: a number, text or null.
    func value(on feature: ArcadeFeature) throws -> ArcadeValue {
        try evaluate(root, feature)
    }

    private func evaluate(_ node: Node, _ feature: ArcadeFeature) throws -> ArcadeValue {
        switch node {
        case .number(let n): return .number(n)
        case .text(let t): return .text(t)
        case .null: return .null
        case .field(let name):
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
        case .negate(let inner):
            let value = try evaluate(inner, feature)
            if value.isNull { return .null }
            return .number(-value.numberValue)
        case .binary(let op, let left, let right):
            let l = try evaluate(left, feature), r = try evaluate(right, feature)
            if l.isNull || r.isNull { return .null }
            if case .text(let a) = l, case .text(let b) = r, op == "+" { return .text(a + b) }
            let x = l.numberValue, y = r.numberValue
            switch op {
            case "+": return .number(x + y)
            case "-": return .number(x - y)
            case "*": return .number(x * y)
            default: return y == 0 ? .null : .number(x / y) // SQL: division by zero gives no value here
            }
        }
    }

    struct SQLError: Error { let message: String; init(_ message: String) { self.message = message } }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0
        var depth = 0

        mutating func parseWhole() throws -> Node {
            let node = try parseSum()
            skipSpaces()
            if position < scalars.count { throw SQLError("unexpected '\(scalars[position])' at character \(position + 1)") }
            return node
        }

        mutating func parseSum() throws -> Node {
            var node = try parseProduct()
            while let op = peekOperator(["+", "-"]) { position += 1; node = .binary(op, node, try parseProduct()) }
            return node
        }

        mutating func parseProduct() throws -> Node {
            var node = try parseUnary()
            while let op = peekOperator(["*", "/"]) { position += 1; node = .binary(op, node, try parseUnary()) }
            return node
        }

        mutating func parseUnary() throws -> Node {
            depth += 1
            defer { depth -= 1 }
            if depth > 100 { throw SQLError("the expression is nested too deeply") }
            if peekOperator(["-"]) != nil { position += 1; return .negate(try parseUnary()) }
            if peekOperator(["+"]) != nil { position += 1; return try parseUnary() }
            return try parsePrimary()
        }

        mutating func parsePrimary() throws -> Node {
            skipSpaces()
            guard position < scalars.count else { throw SQLError("the expression ends where a value was expected") }
            let c = scalars[position]
            if c == "(" {
                position += 1
                let inner = try parseSum()
                skipSpaces()
                guard position < scalars.count, scalars[position] == ")" else { throw SQLError("a ')' is missing") }
                position += 1
                return inner
            }
            if c == "'" { return .text(try quoted("'")) }
            if c == "\"" { return .field(try quoted("\"")) }
            if CharacterSet.decimalDigits.contains(c) || c == "." {
                let start = position
                while position < scalars.count, CharacterSet(charactersIn: "0123456789.eE").contains(scalars[position])
                    || ((scalars[position] == "-" || scalars[position] == "+") && "eE".unicodeScalars.contains(scalars[position - 1])) {
                    position += 1
                }
                let text = String(String.UnicodeScalarView(scalars[start..<position]))
                guard let number = Double(text) else { throw SQLError("'\(text)' is not a number") }
                return .number(number)
            }
            if CharacterSet.letters.contains(c) || c == "_" {
                let start = position
                while position < scalars.count, CharacterSet.alphanumerics.contains(scalars[position]) || scalars[position] == "_" {
                    position += 1
                }
                let name = String(String.UnicodeScalarView(scalars[start..<position]))
                return name.uppercased() == "NULL" ? .null : .field(name)
            }
            throw SQLError("unexpected '\(c)' at character \(position + 1)")
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

        mutating func peekOperator(_ operators: [Character]) -> Character? {
            skipSpaces()
            guard position < scalars.count else { return nil }
            let c = Character(scalars[position])
            return operators.contains(c) ? c : nil
        }

        mutating func skipSpaces() {
            while position < scalars.count, CharacterSet.whitespacesAndNewlines.contains(scalars[position]) { position += 1 }
        }
    }
}
