/// Where an assignment writes: a variable, or a member or index of a value.
enum AssignmentTarget {
    case variable(VariableReference)
    case part(object: ExpressionNode, key: ExpressionNode)
    /// A name that is not declared: an error when reached.
    case undeclared(String)
}

/// `x = v`, `x += v`, `d.k -= v`, `a[i] *= v`: the value of the expression is the value assigned.
final class AssignmentNode: ExpressionNode {
    let target: AssignmentTarget
    let op: ArcadeBinaryOperator?
    let value: ExpressionNode
    init(_ target: AssignmentTarget, _ op: ArcadeBinaryOperator?, _ value: ExpressionNode, range: ArcadeSourceRange) {
        self.target = target
        self.op = op
        self.value = value
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        switch target {
        case .variable(let variable):
            var result = try value.evaluate(run)
            if let op { result = try BinaryNode.apply(op, variable.get(run), result, run, range) }
            variable.set(result, run)
            return result
        case .part(let objectNode, let keyNode):
            let object = try objectNode.evaluate(run)
            let key = try keyNode.evaluate(run)
            var result = try value.evaluate(run)
            if let op { result = try BinaryNode.apply(op, try ArcadeAccess.get(object, key, range), result, run, range) }
            try ArcadeAccess.set(object, key, result, run, range)
            return result
        case .undeclared(let name):
            throw runError("'\(name)' is not declared: declare it first with 'var \(name) = ...'")
        }
    }
}

/// `++x`, `x++`, `--x`, `x--`: prefix gives the new value, postfix the old one (as a number).
final class UpdateNode: ExpressionNode {
    let target: AssignmentTarget
    let delta: Double
    let prefix: Bool
    init(_ target: AssignmentTarget, increment: Bool, prefix: Bool, range: ArcadeSourceRange) {
        self.target = target
        self.delta = increment ? 1 : -1
        self.prefix = prefix
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        switch target {
        case .variable(let variable):
            let old = variable.get(run).numberValue
            variable.set(.number(old + delta), run)
            return .number(prefix ? old + delta : old)
        case .part(let objectNode, let keyNode):
            let object = try objectNode.evaluate(run)
            let key = try keyNode.evaluate(run)
            let old = try ArcadeAccess.get(object, key, range).numberValue
            try ArcadeAccess.set(object, key, .number(old + delta), run, range)
            return .number(prefix ? old + delta : old)
        case .undeclared(let name):
            throw runError("'\(name)' is not declared: declare it first with 'var \(name) = ...'")
        }
    }
}
