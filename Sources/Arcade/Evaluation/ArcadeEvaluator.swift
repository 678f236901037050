/// Evaluates Arcade expressions.
///
///     let value = try ArcadeEvaluator.evaluate("Left('the quick brown fox', 3)")     // .text("the")
///     let program = try ArcadeProgram("$feature.Status == 'Damaged'")              // parse and resolve once
///     let damaged = try program.evaluate(ArcadeEvaluationContext(feature: feature)) // then evaluate many times
///
/// Errors are `ArcadeError`s: `arcade/syntax` (parsing), `arcade/runtime-error`, `arcade/too-long` and
/// `arcade/unsupported-function`, each at its line and column in the expression.
public enum ArcadeEvaluator {
    public static func evaluate(_ source: String, context: ArcadeEvaluationContext = .init()) throws -> ArcadeValue {
        try ArcadeProgram(source).evaluate(context)
    }
}

/// An expression parsed and resolved once (names to variable slots, calls to library functions), to evaluate many
/// times, with different features, on any thread (a program holds no state of its own runs).
public final class ArcadeProgram: @unchecked Sendable {
    /// The syntax tree the program was compiled from (for analysis).
    public let script: ArcadeScript
    let compiled: CompiledScript

    /// Parses and compiles `source`; throws the first syntax error (`arcade/syntax`), or the first call of a name
    /// that is no Arcade function and that the expression does not declare (`arcade/unknown-function`): the app
    /// refuses such an expression before it runs, whether or not the call would be reached.
    public init(_ source: String) throws {
        switch ArcadeParser.parse(source) {
        case .success(let script):
            if let call = ArcadeAnalysis(script).calls.first(where: { !$0.isDeclaredInExpression && !ArcadeFunctionCatalog.isKnown($0.name) }) {
                var message = "'\(call.name)' is not a function of Arcade"
                if let suggestion = ArcadeFunctionCatalog.suggestion(for: call.name) { message += "; did you mean \(suggestion)?" }
                throw ArcadeError(ArcadeError.unknownFunction, message, at: call.nameRange)
            }
            self.script = script
            compiled = ArcadeCompiler.compile(script)
        case .failure(let errors):
            throw errors.errors.first ?? ArcadeError(ruleId: ArcadeError.syntax, message: "syntax error", line: 1, column: 1, offset: 0)
        }
    }

    /// Compiles an already parsed tree.
    public init(script: ArcadeScript) {
        self.script = script
        compiled = ArcadeCompiler.compile(script)
    }

    public func evaluate(_ context: ArcadeEvaluationContext = .init()) throws -> ArcadeValue {
        let run = ArcadeRun(compiled, context)
        let value = try run.runScript()
        try ArcadeProgram.checkResult(value, context.profile, compiled)
        return value
    }

    /// A form constraint returns a Boolean; a form calculation a Number, Text, Date or null.
    static func checkResult(_ value: ArcadeValue, _ profile: ArcadeProfile, _ compiled: CompiledScript) throws {
        switch (profile, value) {
        case (.popup, _), (.formConstraint, .boolean), (.formCalculation, .number), (.formCalculation, .text),
             (.formCalculation, .date), (.formCalculation, .null):
            return
        case (.formConstraint, _):
            throw ArcadeError(ArcadeError.runtimeError,
                              "a form constraint expression (visibility, required, editable) must return a Boolean; this one returned \(value.typeName)",
                              at: compiled.resultRange)
        case (.formCalculation, _):
            throw ArcadeError(ArcadeError.runtimeError,
                              "a form calculation expression must return a Number, Text, Date or null; this one returned \(value.typeName)",
                              at: compiled.resultRange)
        }
    }
}
