import Foundation

/// What Arcade's operators do with each type (the language reference's "Operators" and "Type casting"):
/// `+` joins when either side is Text and adds numbers otherwise; `- * / %` work on numbers (other values are
/// cast as `Number()` casts them); `==` compares without casting; `< <= > >=` compare texts as texts and
/// everything else as numbers; bitwise operators work on 32-bit integers, as in JavaScript.
enum ArcadeOperators {
    static func add(_ a: ArcadeValue, _ b: ArcadeValue, _ run: ArcadeRun, _ range: ArcadeSourceRange) throws -> ArcadeValue {
        if case .number(let x) = a, case .number(let y) = b { return .number(x + y) }
        switch (a, b) {
        case (.text, _), (_, .text):
            let left = try a.textForJoining(range), right = try b.textForJoining(range)
            if left.utf8.count + right.utf8.count > run.context.limits.maximumTextLength { throw run.textTooLong(at: range) }
            return .text(left + right)
        default:
            return .number(a.numberValue + b.numberValue)
        }
    }

    static func arithmetic(_ op: ArcadeBinaryOperator, _ a: ArcadeValue, _ b: ArcadeValue) -> ArcadeValue {
        let x = a.numberValue, y = b.numberValue
        switch op {
        case .subtract: return .number(x - y)
        case .multiply: return .number(x * y)
        case .divide: return .number(x / y)
        case .remainder: return .number(x.truncatingRemainder(dividingBy: y))
        case .bitAnd: return .number(Double(int32(x) & int32(y)))
        case .bitOr: return .number(Double(int32(x) | int32(y)))
        case .bitXor: return .number(Double(int32(x) ^ int32(y)))
        case .shiftLeft: return .number(Double(int32(x) << (uint32(y) & 31)))
        case .shiftRight: return .number(Double(int32(x) >> (uint32(y) & 31)))
        case .unsignedShiftRight: return .number(Double(uint32(x) >> (uint32(y) & 31)))
        default: return .number(.nan)
        }
    }

    /// JavaScript's ToInt32: NaN and infinities are 0, other numbers are truncated and wrapped to 32 bits.
    static func int32(_ x: Double) -> Int32 { Int32(bitPattern: uint32(x)) }

    static func uint32(_ x: Double) -> UInt32 {
        guard x.isFinite else { return 0 }
        let truncated = x.rounded(.towardZero)
        let wrapped = truncated.truncatingRemainder(dividingBy: 4_294_967_296)
        let positive = wrapped < 0 ? wrapped + 4_294_967_296 : wrapped
        return UInt32(positive)
    }

    /// `==`: same type and same value; arrays, dictionaries, features and functions are equal only to themselves;
    /// dates by instant; geometries by their JSON.
    static func equals(_ a: ArcadeValue, _ b: ArcadeValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.number(let x), .number(let y)): return x == y
        case (.text(let x), .text(let y)): return x == y
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.date(let x), .date(let y)): return x.epochMilliseconds == y.epochMilliseconds
        case (.array(let x), .array(let y)): return x === y
        case (.dictionary(let x), .dictionary(let y)): return x === y
        case (.feature(let x), .feature(let y)): return x === y
        case (.featureSet(let x), .featureSet(let y)): return x === y
        case (.function(let x), .function(let y)): return x === y
        case (.geometry, .geometry): return a.jsonText == b.jsonText
        default: return false
        }
    }

    static func compare(_ op: ArcadeBinaryOperator, _ a: ArcadeValue, _ b: ArcadeValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b {
            // By UTF-16 code units, as JavaScript compares strings.
            let order = x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : (x == y ? 0 : 1)
            switch op {
            case .less: return order < 0
            case .lessEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
        let x = a.numberValue, y = b.numberValue
        switch op {
        case .less: return x < y
        case .lessEqual: return x <= y
        case .greater: return x > y
        default: return x >= y
        }
    }
}

final class BinaryNode: ExpressionNode {
    let op: ArcadeBinaryOperator
    let left: ExpressionNode
    let right: ExpressionNode
    init(_ op: ArcadeBinaryOperator, _ left: ExpressionNode, _ right: ExpressionNode, range: ArcadeSourceRange) {
        self.op = op
        self.left = left
        self.right = right
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        let a = try left.evaluate(run)
        let b = try right.evaluate(run)
        return try BinaryNode.apply(op, a, b, run, range)
    }

    static func apply(_ op: ArcadeBinaryOperator, _ a: ArcadeValue, _ b: ArcadeValue, _ run: ArcadeRun, _ range: ArcadeSourceRange) throws -> ArcadeValue {
        switch op {
        case .add: return try ArcadeOperators.add(a, b, run, range)
        case .equal: return .boolean(ArcadeOperators.equals(a, b))
        case .notEqual: return .boolean(!ArcadeOperators.equals(a, b))
        case .less, .lessEqual, .greater, .greaterEqual: return .boolean(ArcadeOperators.compare(op, a, b))
        default: return ArcadeOperators.arithmetic(op, a, b)
        }
    }
}

/// `==` against a text literal (`$feature.Status == 'Damaged'`), the commonest comparison, without a switch.
final class EqualsTextNode: ExpressionNode {
    let left: ExpressionNode
    let text: String
    let negated: Bool
    init(_ left: ExpressionNode, _ text: String, negated: Bool, range: ArcadeSourceRange) {
        self.left = left
        self.text = text
        self.negated = negated
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        if case .text(let value) = try left.evaluate(run) { return .boolean((value == text) != negated) }
        return .boolean(negated)
    }
}

final class LogicalNode: ExpressionNode {
    let isAnd: Bool
    let left: ExpressionNode
    let right: ExpressionNode
    init(isAnd: Bool, _ left: ExpressionNode, _ right: ExpressionNode, range: ArcadeSourceRange) {
        self.isAnd = isAnd
        self.left = left
        self.right = right
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        let first = try condition(left, run)
        if first != isAnd { return .boolean(first) }   // false && ..., true || ...: the right side is not evaluated
        return .boolean(try condition(right, run))
    }
}

final class UnaryNode: ExpressionNode {
    let op: ArcadeUnaryOperator
    let operand: ExpressionNode
    init(_ op: ArcadeUnaryOperator, _ operand: ExpressionNode, range: ArcadeSourceRange) {
        self.op = op
        self.operand = operand
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        let value = try operand.evaluate(run)
        switch op {
        case .not:
            if case .boolean(let b) = value { return .boolean(!b) }
            return .boolean(!value.booleanValue)
        case .negate: return .number(-value.numberValue)
        case .plus: return .number(value.numberValue)
        case .bitNot: return .number(Double(~ArcadeOperators.int32(value.numberValue)))
        }
    }
}
