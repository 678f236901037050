/// Operators as the one-byte codes `SyntaxNode.detail` holds (their order in these lists).
enum SyntaxOperators {
    static let binary: [ArcadeBinaryOperator] = [
        .add, .subtract, .multiply, .divide, .remainder, .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual,
        .bitAnd, .bitOr, .bitXor, .shiftLeft, .shiftRight, .unsignedShiftRight,
    ]
    static let unary: [ArcadeUnaryOperator] = [.negate, .plus, .not, .bitNot]
    static let logical: [ArcadeLogicalOperator] = [.and, .or]

    static func code(_ op: ArcadeBinaryOperator) -> UInt8 {
        switch op {
        case .add: return 0
        case .subtract: return 1
        case .multiply: return 2
        case .divide: return 3
        case .remainder: return 4
        case .equal: return 5
        case .notEqual: return 6
        case .less: return 7
        case .lessEqual: return 8
        case .greater: return 9
        case .greaterEqual: return 10
        case .bitAnd: return 11
        case .bitOr: return 12
        case .bitXor: return 13
        case .shiftLeft: return 14
        case .shiftRight: return 15
        case .unsignedShiftRight: return 16
        }
    }

    static func code(_ op: ArcadeUnaryOperator) -> UInt8 {
        switch op {
        case .negate: return 0
        case .plus: return 1
        case .not: return 2
        case .bitNot: return 3
        }
    }

    static func code(_ op: ArcadeLogicalOperator) -> UInt8 { op == .and ? 0 : 1 }
}
