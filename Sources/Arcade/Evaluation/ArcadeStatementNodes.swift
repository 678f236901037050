/// How a statement ended: normally, or by `break`, `continue` or `return` (the value is in `ArcadeRun.returnValue`).
enum Flow {
    case normal, breakLoop, continueLoop, returned
}

class StatementNode {
    let range: ArcadeSourceRange
    init(range: ArcadeSourceRange) { self.range = range }
    /// Whether the script's result starts over at this statement (not for `var` and `function`, as in JavaScript).
    var resetsResult: Bool { true }
    func execute(_ run: ArcadeRun) throws -> Flow { .normal }
}

final class ExpressionStatement: StatementNode {
    let expression: ExpressionNode
    init(_ expression: ExpressionNode, range: ArcadeSourceRange) {
        self.expression = expression
        super.init(range: range)
    }
    override func execute(_ run: ArcadeRun) throws -> Flow {
        let value = try expression.evaluate(run)
        if run.depth == 0 { run.lastValue = value }
        return .normal
    }
}

/// `var a = 1, b`: each name is a slot of the current frame.
final class VariablesStatement: StatementNode {
    let declarations: [(slot: Int, initializer: ExpressionNode?)]
    init(_ declarations: [(slot: Int, initializer: ExpressionNode?)], range: ArcadeSourceRange) {
        self.declarations = declarations
        super.init(range: range)
    }
    override var resetsResult: Bool { false }
    override func execute(_ run: ArcadeRun) throws -> Flow {
        for declaration in declarations {
            let value = try declaration.initializer?.evaluate(run) ?? .null
            run.frame.slots[declaration.slot] = value
        }
        return .normal
    }
}

final class NoOperation: StatementNode {
    let isDeclaration: Bool
    init(range: ArcadeSourceRange, isDeclaration: Bool) {
        self.isDeclaration = isDeclaration
        super.init(range: range)
    }
    override var resetsResult: Bool { !isDeclaration }
}

final class BlockStatement: StatementNode {
    let body: [StatementNode]
    init(_ body: [StatementNode], range: ArcadeSourceRange) {
        self.body = body
        super.init(range: range)
    }
    override func execute(_ run: ArcadeRun) throws -> Flow {
        for statement in body {
            let flow = try statement.execute(run)
            if case .normal = flow { continue }
            return flow
        }
        return .normal
    }
}

final class IfStatement: StatementNode {
    let test: ExpressionNode
    let then: StatementNode
    let otherwise: StatementNode?
    init(_ test: ExpressionNode, _ then: StatementNode, _ otherwise: StatementNode?, range: ArcadeSourceRange) {
        self.test = test
        self.then = then
        self.otherwise = otherwise
        super.init(range: range)
    }
    override func execute(_ run: ArcadeRun) throws -> Flow {
        if try condition(test, run) { return try then.execute(run) }
        return try otherwise?.execute(run) ?? .normal
    }
}

/// A condition of `if`, `while`, `for`, `&&` and `||`: it must be a Boolean ("the condition must evaluate to either
/// true or false. Otherwise, the expression will fail with an execution error", the language reference's "Logic").
@inline(__always)
func condition(_ node: ExpressionNode, _ run: ArcadeRun) throws -> Bool {
    let value = try node.evaluate(run)
    if case .boolean(let b) = value { return b }
    throw node.runError("a condition must be a Boolean (true or false), not \(value.typeName); compare it, or use Boolean() or IsEmpty()")
}

final class WhileStatement: StatementNode {
    let test: ExpressionNode
    let body: StatementNode
    init(_ test: ExpressionNode, _ body: StatementNode, range: ArcadeSourceRange) {
        self.test = test
        self.body = body
        super.init(range: range)
    }
    override func execute(_ run: ArcadeRun) throws -> Flow {
        while try condition(test, run) {
            try run.step(1, at: range)
            switch try body.execute(run) {
            case .normal, .continueLoop: continue
            case .breakLoop: return .normal
            case .returned: return .returned
            }
        }
        return .normal
    }
}

final class ForStatement: StatementNode {
    let initializer: StatementNode?
    let test: ExpressionNode?
    let update: ExpressionNode?
    let body: StatementNode
    init(_ initializer: StatementNode?, _ test: ExpressionNode?, _ update: ExpressionNode?, _ body: StatementNode, range: ArcadeSourceRange) {
        self.initializer = initializer
        self.test = test
        self.update = update
        self.body = body
        super.init(range: range)
    }
    override func execute(_ run: ArcadeRun) throws -> Flow {
        if let initializer { _ = try initializer.execute(run) }
        while true {
            if let test, try !condition(test, run) { break }
            try run.step(1, at: range)
            switch try body.execute(run) {
            case .normal, .continueLoop: break
            case .breakLoop: return .normal
            case .returned: return .returned
            }
            if let update { _ = try update.evaluate(run) }
        }
        return .normal
    }
}

final class BreakStatement: StatementNode {
    override func execute(_ run: ArcadeRun) throws -> Flow { .breakLoop }
}

final class ContinueStatement: StatementNode {
    override func execute(_ run: ArcadeRun) throws -> Flow { .continueLoop }
}

final class ReturnStatement: StatementNode {
    let value: ExpressionNode?
    init(_ value: ExpressionNode?, range: ArcadeSourceRange) {
        self.value = value
        super.init(range: range)
    }
    override func execute(_ run: ArcadeRun) throws -> Flow {
        run.returnValue = try value?.evaluate(run) ?? .null
        return .returned
    }
}
