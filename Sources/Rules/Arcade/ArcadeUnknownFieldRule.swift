import WebMap

/// `arcade/unknown-field`: an expression reads a field of `$feature` that the layer does not have.
public enum ArcadeUnknownFieldRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/unknown-field",
        severity: .error,
        summary: "A pop-up or form Arcade expression reads a `$feature` field that the layer does not have.",
        rationale: """
            In a pop-up expression `$feature` is the feature shown (for a table, its record). Reading a field \
            it does not have (`$feature.NAME`, `$feature["NAME"]`, or a name listed in `Expects($feature, ...)`) \
            is a run-time error: the app shows nothing for the expression. It usually comes from a field \
            renamed in the service or a typing mistake. Names compare case-insensitively, as the services do.
            """,
        fix: "Correct the name to a field of the layer, or remove the reference.",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "return 'Condition: ' + $feature.Conditon"), services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "Expects($feature, 'Address', 'Species')\nreturn $feature['Address']"),
                      services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(ArcadeExamples.map(expression: """
                // $feature.Conditon is only a comment
                Expects($feature, '*')
                Expects($feature, 'Addr' + 'ess')
                return $feature.condition + ' at ' + $feature["ADDRESS"] + ' ($feature.Species)'
                """), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(ArcadeExpression.all(in: context)) { context, expression in
            // Without the layer's fields nothing can be checked (map/unresolved-layer says so).
            guard let table = expression.layer.table, !table.fields.isEmpty else { return }
            var memo = SuggestionMemo()
            for reference in expression.fieldReferences where table.field(named: reference.name) == nil {
                let suggestion = memo.closest(to: reference.name) { Suggestions.closest(to: $0, in: table.fields.map(\.name)) }
                context.report(self, in: expression, at: reference.token.start, about: reference.name, message:
                    "Arcade expression \(expression.displayName) in \(expression.place) reads field '\(reference.name)' of $feature, which the "
                    + "\(expression.layer.layer.isTable ? "table" : "layer") does not have: the app shows nothing for the expression."
                    + (suggestion.map { " Did you mean '\($0)'?" } ?? " Correct the name or remove the reference."))
            }
        }
    }
}
