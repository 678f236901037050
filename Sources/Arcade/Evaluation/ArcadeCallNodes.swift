/// A call of a library function resolved when compiling (`Left(x, 3)`).
final class LibraryCallNode: ExpressionNode {
    let definition: ArcadeFunctionDefinition
    let arguments: [ExpressionNode]
    init(_ definition: ArcadeFunctionDefinition, _ arguments: [ExpressionNode], range: ArcadeSourceRange) {
        self.definition = definition
        self.arguments = arguments
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        var values: [ArcadeValue] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(try argument.evaluate(run)) }
        return try run.callLibrary(definition, values, at: range)
    }
}

/// A call of a value: a user function (`f(1)`), a function passed as a parameter, any expression giving a
/// function.
final class DynamicCallNode: ExpressionNode {
    let callee: ExpressionNode
    let name: String
    let arguments: [ExpressionNode]
    init(_ callee: ExpressionNode, name: String, _ arguments: [ExpressionNode], range: ArcadeSourceRange) {
        self.callee = callee
        self.name = name
        self.arguments = arguments
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        let value = try callee.evaluate(run)
        guard case .function(let function) = value else {
            throw runError("\(name.prefix(100)) is not a function: it is \(value.typeName)")
        }
        var values: [ArcadeValue] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments { values.append(try argument.evaluate(run)) }
        return try run.invoke(function, values, at: range)
    }
}

/// A call that fails when reached: a real Arcade function MapRules does not evaluate (`arcade/unsupported-function`)
/// or a name that is no function at all (`arcade/runtime-error`, with a suggestion).
final class FailingCallNode: ExpressionNode {
    let error: ArcadeError
    init(ruleId: String, message: String, range: ArcadeSourceRange) {
        error = ArcadeError(ruleId, message, at: range)
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue { throw error }
}
