import Foundation

/// One function of Arcade's function library: its name as the reference spells it, how many arguments it takes,
/// and what it does. Names are matched without regard to case, as Arcade does.
///
/// The library is split by the reference's categories (`ArcadeFunctionLibrary+Text.swift`, ...); each category
/// file adds a `static let xxxFunctions: [ArcadeFunctionDefinition]` that `ArcadeFunctionLibrary.all` lists.
public struct ArcadeFunctionDefinition {
    public let name: String
    public let arity: ClosedRange<Int>
    public let body: (ArcadeCall) throws -> ArcadeValue

    public init(_ name: String, arity: ClosedRange<Int>, _ body: @escaping (ArcadeCall) throws -> ArcadeValue) {
        self.name = name
        self.arity = arity
        self.body = body
    }

    public init(_ name: String, arity: Int, _ body: @escaping (ArcadeCall) throws -> ArcadeValue) {
        self.init(name, arity: arity...arity, body)
    }
}

/// One call of a library function: its arguments, already evaluated, and the evaluator it was called from (to
/// call function values, read the data the host gives, count steps).
public struct ArcadeCall {
    public let name: String
    public let arguments: [ArcadeValue]
    public let context: ArcadeCallContext

    public init(name: String, arguments: [ArcadeValue], context: ArcadeCallContext) {
        self.name = name
        self.arguments = arguments
        self.context = context
    }

    /// Argument `index`, or null when the call has fewer (optional parameters).
    public subscript(index: Int) -> ArcadeValue { index < arguments.count ? arguments[index] : .null }

    public var count: Int { arguments.count }

    /// A run error about this call; the evaluator adds the call's line and column.
    public func failure(_ message: String) -> ArcadeFunctionError { ArcadeFunctionError(message: "\(name): \(message)") }
}

/// What a library function may ask of the evaluator that called it.
public protocol ArcadeCallContext: AnyObject {
    /// Calls a function value (a user function, or a built-in passed by name) with these arguments.
    func invoke(_ function: ArcadeFunctionValue, _ arguments: [ArcadeValue]) throws -> ArcadeValue
    /// Counts `n` steps of work against the expression's bound (`arcade/too-long`); long loops inside library
    /// functions (sorting, `Filter` over a big array) call it too.
    func step(_ n: Int) throws
    /// The host's data (FeatureSets); nil in `lint` and wherever data access is not allowed.
    var dataAccess: ArcadeDataAccess? { get }
    /// The zone `Date()`, `Now()` and date parts use when a date carries none of its own (UTC by default).
    var defaultTimeZone: TimeZone { get }
    /// The current instant, fixed once per evaluation so `Now()` is the same throughout one run (and settable
    /// by tests).
    var now: Double { get }
    /// The next value of `Random()`, in [0, 1).
    func random() -> Double
    /// The value of a variable visible at the call (`Filter(fs, 'x > @limit')` reads `limit`); nil when none.
    func variable(named name: String) -> ArcadeValue?
}

/// A failure inside a library function: the evaluator turns it into `arcade/runtime-error` at the call.
public struct ArcadeFunctionError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
