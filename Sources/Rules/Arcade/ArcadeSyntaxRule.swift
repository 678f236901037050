import WebMap

/// `arcade/syntax`: an expression the app cannot read (unterminated string, template or comment, unbalanced
/// brackets).
public enum ArcadeSyntaxRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/syntax",
        severity: .error,
        summary: "A pop-up Arcade expression has an unterminated string, template literal or comment, or unbalanced brackets.",
        rationale: """
            The app compiles each expression of `expressionInfos` before it shows the pop-up. An expression \
            with a string, template literal or comment that never ends, or with `( ) [ ] { }` that do not pair \
            up, does not compile: the app drops it and shows nothing where it is used (a field row, the title, \
            a text element). Comments and string contents are set aside first, so a bracket inside them does \
            not count. Other mistakes (unknown functions, wrong types) are not checked.
            """,
        fix: "Close the string, template literal, comment or bracket at the reported position.",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "IIf(IsEmpty($feature.Address), 'No address', $feature.Address"),
                      services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "return 'Tree at ' + $feature.Address + ';"),
                      services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "/* the address\nreturn $feature.Address"), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(ArcadeExamples.map(expression: """
                // a ')' in a comment does not count
                var label = 'Condition: (' + $feature.Condition   /* and ']' here neither */
                return `${label} at ${Upper($feature["Address"])}` + "}"
                """), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for expression in ArcadeExpression.all(in: context) {
            guard let problem = expression.problem else { continue }
            context.report(self, in: expression, at: problem.offset, about: problem.message, message:
                "Arcade expression \(expression.displayName) in the pop-up of \(expression.layer.layer.isTable ? "table" : "layer") "
                + "\(expression.layer.layer.displayName) cannot be read: \(problem.message). The app drops the expression "
                + "and shows nothing for it; close it where it should end.")
        }
    }
}
