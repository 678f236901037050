/// Expressions, from the loosest binding to the tightest: assignment (right to left), `||`, `&&`, `|`, `^`, `&`,
/// `== !=`, `< <= > >=`, `<< >> >>>`, `+ -`, `* / %`, prefix `- + ! ~ ++ --`, postfix `++ --`, then member
/// `.`, index `[]` and calls, then literals, names and parentheses. Each returns its node's index in `tree`.
extension Parser {
    mutating func expression() throws -> Int32 { try assignment() }

    mutating func assignment() throws -> Int32 {
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
        let detail = compound.map { SyntaxOperators.code($0) + 1 } ?? 0
        return try node(.assignment, tree[target].range.through(tree[value].range), detail: detail, target, value)
    }

    func checkAssignable(_ target: Int32, _ operatorToken: ArcadeToken) throws {
        switch tree[target].kind {
        case .identifier, .member, .index: return
        default:
            throw error("the left side of '\(describe(operatorToken, quoted: false))' cannot be assigned to: it must be a variable, a member or an index", at: tree[target].range)
        }
    }

    /// The precedence of a binary or logical operator, and its code (`SyntaxOperators`).
    static func binaryOperator(_ kind: ArcadeToken.Kind) -> (precedence: Int, code: UInt8, logical: Bool)? {
        guard case .punctuator(let p) = kind else { return nil }
        switch p {
        case .or: return (1, SyntaxOperators.code(.or), true)
        case .and: return (2, SyntaxOperators.code(.and), true)
        case .bitOr: return (3, SyntaxOperators.code(.bitOr), false)
        case .bitXor: return (4, SyntaxOperators.code(.bitXor), false)
        case .bitAnd: return (5, SyntaxOperators.code(.bitAnd), false)
        case .equal: return (6, SyntaxOperators.code(.equal), false)
        case .notEqual: return (6, SyntaxOperators.code(.notEqual), false)
        case .less: return (7, SyntaxOperators.code(.less), false)
        case .lessEqual: return (7, SyntaxOperators.code(.lessEqual), false)
        case .greater: return (7, SyntaxOperators.code(.greater), false)
        case .greaterEqual: return (7, SyntaxOperators.code(.greaterEqual), false)
        case .shiftLeft: return (8, SyntaxOperators.code(.shiftLeft), false)
        case .shiftRight: return (8, SyntaxOperators.code(.shiftRight), false)
        case .unsignedShiftRight: return (8, SyntaxOperators.code(.unsignedShiftRight), false)
        case .plus: return (9, SyntaxOperators.code(.add), false)
        case .minus: return (9, SyntaxOperators.code(.subtract), false)
        case .star: return (10, SyntaxOperators.code(.multiply), false)
        case .slash: return (10, SyntaxOperators.code(.divide), false)
        case .percent: return (10, SyntaxOperators.code(.remainder), false)
        default: return nil
        }
    }

    /// Precedence climbing: left-associative binary operators of at least `minimumPrecedence`. The operands of
    /// one precedence in a row make one node: `binary`/`logical` for two, `binaryChain`/`logicalChain` for more,
    /// so a chain of any length is neither a deep tree nor a deep recursion.
    mutating func binary(minimumPrecedence: Int) throws -> Int32 {
        var left = try unary()
        while let first = Parser.binaryOperator(currentKind), first.precedence >= minimumPrecedence {
            let mark = pending.count, operatorMark = pendingOperators.count
            pending.append(left)
            while let next = Parser.binaryOperator(currentKind), next.precedence == first.precedence {
                skip()
                pending.append(try binary(minimumPrecedence: first.precedence + 1))
                pendingOperators.append(next.code)
            }
            let start = tree[left].range
            let range = start.through(tree[pending[pending.count - 1]].range)
            if pending.count - mark == 2 {
                let right = pending[mark + 1]
                truncatePending(to: mark)
                left = try node(first.logical ? .logical : .binary, range, detail: first.code, left, right)
            } else if first.logical {   // one operator: `||` and `&&` each have a precedence of their own
                left = try node(.logicalChain, range, detail: first.code, from: mark)
            } else {
                // Each operand after the first in a link: its operator, and the chain so far (where an error of
                // this step is reported, as it was for the nested tree `(a + b) + c`).
                for offset in 1..<(pending.count - mark) {
                    let operand = pending[mark + offset]
                    pending[mark + offset] = try node(.chainLink, start.through(tree[operand].range),
                                                      detail: pendingOperators[operatorMark + offset - 1], operand)
                }
                left = try node(.binaryChain, range, from: mark)
            }
            while pendingOperators.count > operatorMark { pendingOperators.removeLast() }
        }
        return left
    }

    mutating func unary() throws -> Int32 {
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
            return try node(.update, range(from: start), detail: Parser.updateFlags(token, prefix: true), target)
        default:
            return try postfix()
        }
        skip()
        try enter(start)
        defer { leave() }
        let operand = try unary()
        return try node(.unary, range(from: start), detail: SyntaxOperators.code(unaryOperator!), operand)
    }

    static func updateFlags(_ token: ArcadeToken, prefix: Bool) -> UInt8 {
        (token.kind == .punctuator(.plusPlus) ? 1 : 0) | (prefix ? 2 : 0)
    }

    mutating func postfix() throws -> Int32 {
        var value = try primary()
        while true {
            switch currentKind {
            case .punctuator(.dot):
                skip()
                let name = current
                switch name.kind {
                case .identifier, .keyword: skip()
                default: throw error("expected a name after '.', found \(describe(name))", at: name.range)
                }
                let nameNode = leaf(.name, name.range, text: name.text)
                value = try node(.member, range(from: tree[value].range), value, nameNode)
            case .punctuator(.leftBracket):
                let open = advance()
                try enter(open.range)
                let index = try expression()
                leave()
                _ = try expect(.rightBracket, "", opener: open)
                value = try node(.index, range(from: tree[value].range), value, index)
            case .punctuator(.leftParen):
                let open = advance()
                try enter(open.range)
                let mark = pending.count
                pending.append(value)
                if !isPunctuator(.rightParen) {
                    repeat {
                        if isPunctuator(.rightParen) { break }   // a trailing comma
                        pending.append(try assignment())
                    } while take(.comma)
                }
                leave()
                _ = try expect(.rightParen, "", opener: open)
                value = try node(.call, range(from: tree[value].range), from: mark)
            case .punctuator(.plusPlus), .punctuator(.minusMinus) where !tokens[position].newlineBefore:
                let token = advance()
                try checkAssignable(value, token)
                return try node(.update, range(from: tree[value].range), detail: Parser.updateFlags(token, prefix: false), value)
            default:
                return value
            }
        }
    }

    mutating func primary() throws -> Int32 {
        let kind = currentKind, range = tokens[position].range
        switch kind {
        case .number:
            let number = tokens[position].number
            skip()
            return leaf(.number, range, number: number)
        case .string:
            let text = tokens[position].text
            skip()
            return leaf(.text, range, text: text)
        case .identifier:
            let text = tokens[position].text
            skip()
            return leaf(.identifier, range, text: text)
        case .keyword(.true), .keyword(.false):
            skip()
            return leaf(.boolean, range, detail: kind == .keyword(.true) ? 1 : 0)
        case .keyword(.null):
            skip()
            return leaf(.null, range)
        default:
            return try compound()
        }
    }

    /// Template literals, parentheses, arrays and dictionaries: the primaries that are more than one token.
    mutating func compound() throws -> Int32 {
        let token = current
        switch token.kind {
        case .templateFull:
            skip()
            let piece = leaf(.templatePiece, token.range, text: token.text)
            return tree.add(.template, token.range, children: CollectionOfOne(piece))
        case .templateHead:
            return try template()
        case .punctuator(.leftParen):
            let open = advance()
            try enter(open.range)
            defer { leave() }
            let inner = try expression()
            _ = try expect(.rightParen, "", opener: open)
            tree.setRange(of: inner, range(from: open.range))
            return inner
        case .punctuator(.leftBracket):
            let open = advance()
            try enter(open.range)
            defer { leave() }
            let mark = pending.count
            while !isPunctuator(.rightBracket) {
                pending.append(try assignment())
                if !take(.comma) { break }
            }
            _ = try expect(.rightBracket, "", opener: open)
            return try node(.array, range(from: open.range), from: mark)
        case .punctuator(.leftBrace):
            return try dictionary()
        case .endOfInput:
            throw error("the expression ends where a value was expected", at: token.range)
        default:
            throw error("unexpected \(describe(token)): a value was expected here", at: token.range)
        }
    }

    mutating func template() throws -> Int32 {
        let head = advance()
        let mark = pending.count
        pending.append(leaf(.templatePiece, head.range, text: head.text))
        try enter(head.range)
        defer { leave() }
        while true {
            pending.append(try expression())
            let piece = current
            switch piece.kind {
            case .templateMiddle:
                skip()
                pending.append(leaf(.templatePiece, piece.range, text: piece.text))
            case .templateTail:
                skip()
                pending.append(leaf(.templatePiece, piece.range, text: piece.text))
                return try node(.template, range(from: head.range), from: mark)
            default:
                throw error("expected '}' to close the template literal's '${', found \(describe(piece))", at: piece.range)
            }
        }
    }

    mutating func dictionary() throws -> Int32 {
        let open = advance()
        try enter(open.range)
        defer { leave() }
        let mark = pending.count
        while !isPunctuator(.rightBrace) {
            let key = current
            let name: TextSpan
            switch key.kind {
            case .string, .identifier, .keyword: name = key.text
            case .number: name = keep(ArcadeValue.formatNumber(key.number))
            case .endOfInput:
                throw error("expected '}' to close the '{' at line \(open.range.line), column \(open.range.column), found the end of the expression", at: key.range)
            default:
                throw error("expected a key (a name or a text) in the dictionary, found \(describe(key))", at: key.range)
            }
            skip()
            let keyText = text(name)
            _ = try expect(.colon, "after the dictionary key '\(keyText.prefix(40))'")
            pending.append(leaf(.name, key.range, text: name))
            pending.append(try assignment())
            if !take(.comma) { break }
        }
        _ = try expect(.rightBrace, "", opener: open)
        return try node(.dictionary, range(from: open.range), from: mark)
    }
}
