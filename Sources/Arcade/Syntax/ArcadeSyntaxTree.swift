/// A parsed Arcade expression (the "script"): its statements in order. Every node carries its source range.
///
///     switch ArcadeParser.parse("Left($feature.Name, 3)") {
///     case .success(let script): ...        // script.makeStatements()
///     case .failure(let errors): ...        // errors.first!.line, .column, .message
///     }
///
/// The script keeps its nodes in flat storage (`SyntaxNodes`, which `ArcadeAnalysis` walks); `statements` builds
/// the enum tree from it on each call.
public struct ArcadeScript {
    let tree: SyntaxNodes
    /// The index of the script's node: its children are the statements.
    let root: Int32

    public var range: ArcadeSourceRange { tree[root].range }
}

/// An expression of the tree, with its range (the whole expression, e.g. `$feature.Name` from `$` to `e`).
public struct ArcadeExpression {
    public indirect enum Kind {
        case number(Double)
        case text(String)
        /// `` `a ${x} b` ``: `strings` has one more element than `expressions` (the pieces around them).
        case template(strings: [String], expressions: [ArcadeExpression])
        case boolean(Bool)
        case null
        /// A name: a variable, a function, a constant, or a profile variable (`$feature`), as written.
        case identifier(String)
        case array([ArcadeExpression])
        case dictionary([ArcadeDictionaryEntry])
        /// `object.name`; `nameRange` covers the name.
        case member(object: ArcadeExpression, name: String, nameRange: ArcadeSourceRange)
        /// `object[index]`.
        case index(object: ArcadeExpression, index: ArcadeExpression)
        case call(callee: ArcadeExpression, arguments: [ArcadeExpression])
        case unary(ArcadeUnaryOperator, ArcadeExpression)
        case binary(ArcadeBinaryOperator, ArcadeExpression, ArcadeExpression)
        /// `&&` and `||`, evaluated left to right and short-circuited.
        case logical(ArcadeLogicalOperator, ArcadeExpression, ArcadeExpression)
        /// Three or more operands of one precedence, `a + b - c + ...`: `first`, then each operator with its
        /// operand, applied left to right (a flat list, so a chain of any length is no deep tree).
        case binaryChain(first: ArcadeExpression, links: [ArcadeChainLink])
        /// Three or more operands joined by one of `&&`, `||`: evaluated left to right and short-circuited.
        case logicalChain(ArcadeLogicalOperator, [ArcadeExpression])
        /// `target = value`, `target += value`, ...; `operator` is nil for plain `=`.
        case assignment(operator: ArcadeBinaryOperator?, target: ArcadeExpression, value: ArcadeExpression)
        /// `++x`, `x++`, `--x`, `x--`.
        case update(increment: Bool, prefix: Bool, target: ArcadeExpression)
    }

    public let kind: Kind
    public let range: ArcadeSourceRange
    /// How many levels the expression's tree has (1 for a literal): the parser bounds it, so walks of the tree
    /// (evaluation, analysis) never recurse without bound.
    let height: Int

    init(_ kind: Kind, _ range: ArcadeSourceRange, height: Int = 1) {
        self.kind = kind
        self.range = range
        self.height = height
    }
}

/// A step of a `binaryChain`: the operator, its right operand, and the chain from its start through this operand
/// (where an error of this step is reported).
public struct ArcadeChainLink {
    public let `operator`: ArcadeBinaryOperator
    public let operand: ArcadeExpression
    public let range: ArcadeSourceRange
}

/// `key: value` in a dictionary literal; `key` is the text of a quoted or bare key, `keyRange` its place (with the
/// quotes when quoted).
public struct ArcadeDictionaryEntry {
    public let key: String
    public let keyRange: ArcadeSourceRange
    public let value: ArcadeExpression
}

public enum ArcadeUnaryOperator: String {
    case negate = "-", plus = "+", not = "!", bitNot = "~"
}

public enum ArcadeBinaryOperator: String {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case bitAnd = "&", bitOr = "|", bitXor = "^", shiftLeft = "<<", shiftRight = ">>", unsignedShiftRight = ">>>"
}

public enum ArcadeLogicalOperator: String {
    case and = "&&", or = "||"
}

/// A statement of the tree, with its range.
public struct ArcadeStatement {
    public indirect enum Kind {
        case expression(ArcadeExpression)
        /// `var a = 1, b;`
        case variables([ArcadeVariableDeclaration])
        case `if`(test: ArcadeExpression, then: ArcadeStatement, else: ArcadeStatement?)
        case block([ArcadeStatement])
        /// `for (initializer; test; update) body`; each part may be absent.
        case `for`(initializer: ArcadeStatement?, test: ArcadeExpression?, update: ArcadeExpression?, body: ArcadeStatement)
        /// `for (var name in collection)` (`declares` true) or `for (name in collection)`.
        case forIn(declares: Bool, name: String, nameRange: ArcadeSourceRange, collection: ArcadeExpression, body: ArcadeStatement)
        case `while`(test: ArcadeExpression, body: ArcadeStatement)
        case `break`
        case `continue`
        case `return`(ArcadeExpression?)
        case function(ArcadeFunctionDeclaration)
        /// A lone `;`.
        case empty
    }

    public let kind: Kind
    public let range: ArcadeSourceRange

    init(_ kind: Kind, _ range: ArcadeSourceRange) {
        self.kind = kind
        self.range = range
    }
}

public struct ArcadeVariableDeclaration {
    public let name: String
    public let nameRange: ArcadeSourceRange
    public let initializer: ArcadeExpression?
}

/// `function name(a, b) { body }`.
public struct ArcadeFunctionDeclaration {
    public let name: String
    public let nameRange: ArcadeSourceRange
    public let parameters: [(name: String, range: ArcadeSourceRange)]
    public let body: [ArcadeStatement]
}
