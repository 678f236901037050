import Arcade
import WebMap

/// `arcade/profile-variable`: a pop-up expression uses `$originalFeature` or `$editcontext`, which only form
/// expressions have.
public enum ArcadeProfileVariableRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/profile-variable",
        severity: .error,
        summary: "A pop-up Arcade expression uses `$originalFeature` or `$editcontext`, which exist only in form expressions.",
        rationale: """
            Each place an expression runs offers its own profile variables. Form expressions (visibility, \
            required, editable, value) have `$originalFeature` (the feature as loaded) and `$editcontext` (the \
            kind of edit); a pop-up expression has neither. The app refuses such an expression as it compiles \
            it and shows nothing for it in the pop-up.
            """,
        fix: "Use `$feature` in the pop-up, or move the logic into the form's expressions (`formInfo.expressionInfos`).",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "return $originalFeature.Condition + ' -> ' + $feature.Condition"),
                      services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "IIf($editcontext.editType == 'INSERT', 'new', $feature.Address)"),
                      services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(ArcadeExamples.map(expression: """
                // $originalFeature is only a comment here, and '$editcontext' a string
                return $feature.Condition + ' $editcontext'
                """), services: Examples.treesSnapshot),
        ])

    /// The profile variables of form expressions only (lower-cased).
    static let formOnly: Set<String> = ["$originalfeature", "$editcontext"]

    public static func check(_ context: MapContext) {
        for expression in ArcadeExpression.all(in: context) {
            guard let analysis = expression.analysis else { continue }
            for use in analysis.profileVariables where formOnly.contains(use.name.lowercased()) {
                context.report(self, in: expression, at: use.range.start, about: use.name, message:
                    "Arcade expression \(expression.displayName) in the pop-up of \(expression.layer.layer.isTable ? "table" : "layer") "
                    + "\(expression.layer.layer.displayName) uses \(use.name), which only form expressions have: the app "
                    + "refuses the expression and shows nothing for it. Use $feature, or move this into the form's expressions.")
            }
        }
    }
}
