/// Expressions, from the loosest binding to the tightest: assignment (right to left), `||`, `&&`, `|`, `^`, `&`,
/// `== !=`, `< <= > >=`, `<< >> >>>`, `+ -`, `* / %`, prefix `- + ! ~ ++ --`, postfix `++ --`, then member
/// `.`, index `[]` and calls, then literals, names and parentheses.
extension Parser {
    mutating func expression() throws -> ArcadeExpression { try assignment() }

    mutating func assignment() throws -> ArcadeExpression {
        try enter(tokens[position].range)
        defer { leave() }
        let target = try binary(minimumPrecedence: 1)
        let compound: ArcadeBinaryOperator?
        switch currentKind {
        case .punctuator(.assign): compound = nil
        case .punctuator(.plusAssign): compound = .add
        case .punctuator(.minusAssign): compound = .subtract
        case .punctuator(.starAssign): compound = .multiply
        case .punctuator(.slashAssign): compound = .divide
        default: return target
        }
        let operatorToken = advance()
        try checkAssignable(target, operatorToken)
        let value = try assignment()
        return try node(.assignment(operator: compound, target: target, value: value), target.range.through(value.range), target, value)
    }

    func checkAssignable(_ target: ArcadeExpression, _ operatorToken: ArcadeToken) throws {
        switch target.kind {
        case .identifier, .member, .index: return
        default:
            throw error("the left side of '\(describe(operatorToken, quoted: false))' cannot be assigned to: it must be a variable, a member or an index", at: target.range)
        }
    }

    static func binaryOperator(_ kind: ArcadeToken.Kind) -> (precedence: Int, operator: ArcadeBinaryOperator?, logical: ArcadeLogicalOperator?)? {
        guard case .punctuator(let p) = kind else { return nil }
        switch p {
        case .or: return (1, nil, .or)
        case .and: return (2, nil, .and)
        case .bitOr: return (3, .bitOr, nil)
        case .bitXor: return (4, .bitXor, nil)
        case .bitAnd: return (5, .bitAnd, nil)
        case .equal: return (6, .equal, nil)
        case .notEqual: return (6, .notEqual, nil)
        case .less: return (7, .less, nil)
        case .lessEqual: return (7, .lessEqual, nil)
        case .greater: return (7, .greater, nil)
        case .greaterEqual: return (7, .greaterEqual, nil)
        case .shiftLeft: return (8, .shiftLeft, nil)
        case .shiftRight: return (8, .shiftRight, nil)
        case .unsignedShiftRight: return (8, .unsignedShiftRight, nil)
        case .plus: return (9, .add, nil)
        case .minus: return (9, .subtract, nil)
        case .star: return (10, .multiply, nil)
        case .slash: return (10, .divide, nil)
        case .percent: return (10, .remainder, nil)
        default: return nil
        }
    }

    /// Precedence climbing: left-associative binary operators of at least `minimumPrecedence`.
    mutating func binary(minimumPrecedence: Int) throws -> ArcadeExpression {
        var left = try unary()
        while let (precedence, binaryOperator, logicalOperator) = Parser.binaryOperator(currentKind), precedence >= minimumPrecedence {
            _ = advance()
            let right = try binary(minimumPrecedence: precedence + 1)
            let range = left.range.through(right.range)
            if let logicalOperator {
                left = try node(.logical(logicalOperator, left, right), range, left, right)
            } else if let binaryOperator {
                left = try node(.binary(binaryOperator, left, right), range, left, right)
            }
        }
        return left
    }

    mutating func unary() throws -> ArcadeExpression {
        let start = tokens[position].range
        let unaryOperator: ArcadeUnaryOperator?
        switch currentKind {
        case .punctuator(.minus): unaryOperator = .negate
        case .punctuator(.plus): unaryOperator = .plus
        case .punctuator(.not): unaryOperator = .not
        case .punctuator(.bitNot): unaryOperator = .bitNot
        case .punctuator(.plusPlus), .punctuator(.minusMinus):
            let token = advance()
            try enter(start)
            defer { leave() }
            let target = try unary()
            try checkAssignable(target, token)
            return try node(.update(increment: token.kind == .punctuator(.plusPlus), prefix: true, target: target), range(from: start), target)
        default:
            return try postfix()
        }
        _ = advance()
        try enter(start)
        defer { leave() }
        let operand = try unary()
        return try node(.unary(unaryOperator!, operand), range(from: start), operand)
    }

    mutating func postfix() throws -> ArcadeExpression {
        var value = try primary()
        while true {
            switch currentKind {
            case .punctuator(.dot):
                _ = advance()
                let name = current
                switch name.kind {
                case .identifier, .keyword: _ = advance()
                default: throw error("expected a name after '.', found \(describe(name))", at: name.range)
                }
                value = try node(.member(object: value, name: name.text, nameRange: name.range), range(from: value.range), value)
            case .punctuator(.leftBracket):
                let open = advance()
                try enter(open.range)
                let index = try expression()
                leave()
                _ = try expect(.rightBracket, "", opener: open)
                value = try node(.index(object: value, index: index), range(from: value.range), value, index)
            case .punctuator(.leftParen):
                let open = advance()
                try enter(open.range)
                var arguments: [ArcadeExpression] = []
                if !isPunctuator(.rightParen) {
                    repeat {
                        if isPunctuator(.rightParen) { break }   // a trailing comma
                        arguments.append(try assignment())
                    } while take(.comma)
                }
                leave()
                _ = try expect(.rightParen, "", opener: open)
                var height = value.height
                for argument in arguments where argument.height > height { height = argument.height }
                value = try node(.call(callee: value, arguments: arguments), range(from: value.range), ArcadeExpression(.null, value.range, height: height))
            case .punctuator(.plusPlus), .punctuator(.minusMinus) where !tokens[position].newlineBefore:
                let token = advance()
                try checkAssignable(value, token)
                value = try node(.update(increment: token.kind == .punctuator(.plusPlus), prefix: false, target: value), range(from: value.range), value)
                return value
            default:
                return value
            }
        }
    }

    mutating func primary() throws -> ArcadeExpression {
        let token = current
        switch token.kind {
        case .number:
            _ = advance()
            return ArcadeExpression(.number(token.number), token.range)
        case .string:
            _ = advance()
            return ArcadeExpression(.text(token.text), token.range)
        case .templateFull:
            _ = advance()
            return ArcadeExpression(.template(strings: [token.text], expressions: []), token.range)
        case .templateHead:
            return try template()
        case .keyword(.true), .keyword(.false):
            _ = advance()
            return ArcadeExpression(.boolean(token.kind == .keyword(.true)), token.range)
        case .keyword(.null):
            _ = advance()
            return ArcadeExpression(.null, token.range)
        case .identifier:
            _ = advance()
            return ArcadeExpression(.identifier(token.text), token.range)
        case .punctuator(.leftParen):
            let open = advance()
            try enter(open.range)
            defer { leave() }
            let inner = try expression()
            _ = try expect(.rightParen, "", opener: open)
            return ArcadeExpression(inner.kind, range(from: open.range), height: inner.height)
        case .punctuator(.leftBracket):
            let open = advance()
            try enter(open.range)
            defer { leave() }
            var elements: [ArcadeExpression] = []
            while !isPunctuator(.rightBracket) {
                elements.append(try assignment())
                if !take(.comma) { break }
            }
            _ = try expect(.rightBracket, "", opener: open)
            return try node(.array(elements), range(from: open.range), children: elements)
        case .punctuator(.leftBrace):
            return try dictionary()
        case .endOfInput:
            throw error("the expression ends where a value was expected", at: token.range)
        default:
            throw error("unexpected \(describe(token)): a value was expected here", at: token.range)
        }
    }

    mutating func template() throws -> ArcadeExpression {
        let head = advance()
        var strings = [head.text]
        var expressions: [ArcadeExpression] = []
        try enter(head.range)
        defer { leave() }
        while true {
            expressions.append(try expression())
            let piece = current
            switch piece.kind {
            case .templateMiddle:
                _ = advance()
                strings.append(piece.text)
            case .templateTail:
                _ = advance()
                strings.append(piece.text)
                return try node(.template(strings: strings, expressions: expressions), range(from: head.range), children: expressions)
            default:
                throw error("expected '}' to close the template literal's '${', found \(describe(piece))", at: piece.range)
            }
        }
    }

    mutating func dictionary() throws -> ArcadeExpression {
        let open = advance()
        try enter(open.range)
        defer { leave() }
        var entries: [ArcadeDictionaryEntry] = []
        while !isPunctuator(.rightBrace) {
            let key = current
            let name: String
            switch key.kind {
            case .string, .identifier, .keyword: name = key.text
            case .number: name = ArcadeValue.formatNumber(key.number)
            case .endOfInput:
                throw error("expected '}' to close the '{' at line \(open.range.line), column \(open.range.column), found the end of the expression", at: key.range)
            default:
                throw error("expected a key (a name or a text) in the dictionary, found \(describe(key))", at: key.range)
            }
            _ = advance()
            _ = try expect(.colon, "after the dictionary key '\(name.prefix(40))'")
            let value = try assignment()
            entries.append(ArcadeDictionaryEntry(key: name, keyRange: key.range, value: value))
            if !take(.comma) { break }
        }
        _ = try expect(.rightBrace, "", opener: open)
        return try node(.dictionary(entries), range(from: open.range), children: entries.map(\.value))
    }
}
