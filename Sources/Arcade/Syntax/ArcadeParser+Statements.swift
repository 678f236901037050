/// Statements: `var`, `if`, `for`, `for-in`, `while`, `break`, `continue`, `return`, `function`, blocks and
/// expression statements; `;` is optional at a line end, before `}` and at the end.
extension Parser {
    mutating func statement() throws -> ArcadeStatement {
        try enter(tokens[position].range)
        defer { leave() }
        let start = tokens[position].range
        switch currentKind {
        case .punctuator(.leftBrace):
            let body = try block()
            return ArcadeStatement(.block(body), range(from: start))
        case .punctuator(.semicolon):
            _ = advance()
            return ArcadeStatement(.empty, start)
        case .keyword(.var):
            _ = advance()
            let declarations = try variableDeclarations()
            try endOfStatement()
            return ArcadeStatement(.variables(declarations), range(from: start))
        case .keyword(.if):
            _ = advance()
            let open = try expect(.leftParen, "after 'if'")
            let test = try expression()
            _ = try expect(.rightParen, "", opener: open)
            let then = try statement()
            var otherwise: ArcadeStatement?
            if isKeyword(.else) {
                _ = advance()
                otherwise = try statement()
            }
            return ArcadeStatement(.if(test: test, then: then, else: otherwise), range(from: start))
        case .keyword(.for):
            return try forStatement()
        case .keyword(.while):
            _ = advance()
            let open = try expect(.leftParen, "after 'while'")
            let test = try expression()
            _ = try expect(.rightParen, "", opener: open)
            let body = try loopBody()
            return ArcadeStatement(.while(test: test, body: body), range(from: start))
        case .keyword(.break):
            guard loops > 0 else { throw error("'break' outside a loop", at: start) }
            _ = advance()
            try endOfStatement()
            return ArcadeStatement(.break, start)
        case .keyword(.continue):
            guard loops > 0 else { throw error("'continue' outside a loop", at: start) }
            _ = advance()
            try endOfStatement()
            return ArcadeStatement(.continue, start)
        case .keyword(.return):
            _ = advance()
            var value: ArcadeExpression?
            if !isPunctuator(.semicolon) && !isPunctuator(.rightBrace) && currentKind != .endOfInput && !tokens[position].newlineBefore {
                value = try expression()
            }
            try endOfStatement()
            return ArcadeStatement(.return(value), range(from: start))
        case .keyword(.function):
            return try functionDeclaration()
        case .keyword(.else):
            throw error("'else' without an 'if' before it", at: start)
        case .keyword(.in):
            throw error("unexpected 'in'", at: start)
        default:
            let value = try expression()
            try endOfStatement()
            return ArcadeStatement(.expression(value), range(from: start))
        }
    }

    mutating func loopBody() throws -> ArcadeStatement {
        loops += 1
        defer { loops -= 1 }
        return try statement()
    }

    /// `{ statements }`.
    mutating func block() throws -> [ArcadeStatement] {
        let open = try expect(.leftBrace, "")
        var body: [ArcadeStatement] = []
        while !isPunctuator(.rightBrace) {
            if currentKind == .endOfInput {
                throw error("expected '}' to close the '{' at line \(open.range.line), column \(open.range.column), found the end of the expression", at: tokens[position].range)
            }
            body.append(try statement())
        }
        _ = advance()
        return body
    }

    mutating func endOfStatement() throws {
        if take(.semicolon) { return }
        if isPunctuator(.rightBrace) || currentKind == .endOfInput || tokens[position].newlineBefore { return }
        throw error("unexpected \(describe(current)): expected ';' or a line break before it", at: tokens[position].range)
    }

    mutating func variableDeclarations() throws -> [ArcadeVariableDeclaration] {
        var declarations: [ArcadeVariableDeclaration] = []
        repeat {
            guard currentKind == .identifier else {
                throw error("expected a variable name after 'var', found \(describe(current))", at: tokens[position].range)
            }
            let name = advance()
            var initializer: ArcadeExpression?
            if take(.assign) { initializer = try assignment() }
            declarations.append(ArcadeVariableDeclaration(name: name.text, nameRange: name.range, initializer: initializer))
        } while take(.comma)
        return declarations
    }

    mutating func forStatement() throws -> ArcadeStatement {
        let start = advance().range
        let open = try expect(.leftParen, "after 'for'")
        // for (var k in x) / for (k in x)
        let declares = isKeyword(.var)
        let nameIndex = position + (declares ? 1 : 0)
        if nameIndex + 1 < tokens.count, tokens[nameIndex].kind == .identifier, tokens[nameIndex + 1].kind == .keyword(.in) {
            let name = tokens[nameIndex]
            move(to: nameIndex + 2)
            let collection = try expression()
            _ = try expect(.rightParen, "", opener: open)
            let body = try loopBody()
            return ArcadeStatement(.forIn(declares: declares, name: name.text, nameRange: name.range, collection: collection, body: body),
                                   range(from: start))
        }
        var initializer: ArcadeStatement?
        if !isPunctuator(.semicolon) {
            let initStart = tokens[position].range
            if take(.keyword(.var)) {
                initializer = ArcadeStatement(.variables(try variableDeclarations()), range(from: initStart))
            } else {
                initializer = ArcadeStatement(.expression(try expression()), range(from: initStart))
            }
        }
        _ = try expect(.semicolon, "after the loop's initialiser")
        let test = isPunctuator(.semicolon) ? nil : try expression()
        _ = try expect(.semicolon, "after the loop's condition")
        let update = isPunctuator(.rightParen) ? nil : try expression()
        _ = try expect(.rightParen, "", opener: open)
        let body = try loopBody()
        return ArcadeStatement(.for(initializer: initializer, test: test, update: update, body: body), range(from: start))
    }

    mutating func take(_ keyword: ArcadeKeyword) -> Bool {
        if isKeyword(keyword) { _ = advance(); return true }
        return false
    }

    mutating func take(_ kind: ArcadeToken.Kind) -> Bool {
        if currentKind == kind { _ = advance(); return true }
        return false
    }

    mutating func functionDeclaration() throws -> ArcadeStatement {
        let start = advance().range
        guard currentKind == .identifier else {
            throw error("expected the function's name after 'function', found \(describe(current))", at: tokens[position].range)
        }
        let name = advance()
        let open = try expect(.leftParen, "after the function's name")
        var parameters: [(name: String, range: ArcadeSourceRange)] = []
        if !isPunctuator(.rightParen) {
            repeat {
                guard currentKind == .identifier else {
                    throw error("expected a parameter name, found \(describe(current))", at: tokens[position].range)
                }
                let parameter = advance()
                if parameters.contains(where: { $0.name.lowercased() == parameter.text.lowercased() }) {
                    throw error("the parameter '\(parameter.text)' is named twice", at: parameter.range)
                }
                parameters.append((parameter.text, parameter.range))
            } while take(.comma)
        }
        _ = try expect(.rightParen, "", opener: open)
        guard isPunctuator(.leftBrace) else {
            throw error("expected '{' to start the body of '\(name.text)', found \(describe(current))", at: tokens[position].range)
        }
        let enclosingLoops = loops
        loops = 0
        defer { loops = enclosingLoops }
        let body = try block()
        let declaration = ArcadeFunctionDeclaration(name: name.text, nameRange: name.range, parameters: parameters, body: body)
        return ArcadeStatement(.function(declaration), range(from: start))
    }
}
