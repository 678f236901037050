/// Turns a syntax tree into evaluation nodes, resolving each name once: variables to frame slots (declarations
/// are hoisted to the top of their function, or of the script), calls to library functions or user functions,
/// `$feature.Name` to a field read with its folded name.
struct ArcadeCompiler {
    static func compile(_ script: ArcadeScript) -> CompiledScript {
        let scope = CompiledScope(parent: nil)
        var compiler = ArcadeCompiler()
        let tree = script.makeStatements()
        let functions = compiler.hoist(tree, into: scope)
        let statements = tree.map { compiler.statement($0, scope) }
        for function in functions { compiler.compileBody(function) }
        let resultRange = tree.last?.range ?? script.range
        return CompiledScript(statements: statements, globalCount: scope.count, functions: functions, scope: scope,
                              resultRange: resultRange)
    }

    /// Function declarations waiting for their bodies to be compiled (after the names around them are known).
    private var pendingBodies: [ObjectIdentifier: ArcadeFunctionDeclaration] = [:]

    /// Declares the variables and functions of `statements` (not inside nested functions) in `scope`.
    mutating func hoist(_ statements: [ArcadeStatement], into scope: CompiledScope) -> [CompiledFunction] {
        var functions: [CompiledFunction] = []
        func visit(_ statement: ArcadeStatement) {
            switch statement.kind {
            case .variables(let declarations):
                for declaration in declarations { scope.declare(declaration.name) }
            case .if(_, let then, let otherwise):
                visit(then)
                if let otherwise { visit(otherwise) }
            case .block(let body):
                body.forEach(visit)
            case .for(let initializer, _, _, let body):
                if let initializer { visit(initializer) }
                visit(body)
            case .forIn(let declares, let name, _, _, let body):
                if declares || scope.resolve(name) == nil { scope.declare(name) }
                visit(body)
            case .while(_, let body):
                visit(body)
            case .function(let declaration):
                let slot = scope.declareFunction(declaration.name)
                let function = CompiledFunction(name: declaration.name, parameterCount: declaration.parameters.count,
                                                slot: slot, scope: CompiledScope(parent: scope))
                pendingBodies[ObjectIdentifier(function)] = declaration
                functions.append(function)
            case .expression, .break, .continue, .return, .empty:
                break
            }
        }
        statements.forEach(visit)
        return functions
    }

    mutating func compileBody(_ function: CompiledFunction) {
        guard let declaration = pendingBodies.removeValue(forKey: ObjectIdentifier(function)) else { return }
        for parameter in declaration.parameters { function.scope.declare(parameter.name) }
        function.functions = hoist(declaration.body, into: function.scope)
        function.body = declaration.body.map { statement($0, function.scope) }
        for nested in function.functions { compileBody(nested) }
        function.slotCount = function.scope.count
    }
}
