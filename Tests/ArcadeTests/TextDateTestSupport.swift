import Foundation
import Arcade

/// A call context for calling text and date functions directly (until the evaluator runs whole expressions):
/// a fixed instant and zone, so no test depends on the machine's clock or zone.
final class TextDateTestContext: ArcadeCallContext {
    let now: Double
    let defaultTimeZone: TimeZone
    private(set) var steps = 0

    /// 2016-10-24T19:09:34.123Z by default.
    init(now: Double = 1_477_336_174_123, zone: TimeZone = ArcadeDate.utc) {
        self.now = now
        self.defaultTimeZone = zone
    }

    func invoke(_ function: ArcadeFunctionValue, _ arguments: [ArcadeValue]) throws -> ArcadeValue {
        throw ArcadeFunctionError(message: "no function values in these tests")
    }
    func step(_ n: Int) throws { steps += n }
    var dataAccess: ArcadeDataAccess? { nil }
    func random() -> Double { 0.5 }
    func variable(named name: String) -> ArcadeValue? { nil }
}

/// Calls the library function `name` with these arguments.
func callArcade(_ name: String, _ arguments: ArcadeValue..., context: TextDateTestContext = TextDateTestContext())
    throws -> ArcadeValue {
    guard let function = ArcadeFunctionLibrary.function(named: name) else {
        throw ArcadeFunctionError(message: "no function \(name)")
    }
    return try function.body(ArcadeCall(name: name, arguments: arguments, context: context))
}

/// `Date(year, month, day, ...)` in a zone (UTC by default), through the library's own `Date`.
func arcadeDate(_ parts: Double..., zone: String? = nil) throws -> ArcadeValue {
    var arguments = parts.map { ArcadeValue.number($0) }
    if let zone { arguments.append(.text(zone)) }
    let function = ArcadeFunctionLibrary.function(named: "Date")!
    return try function.body(ArcadeCall(name: "Date", arguments: arguments, context: TextDateTestContext()))
}

extension ArcadeValue {
    /// A readable form for comparisons: the type and `Text()` of the value.
    var described: String { typeName + ":" + textValue }
}

func text(_ value: String) -> ArcadeValue { .text(value) }
func number(_ value: Double) -> ArcadeValue { .number(value) }
