/// Statements: `var`, `if`, `for`, `for-in`, `while`, `break`, `continue`, `return`, `function`, blocks and
/// expression statements; `;` is optional at a line end, before `}` and at the end.
extension Parser {
    mutating func statement() throws -> Int32 {
        try enter(tokens[position].range)
        defer { leave() }
        let start = tokens[position].range
        switch currentKind {
        case .punctuator(.leftBrace):
            let mark = pending.count
            try block()
            return build(.block, range(from: start), from: mark)
        case .punctuator(.semicolon):
            skip()
            return leaf(.empty, start)
        case .keyword(.var):
            skip()
            let mark = pending.count
            try variableDeclarations()
            try endOfStatement()
            return build(.variables, range(from: start), from: mark)
        case .keyword(.if):
            skip()
            let open = try expect(.leftParen, "after 'if'")
            let mark = pending.count
            pending.append(try expression())
            _ = try expect(.rightParen, "", opener: open)
            pending.append(try statement())
            var otherwise = SyntaxNodes.absent
            if isKeyword(.else) {
                skip()
                otherwise = try statement()
            }
            pending.append(otherwise)
            return build(.if, range(from: start), from: mark)
        case .keyword(.for):
            return try forStatement()
        case .keyword(.while):
            skip()
            let open = try expect(.leftParen, "after 'while'")
            let mark = pending.count
            pending.append(try expression())
            _ = try expect(.rightParen, "", opener: open)
            pending.append(try loopBody())
            return build(.while, range(from: start), from: mark)
        case .keyword(.break):
            guard loops > 0 else { throw error("'break' outside a loop", at: start) }
            skip()
            try endOfStatement()
            return leaf(.break, start)
        case .keyword(.continue):
            guard loops > 0 else { throw error("'continue' outside a loop", at: start) }
            skip()
            try endOfStatement()
            return leaf(.continue, start)
        case .keyword(.return):
            skip()
            let mark = pending.count
            if !isPunctuator(.semicolon) && !isPunctuator(.rightBrace) && currentKind != .endOfInput && !tokens[position].newlineBefore {
                pending.append(try expression())
            }
            try endOfStatement()
            return build(.return, range(from: start), from: mark)
        case .keyword(.function):
            return try functionDeclaration()
        case .keyword(.else):
            throw error("'else' without an 'if' before it", at: start)
        case .keyword(.in):
            throw error("unexpected 'in'", at: start)
        default:
            let mark = pending.count
            pending.append(try expression())
            try endOfStatement()
            return build(.expressionStatement, range(from: start), from: mark)
        }
    }

    mutating func loopBody() throws -> Int32 {
        loops += 1
        defer { loops -= 1 }
        return try statement()
    }

    /// `{ statements }`: the statements onto `pending`.
    mutating func block() throws {
        let open = try expect(.leftBrace, "")
        while !isPunctuator(.rightBrace) {
            if currentKind == .endOfInput {
                throw error("expected '}' to close the '{' at line \(open.range.line), column \(open.range.column), found the end of the expression", at: tokens[position].range)
            }
            pending.append(try statement())
        }
        skip()
    }

    mutating func endOfStatement() throws {
        if take(.semicolon) { return }
        if isPunctuator(.rightBrace) || currentKind == .endOfInput || tokens[position].newlineBefore { return }
        throw error("unexpected \(describe(current)): expected ';' or a line break before it", at: tokens[position].range)
    }

    /// `a = 1, b`: the declarations onto `pending`.
    mutating func variableDeclarations() throws {
        repeat {
            guard currentKind == .identifier else {
                throw error("expected a variable name after 'var', found \(describe(current))", at: tokens[position].range)
            }
            let name = advance()
            let initializer = take(.assign) ? try assignment() : SyntaxNodes.absent
            pending.append(tree.add(.declaration, name.range, text: name.text, children: CollectionOfOne(initializer)))
        } while take(.comma)
    }

    mutating func forStatement() throws -> Int32 {
        let start = advance().range
        let open = try expect(.leftParen, "after 'for'")
        // for (var k in x) / for (k in x)
        let declares = isKeyword(.var)
        let nameIndex = position + (declares ? 1 : 0)
        if nameIndex + 1 < tokens.count, tokens[nameIndex].kind == .identifier, tokens[nameIndex + 1].kind == .keyword(.in) {
            let name = tokens[nameIndex]
            move(to: nameIndex + 2)
            let mark = pending.count
            pending.append(leaf(.name, name.range, text: name.text))
            pending.append(try expression())
            _ = try expect(.rightParen, "", opener: open)
            pending.append(try loopBody())
            return build(.forIn, range(from: start), detail: declares ? 1 : 0, from: mark)
        }
        let mark = pending.count
        var initializer = SyntaxNodes.absent
        if !isPunctuator(.semicolon) {
            let initStart = tokens[position].range
            let initMark = pending.count
            if take(.keyword(.var)) {
                try variableDeclarations()
                initializer = build(.variables, range(from: initStart), from: initMark)
            } else {
                pending.append(try expression())
                initializer = build(.expressionStatement, range(from: initStart), from: initMark)
            }
        }
        pending.append(initializer)
        _ = try expect(.semicolon, "after the loop's initialiser")
        pending.append(isPunctuator(.semicolon) ? SyntaxNodes.absent : try expression())
        _ = try expect(.semicolon, "after the loop's condition")
        pending.append(isPunctuator(.rightParen) ? SyntaxNodes.absent : try expression())
        _ = try expect(.rightParen, "", opener: open)
        pending.append(try loopBody())
        return build(.for, range(from: start), from: mark)
    }

    mutating func take(_ keyword: ArcadeKeyword) -> Bool {
        if isKeyword(keyword) { skip(); return true }
        return false
    }

    mutating func take(_ kind: ArcadeToken.Kind) -> Bool {
        if currentKind == kind { skip(); return true }
        return false
    }

    mutating func functionDeclaration() throws -> Int32 {
        let start = advance().range
        guard currentKind == .identifier else {
            throw error("expected the function's name after 'function', found \(describe(current))", at: tokens[position].range)
        }
        let name = advance()
        let open = try expect(.leftParen, "after the function's name")
        let mark = pending.count
        pending.append(leaf(.name, name.range, text: name.text))
        let parametersMark = pending.count
        var parameters: [String] = []
        if !isPunctuator(.rightParen) {
            repeat {
                guard currentKind == .identifier else {
                    throw error("expected a parameter name, found \(describe(current))", at: tokens[position].range)
                }
                let parameter = advance()
                let folded = text(parameter.text).lowercased()
                if parameters.contains(folded) {
                    throw error("the parameter '\(text(parameter.text))' is named twice", at: parameter.range)
                }
                parameters.append(folded)
                pending.append(leaf(.name, parameter.range, text: parameter.text))
            } while take(.comma)
        }
        _ = try expect(.rightParen, "", opener: open)
        pending.append(build(.parameters, open.range, from: parametersMark))
        guard isPunctuator(.leftBrace) else {
            throw error("expected '{' to start the body of '\(text(name.text))', found \(describe(current))", at: tokens[position].range)
        }
        let enclosingLoops = loops
        loops = 0
        defer { loops = enclosingLoops }
        try block()
        return build(.function, range(from: start), text: name.text, from: mark)
    }
}
