import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The state of one evaluation: variables, counters, the profile's values. It is the `ArcadeCallContext` the
/// library functions see.
final class ArcadeRun: ArcadeCallContext {
    let compiled: CompiledScript
    let context: ArcadeEvaluationContext
    /// The frame of the code running now (the globals at the top level, a function's locals inside it).
    var frame: Frame
    var steps = 0
    var depth = 0
    /// The value of the last expression statement at the top level: the result when nothing is returned.
    var lastValue: ArcadeValue = .null
    var returnValue: ArcadeValue = .null
    let feature: ArcadeFeature?
    private var clock: Double?
    /// When the first clock check ran (0 before): reading a thread's processor clock is a system call, too slow to
    /// make for every evaluation of a short expression, so the bound counts from the first check.
    private var started: UInt64 = 0
    private var nextClockCheck = 4096
    private var randomState: UInt64
    /// The lowest stack address evaluation may reach before it stops (deep recursion and nesting); read when a
    /// user function is first called (reading a thread's stack bounds is slow on the main thread).
    private lazy var stackLimit: UInt = ArcadeRun.cachedStackLimit()

    init(_ compiled: CompiledScript, _ context: ArcadeEvaluationContext) {
        self.compiled = compiled
        self.context = context
        self.feature = context.feature
        frame = compiled.globalCount == 0 ? Frame.empty : Frame(count: compiled.globalCount, parent: nil, scope: compiled.scope)
        clock = context.now
        randomState = 0
    }

    func runScript() throws -> ArcadeValue {
        for function in compiled.functions {
            frame.slots[function.slot] = .function(ArcadeFunctionValue(name: function.name, implementation: Closure(function, frame)))
        }
        for statement in compiled.statements {
            if statement.resetsResult { lastValue = .null }
            switch try statement.execute(self) {
            case .normal: continue
            case .returned: return returnValue
            case .breakLoop, .continueLoop: continue
            }
        }
        return lastValue
    }

    // MARK: - Bounds

    /// Counts steps for a library function; the error is placed at the call by `callLibrary`.
    func step(_ n: Int) throws {
        try step(n, at: ArcadeRun.unplaced)
    }

    @inline(__always)
    func step(_ n: Int, at range: ArcadeSourceRange) throws {
        steps &+= n
        if steps > context.limits.maximumSteps || n < 0 {
            throw ArcadeError(ArcadeError.tooLong,
                              "the expression ran too long: more than \(context.limits.maximumSteps) steps (loops, calls and functions' work); it may never end",
                              at: range)
        }
        if steps >= nextClockCheck { try checkClock(at: range) }
    }

    private func checkClock(at range: ArcadeSourceRange) throws {
        nextClockCheck = steps + 4096
        if started == 0 {
            started = ArcadeRun.cpuNanoseconds()
            return
        }
        let elapsed = Double(ArcadeRun.cpuNanoseconds() &- started) / 1e9
        if elapsed > context.limits.maximumDuration {
            throw ArcadeError(ArcadeError.tooLong,
                              "the expression ran too long: more than \(ArcadeValue.formatNumber(context.limits.maximumDuration)) s; it may never end",
                              at: range)
        }
    }

    /// The place of an error not yet placed (offset -1): the nearest call places it.
    static let unplaced = ArcadeSourceRange(start: -1, end: -1, line: 0, column: 0)

    /// Whether the native stack still has room for one more level of evaluation.
    func checkStack(at range: ArcadeSourceRange) throws {
        var marker: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if address < stackLimit {
            throw ArcadeError(ArcadeError.tooLong, "the expression nests or recurses too deeply for the evaluator's stack", at: range)
        }
    }

    /// The processor time this thread has used, in nanoseconds: the time bound counts the evaluation's own work,
    /// not the time the machine gives other work, nor the time waiting for the host's data.
    static func cpuNanoseconds() -> UInt64 {
        #if canImport(Glibc)
        var time = timespec()
        if clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 {
            return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        }
        #endif
        return DispatchTime.now().uptimeNanoseconds
    }

    /// The thread's stack limit, computed once per thread.
    static func cachedStackLimit() -> UInt {
        let key = "MapRules.Arcade.stackLimit"
        let dictionary = Thread.current.threadDictionary
        if let limit = dictionary[key] as? UInt { return limit }
        let limit = stackLimit()
        dictionary[key] = limit
        return limit
    }

    static func stackLimit() -> UInt {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        var size: UInt = 512 * 1024   // assumed when the thread's stack cannot be read
        var low: UInt = here > size ? here - size : 0
        #if canImport(Glibc)
        // pthread_getattr_np is a GNU extension the Glibc module does not import: found at run time.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        var attributes = pthread_attr_t()
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np"),
           unsafeBitCast(symbol, to: GetAttributes.self)(pthread_self(), &attributes) == 0 {
            var address: UnsafeMutableRawPointer?
            var stackSize = 0
            if pthread_attr_getstack(&attributes, &address, &stackSize) == 0, let address {
                low = UInt(bitPattern: address)
                size = UInt(stackSize)
            }
            pthread_attr_destroy(&attributes)
        }
        #endif
        // Keep a margin for the library functions and the runtime below the last checked frame.
        let margin: UInt = min(256 * 1024, size / 4)
        return low + margin
    }

    // MARK: - ArcadeCallContext

    func invoke(_ function: ArcadeFunctionValue, _ arguments: [ArcadeValue]) throws -> ArcadeValue {
        try invoke(function, arguments, at: compiled.resultRange)
    }

    func invoke(_ function: ArcadeFunctionValue, _ arguments: [ArcadeValue], at range: ArcadeSourceRange) throws -> ArcadeValue {
        switch function.implementation {
        case let closure as Closure:
            return try call(closure, arguments, at: range)
        case let builtin as BuiltinFunction:
            return try callLibrary(builtin.definition, arguments, at: range)
        default:
            throw ArcadeError(ArcadeError.runtimeError, "'\(function.name)' cannot be called here", at: range)
        }
    }

    func call(_ closure: Closure, _ arguments: [ArcadeValue], at range: ArcadeSourceRange) throws -> ArcadeValue {
        let function = closure.function
        guard arguments.count == function.parameterCount else {
            throw ArcadeError(ArcadeError.runtimeError,
                              "'\(function.name)' takes \(function.parameterCount) argument\(function.parameterCount == 1 ? "" : "s"), not \(arguments.count)",
                              at: range)
        }
        try step(1)
        if depth >= context.limits.maximumDepth {
            throw ArcadeError(ArcadeError.tooLong,
                              "'\(function.name)' recursed too deeply: more than \(context.limits.maximumDepth) calls in progress at once",
                              at: range)
        }
        try checkStack(at: range)
        let callee = Frame(count: function.slotCount, parent: closure.captured, scope: function.scope)
        for (index, argument) in arguments.enumerated() { callee.slots[index] = argument }
        for nested in function.functions {
            callee.slots[nested.slot] = .function(ArcadeFunctionValue(name: nested.name, implementation: Closure(nested, callee)))
        }
        let saved = frame
        frame = callee
        depth += 1
        defer {
            frame = saved
            depth -= 1
        }
        returnValue = .null
        // Without `return`, a function answers the value of its last statement, as a script does (the reference's
        // Reduce example: `function mostPopulated(a, b) { IIf(a.pop > b.pop, a, b) }`).
        var last: ArcadeValue = .null
        for statement in function.body {
            if let expression = statement as? ExpressionStatement {
                last = try expression.expression.evaluate(self)
                continue
            }
            if statement.resetsResult { last = .null }
            if case .returned = try statement.execute(self) {
                let value = returnValue
                returnValue = .null
                return value
            }
        }
        return last
    }

    func callLibrary(_ definition: ArcadeFunctionDefinition, _ arguments: [ArcadeValue], at range: ArcadeSourceRange) throws -> ArcadeValue {
        guard definition.arity.contains(arguments.count) else {
            throw ArcadeError(ArcadeError.runtimeError, ArcadeRun.arityMessage(definition, arguments.count), at: range)
        }
        do {
            return try definition.body(ArcadeCall(name: definition.name, arguments: arguments, context: self))
        } catch let error as ArcadeFunctionError {
            throw ArcadeError(ArcadeError.runtimeError, error.message, at: range)
        } catch let error as ArcadeError {
            if error.offset < 0 { throw ArcadeError(error.ruleId, error.message, at: range) }
            throw error
        } catch {
            throw ArcadeError(ArcadeError.runtimeError, "\(definition.name): \(error)", at: range)
        }
    }

    static func arityMessage(_ definition: ArcadeFunctionDefinition, _ count: Int) -> String {
        let range = definition.arity
        let expected: String
        if range.lowerBound == range.upperBound {
            expected = "\(range.lowerBound) argument\(range.lowerBound == 1 ? "" : "s")"
        } else if range.upperBound >= 1000 {
            expected = "at least \(range.lowerBound) argument\(range.lowerBound == 1 ? "" : "s")"
        } else {
            expected = "\(range.lowerBound) to \(range.upperBound) arguments"
        }
        return "\(definition.name) takes \(expected), not \(count)"
    }

    var dataAccess: ArcadeDataAccess? { context.dataAccess }

    var defaultTimeZone: TimeZone { context.timeZone }

    var now: Double {
        if let clock { return clock }
        let value = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        clock = value
        return value
    }

    func random() -> Double {
        if randomState == 0 { randomState = UInt64.random(in: 1...UInt64.max) }
        // xorshift64*: good enough for Random(), never zero.
        randomState ^= randomState >> 12
        randomState ^= randomState << 25
        randomState ^= randomState >> 27
        let value = randomState &* 2685821657736338717
        return Double(value >> 11) / Double(1 << 53)
    }

    func variable(named name: String) -> ArcadeValue? {
        let folded = name.lowercased()
        // Innermost first: the running function's locals, then the frames it closes over.
        var scope: CompiledScope? = frame.scope
        var current: Frame? = frame
        while let s = scope, let f = current {
            if let slot = s.slots[folded], slot < f.slots.count { return f.slots[slot] }
            scope = s.parent
            current = f.parent
        }
        return nil
    }
}

/// The variables of one running function (or of the top level).
final class Frame {
    var slots: [ArcadeValue]
    let parent: Frame?
    /// The names of the slots (`variable(named:)` reads them).
    let scope: CompiledScope?

    init(count: Int, parent: Frame?, scope: CompiledScope?) {
        slots = Array(repeating: .null, count: count)
        self.parent = parent
        self.scope = scope
    }

    /// The top level's frame when it has no variables: shared, never written.
    nonisolated(unsafe) static let empty = Frame(count: 0, parent: nil, scope: nil)
}

/// A user function with the frame it was declared in (closures see the variables around them).
final class Closure {
    let function: CompiledFunction
    let captured: Frame
    init(_ function: CompiledFunction, _ captured: Frame) {
        self.function = function
        self.captured = captured
    }
}

/// A library function used as a value (`Filter(values, IsEmpty)`).
final class BuiltinFunction {
    let definition: ArcadeFunctionDefinition
    init(_ definition: ArcadeFunctionDefinition) { self.definition = definition }
}
