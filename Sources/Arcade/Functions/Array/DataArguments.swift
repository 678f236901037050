import Foundation

/// How the math, array, dictionary, geometry and FeatureSet functions read their arguments. Names start with
/// `data` so they never meet the helpers of the other categories in this module.
extension ArcadeCall {
    /// Argument `index` as an array, or a run error naming the parameter.
    func dataArray(_ index: Int, named parameter: String = "array") throws -> ArcadeArray {
        if case .array(let array) = self[index] { return array }
        throw failure("\(parameter) must be an Array, not \(self[index].typeName)")
    }

    /// Argument `index` as a function value (a user function or a built-in passed by name).
    func dataFunction(_ index: Int, named parameter: String) throws -> ArcadeFunctionValue {
        if case .function(let function) = self[index] { return function }
        throw failure("\(parameter) must be a Function, not \(self[index].typeName)")
    }

    /// Argument `index` as a whole number (truncated toward zero) between -limit and limit; NaN, infinities and
    /// numbers past the limit are a run error naming the parameter. Absent or null: `defaultValue` when given.
    func dataInteger(_ index: Int, named parameter: String, default defaultValue: Int? = nil,
                     limit: Int = DataLimits.maximumArrayLength) throws -> Int {
        if index >= count || self[index].isNull, let defaultValue { return defaultValue }
        let number = self[index].numberValue
        guard number.isFinite else {
            throw failure("\(parameter) must be a finite number, not \(ArcadeValue.formatNumber(number))")
        }
        let whole = number.rounded(.towardZero)
        guard abs(whole) <= Double(limit) else {
            throw failure("\(parameter) is \(ArcadeValue.formatNumber(whole)); at most \(limit) is allowed here")
        }
        return Int(whole)
    }

    /// Argument `index` as a whole number for a bound that is clamped to the array (`Slice`, `Top`): any finite
    /// number, kept within ±2^31; NaN and infinities are a run error.
    func dataClampedInteger(_ index: Int, named parameter: String, default defaultValue: Int? = nil) throws -> Int {
        if index >= count || self[index].isNull, let defaultValue { return defaultValue }
        let number = self[index].numberValue
        guard number.isFinite else {
            throw failure("\(parameter) must be a finite number, not \(ArcadeValue.formatNumber(number))")
        }
        return Int(min(max(number.rounded(.towardZero), -Double(Int32.max)), Double(Int32.max)))
    }

    /// Argument `index` as text; numbers and other values are converted as `Text()` does.
    func dataText(_ index: Int) -> String { self[index].textValue }

    /// Calls a function value once, counting one step.
    func dataInvoke(_ function: ArcadeFunctionValue, _ arguments: [ArcadeValue]) throws -> ArcadeValue {
        try context.step(1)
        return try context.invoke(function, arguments)
    }
}

/// Bounds that keep array functions from exhausting memory on hostile input (`Array(1e300)`,
/// `Resize(a, 1e9)`): far above any array an expression builds for a form or pop-up.
enum DataLimits {
    /// 10 million elements.
    static let maximumArrayLength = 10_000_000
}

/// Equality as Arcade's `==` sees it for `IndexOf`, `Includes` and `Distinct`: the evaluator's own `==`
/// (`ArcadeOperators.equals`: no conversion between types; arrays, dictionaries, features and functions by identity;
/// dates by instant; geometries by their JSON), and a hashable key that agrees with it.
enum DataEquality {
    static func equal(_ a: ArcadeValue, _ b: ArcadeValue) -> Bool { ArcadeOperators.equals(a, b) }

    /// A hashable stand-in for a value, equal exactly when `equal` says so (for `Distinct` in linear time).
    enum Key: Hashable {
        case null, number(Double), text(String), boolean(Bool), date(Double), object(ObjectIdentifier), geometry(String)
    }

    static func key(_ value: ArcadeValue) -> Key {
        switch value {
        case .null: return .null
        case .number(let n): return .number(n == 0 ? 0 : n) // -0 == 0, as ==
        case .text(let t): return .text(t)
        case .boolean(let b): return .boolean(b)
        case .date(let d): return .date(d.epochMilliseconds)
        case .array(let a): return .object(ObjectIdentifier(a))
        case .dictionary(let d): return .object(ObjectIdentifier(d))
        case .feature(let f): return .object(ObjectIdentifier(f))
        case .featureSet(let f): return .object(ObjectIdentifier(f))
        case .function(let f): return .object(ObjectIdentifier(f))
        case .geometry: return .geometry(value.jsonText)
        default: return .geometry(UUID().uuidString) // `==` says false for anything else: never the same key
        }
    }
}

extension ArcadeValue {
    /// The values a list parameter stands for: `Max(1, [2, 3], 4)` reads 1, 2, 3, 4 (an array argument is spread
    /// one level, as the reference's `Mean(0,10,5,values)` example shows).
    static func dataSpread(_ arguments: ArraySlice<ArcadeValue>) -> [ArcadeValue] {
        var values: [ArcadeValue] = []
        for argument in arguments {
            if case .array(let array) = argument { values.append(contentsOf: array.values) } else { values.append(argument) }
        }
        return values
    }
}
