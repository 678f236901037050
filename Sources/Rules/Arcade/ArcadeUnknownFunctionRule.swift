import Arcade
import WebMap

/// `arcade/unknown-function`: an expression calls a name that is no Arcade function and that it does not declare.
public enum ArcadeUnknownFunctionRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/unknown-function",
        severity: .error,
        summary: "A pop-up or form Arcade expression calls a function that Arcade does not have.",
        rationale: """
            Arcade resolves every call when it compiles the expression: a name that is neither a function of \
            Arcade's function reference nor a function the expression declares (`function name(...) { ... }`) \
            stops the compilation, and the app shows nothing for the expression. It usually comes from a typing \
            mistake (`Uper`), a function of another language (`ToUpper`, `substr`) or a function of a newer \
            Arcade version. Function names compare case-insensitively, as Arcade does.
            """,
        fix: "Call the Arcade function meant (the finding suggests the closest name), or declare the function in the expression.",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "return Uper($feature.Address)"), services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "return ToUpperCase($feature.Condition)"), services: Examples.treesSnapshot),
            // In a form's value expression.
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "expr/address"}"#,
                                       expressions: FormExamples.expression("expr/address", "Trim(Proper($feature.Address, 'everyword')) + Lenght('x')", returnType: "string")),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(ArcadeExamples.map(expression: """
                function shout(text) { return upper(text) + '!' }
                return shout(DefaultValue($feature.Address, 'no address'))
                """), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(ArcadeExpression.all(in: context)) { context, expression in
            // An expression of many calls (a generated one of 250,000) has them checked on every core too.
            let calls = expression.calls
            if calls.count >= context.concurrencyMinimumCount { expression.prepareForConcurrentReports() }
            context.forEachConcurrently(calls, state: { SuggestionMemo() }) { context, memo, call in
                guard !call.isDeclaredInExpression && !ArcadeFunctionCatalog.isKnown(call.name) else { return }
                let suggestion = memo.closest(to: call.name, compute: ArcadeFunctionCatalog.suggestion(for:))
                context.report(self, in: expression, at: call.nameRange.start, about: call.name, message:
                    "Arcade expression \(expression.displayName) in \(expression.place) calls '\(call.name)', which is no Arcade function: the expression "
                    + "does not compile and the app shows nothing for it."
                    + (suggestion.map { " Did you mean '\($0)'?" } ?? " Call a function of Arcade's function reference, or declare it in the expression."))
            }
        }
    }
}
