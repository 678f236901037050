import Foundation
import Testing
import Arcade

/// The call context the math, array, dictionary, geometry and FeatureSet tests call library functions with:
/// function values are `DataTestFunction` closures, steps are counted against a bound, variables and data access
/// are whatever the test sets.
final class DataTestContext: ArcadeCallContext {
    var steps = 0
    var stepLimit = 10_000_000
    var dataAccess: ArcadeDataAccess?
    var defaultTimeZone = TimeZone(identifier: "UTC")!
    var now: Double = 0
    var variables: [String: ArcadeValue] = [:]
    var randomValue = 0.25

    init(dataAccess: ArcadeDataAccess? = nil) { self.dataAccess = dataAccess }

    func invoke(_ function: ArcadeFunctionValue, _ arguments: [ArcadeValue]) throws -> ArcadeValue {
        guard let closure = function.implementation as? DataTestFunction else {
            throw ArcadeFunctionError(message: "not a test function: \(function.name)")
        }
        return try closure.body(arguments)
    }

    func step(_ n: Int) throws {
        steps += n
        if steps > stepLimit { throw DataTooLong() }
    }

    func random() -> Double { randomValue }

    func variable(named name: String) -> ArcadeValue? {
        variables.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

struct DataTooLong: Error {}

final class DataTestFunction {
    let body: ([ArcadeValue]) throws -> ArcadeValue
    init(_ body: @escaping ([ArcadeValue]) throws -> ArcadeValue) { self.body = body }
}

/// Calls the library function `name` as the evaluator would (the arity checked first).
func callData(_ name: String, _ arguments: ArcadeValue..., context: DataTestContext = DataTestContext()) throws -> ArcadeValue {
    try callData(name, arguments: arguments, context: context)
}

func callData(_ name: String, arguments: [ArcadeValue], context: DataTestContext = DataTestContext()) throws -> ArcadeValue {
    guard let function = ArcadeFunctionLibrary.function(named: name) else {
        throw ArcadeFunctionError(message: "\(name) is not in the library")
    }
    guard function.arity.contains(arguments.count) else {
        throw ArcadeFunctionError(message: "\(name) takes \(function.arity) arguments, not \(arguments.count)")
    }
    return try function.body(ArcadeCall(name: name, arguments: arguments, context: context))
}

/// Short spellings of values for the tests.
enum DV {
    static func n(_ value: Double) -> ArcadeValue { .number(value) }
    static func t(_ value: String) -> ArcadeValue { .text(value) }
    static func b(_ value: Bool) -> ArcadeValue { .boolean(value) }
    static func a(_ values: ArcadeValue...) -> ArcadeValue { .array(ArcadeArray(values)) }
    static func numbers(_ values: Double...) -> ArcadeValue { .array(ArcadeArray(values.map { .number($0) })) }
    static func texts(_ values: String...) -> ArcadeValue { .array(ArcadeArray(values.map { .text($0) })) }
    static func d(_ pairs: (String, ArcadeValue)...) -> ArcadeValue { .dictionary(ArcadeDictionary(pairs)) }
    static func function(_ name: String, _ body: @escaping ([ArcadeValue]) throws -> ArcadeValue) -> ArcadeValue {
        .function(ArcadeFunctionValue(name: name, implementation: DataTestFunction(body)))
    }
    /// `function isEven(value) { return value % 2 == 0 }`, from the reference's examples.
    static let isEven = function("isEven") { .boolean($0[0].numberValue.truncatingRemainder(dividingBy: 2) == 0) }
    /// `IsEmpty` passed by name, as the reference's examples do.
    static let isEmpty = function("isEmpty") { arguments in
        if arguments[0].isNull { return .boolean(true) }
        if case .text(let t) = arguments[0] { return .boolean(t.isEmpty) }
        return .boolean(false)
    }
}

extension ArcadeValue {
    /// The value as JSON, for comparisons (`[1,"a",null]`).
    var dataJSON: String { jsonText }

    var dataNumber: Double? { if case .number(let n) = self { return n } else { return nil } }
}

/// `value` rounded to `places` decimals, for the reference's "prints 1.266104" examples.
func dataRounded(_ value: ArcadeValue, _ places: Int) -> Double? {
    guard let number = value.dataNumber else { return nil }
    let scale = pow(10, Double(places))
    return (number * scale).rounded() / scale
}
