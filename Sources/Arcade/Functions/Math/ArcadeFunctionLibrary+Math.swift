import Foundation

/// The Math category of the function reference (https://developers.arcgis.com/arcade/function-reference/math_functions/).
/// Every number parameter takes any value through `Number()` (`Abs(null)` is 0, `Sqrt('9')` is 3); NaN and
/// infinities go through the arithmetic as IEEE 754 says (`Sqrt(-1)` is NaN, `Log(0)` is -Infinity), never a crash.
extension ArcadeFunctionLibrary {
    static let mathFunctions: [ArcadeFunctionDefinition] = elementaryMathFunctions + roundingFunctions + statisticsFunctions

    static let elementaryMathFunctions: [ArcadeFunctionDefinition] = [
        unaryMath("Abs") { Swift.abs($0) },
        unaryMath("Acos") { Foundation.acos($0) },
        unaryMath("Asin") { Foundation.asin($0) },
        unaryMath("Atan") { Foundation.atan($0) },
        ArcadeFunctionDefinition("Atan2", arity: 2) { call in
            .number(Foundation.atan2(call[0].numberValue, call[1].numberValue))
        },
        unaryMath("Cos") { Foundation.cos($0) },
        unaryMath("Exp") { Foundation.exp($0) },
        unaryMath("Log") { Foundation.log($0) },
        ArcadeFunctionDefinition("Pow", arity: 2) { call in
            .number(Foundation.pow(call[0].numberValue, call[1].numberValue))
        },
        unaryMath("Sin") { Foundation.sin($0) },
        unaryMath("Sqrt") { Foundation.sqrt($0) },
        unaryMath("Tan") { Foundation.tan($0) },
        ArcadeFunctionDefinition("Random", arity: 0) { call in .number(call.context.random()) },
        ArcadeFunctionDefinition("Constrain", arity: 3) { call in
            let value = call[0].numberValue, lower = call[1].numberValue, upper = call[2].numberValue
            // As Arcade's own implementation: NaN anywhere, or bounds that cross, give NaN.
            if value.isNaN || lower.isNaN || upper.isNaN || lower > upper { return .number(.nan) }
            return .number(Swift.max(lower, Swift.min(value, upper)))
        },
    ]

    static func unaryMath(_ name: String, _ operation: @escaping (Double) -> Double) -> ArcadeFunctionDefinition {
        ArcadeFunctionDefinition(name, arity: 1) { call in .number(operation(call[0].numberValue)) }
    }

    static let roundingFunctions: [ArcadeFunctionDefinition] = [
        rounding("Round", DecimalRounding.roundHalfUp),
        rounding("Ceil") { $0.rounded(.up) },
        rounding("Floor") { $0.rounded(.down) },
    ]

    static func rounding(_ name: String, _ operation: @escaping (Double) -> Double) -> ArcadeFunctionDefinition {
        ArcadeFunctionDefinition(name, arity: 1...2) { call in
            .number(DecimalRounding.apply(operation, to: call[0].numberValue, places: call.count > 1 ? call[1].numberValue : 0))
        }
    }
}
