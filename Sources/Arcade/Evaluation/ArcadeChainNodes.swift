/// `a + b - c + ...` (three or more operands of one precedence), applied left to right in a loop: as the nested
/// `((a + b) - c) + ...` would be, without recursing once per operand. A text being joined grows in place.
final class BinaryChainNode: ExpressionNode {
    let first: ExpressionNode
    /// Each step: its operator, its operand, and the chain through that operand (where its error is reported).
    let links: [(op: ArcadeBinaryOperator, operand: ExpressionNode, range: ArcadeSourceRange)]
    init(_ first: ExpressionNode, _ links: [(op: ArcadeBinaryOperator, operand: ExpressionNode, range: ArcadeSourceRange)],
         range: ArcadeSourceRange) {
        self.first = first
        self.links = links
        super.init(range: range)
    }

    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        var value = try first.evaluate(run)
        for link in links {
            let operand = try link.operand.evaluate(run)
            if link.op == .add, case .text(var text) = value {
                value = .null   // `text` is now the only reference: appending to it does not copy it
                let right = try operand.textForJoining(link.range)
                if text.utf8.count + right.utf8.count > run.context.limits.maximumTextLength { throw run.textTooLong(at: link.range) }
                text += right
                value = .text(text)
            } else {
                value = try BinaryNode.apply(link.op, value, operand, run, link.range)
            }
        }
        return value
    }
}

/// `a && b && c ...` or `a || b || c ...` (three or more operands): left to right, stopping at the first operand
/// that decides the result, as the nested `(a && b) && c` would.
final class LogicalChainNode: ExpressionNode {
    let isAnd: Bool
    let operands: [ExpressionNode]
    init(isAnd: Bool, _ operands: [ExpressionNode], range: ArcadeSourceRange) {
        self.isAnd = isAnd
        self.operands = operands
        super.init(range: range)
    }

    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        for operand in operands where try condition(operand, run) != isAnd {
            return .boolean(!isAnd)
        }
        return .boolean(isAnd)
    }
}
