extension ArcadeCompiler {
    mutating func statement(_ statement: ArcadeStatement, _ scope: CompiledScope) -> StatementNode {
        let range = statement.range
        switch statement.kind {
        case .expression(let expression):
            return ExpressionStatement(self.expression(expression, scope), range: range)
        case .variables(let declarations):
            let compiled = declarations.map { declaration -> (slot: Int, initializer: ExpressionNode?) in
                (scope.declare(declaration.name), declaration.initializer.map { self.expression($0, scope) })
            }
            return VariablesStatement(compiled, range: range)
        case .if(let test, let then, let otherwise):
            return IfStatement(expression(test, scope), self.statement(then, scope), otherwise.map { self.statement($0, scope) }, range: range)
        case .block(let body):
            return BlockStatement(body.map { self.statement($0, scope) }, range: range)
        case .for(let initializer, let test, let update, let body):
            return ForStatement(initializer.map { self.statement($0, scope) }, test.map { expression($0, scope) },
                                update.map { expression($0, scope) }, self.statement(body, scope), range: range)
        case .forIn(_, let name, _, let collection, let body):
            let resolved = scope.resolve(name) ?? (0, scope.declare(name), false)
            let variable = VariableReference(name: name, hops: resolved.hops, slot: resolved.slot)
            return ForInStatement(variable, expression(collection, scope), self.statement(body, scope), range: range)
        case .while(let test, let body):
            return WhileStatement(expression(test, scope), self.statement(body, scope), range: range)
        case .break:
            return BreakStatement(range: range)
        case .continue:
            return ContinueStatement(range: range)
        case .return(let value):
            return ReturnStatement(value.map { expression($0, scope) }, range: range)
        case .function:
            return NoOperation(range: range, isDeclaration: true)   // created when its scope starts (hoisted)
        case .empty:
            return NoOperation(range: range, isDeclaration: true)
        }
    }
}
