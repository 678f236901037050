import Arcade
import WebMap

/// `arcade/syntax`: an expression the app cannot read, from Arcade's parser: every syntax error at its place.
public enum ArcadeSyntaxRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/syntax",
        severity: .error,
        summary: "A pop-up or form Arcade expression does not parse: an unterminated string, template literal or comment, unbalanced brackets, or any other syntax error.",
        rationale: """
            The app compiles each expression of `expressionInfos` before it shows the pop-up. An expression \
            that does not parse (a string, template literal or comment that never ends, `( ) [ ] { }` that do \
            not pair up, an operator with nothing after it, a keyword where a value should be) does not \
            compile: the app drops it and shows nothing where it is used (a field row, the title, a text \
            element). MapRules reads the expression with its Arcade parser and reports each syntax error at \
            its line and column; text inside strings and comments never counts as code.
            """,
        fix: "Correct the expression at the reported position (close the string, comment or bracket; complete the statement).",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "IIf(IsEmpty($feature.Address), 'No address', $feature.Address"),
                      services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "return 'Tree at ' + $feature.Address + ';"),
                      services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "/* the address\nreturn $feature.Address"), services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "var size = $feature.DBH *\nreturn size"), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(ArcadeExamples.map(expression: """
                // a ')' in a comment does not count
                var label = 'Condition: (' + $feature.Condition   /* and ']' here neither */
                return `${label} at ${Upper($feature["Address"])}` + "}"
                """), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(ArcadeExpression.all(in: context)) { context, expression in
            guard let errors = expression.syntaxErrors else { return }
            for error in errors.errors {
                context.report(self, in: expression, at: error.offset, about: error.message, message:
                    "Arcade expression \(expression.displayName) in \(expression.place) cannot be read: \(error.message) (line \(error.line), column \(error.column) "
                    + "of the expression). The app drops the expression and shows nothing for it; correct it there.")
            }
        }
    }
}
