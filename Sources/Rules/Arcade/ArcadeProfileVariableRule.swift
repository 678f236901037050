import Arcade
import WebMap

/// `arcade/profile-variable`: a pop-up expression uses `$originalFeature` or `$editcontext`, which only form
/// expressions have.
public enum ArcadeProfileVariableRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/profile-variable",
        severity: .error,
        summary: "An Arcade expression uses a profile variable its profile does not offer: `$originalFeature` or `$editcontext` in a pop-up, `$map`, `$layer` or `$datastore` in a form's visibility, required or editable expression.",
        rationale: """
            Each place an expression runs offers its own profile variables. Form expressions (visibility, \
            required, editable, value) have `$originalFeature` (the feature as loaded) and `$editcontext` (the \
            kind of edit); a pop-up expression has neither. The app refuses such an expression as it compiles \
            it and shows nothing for it in the pop-up. Form expressions are checked with the profile of their \
            use: a value expression (form-calculation) also has `$map`, `$layer` and `$datastore`; a visibility, \
            required or editable expression (form-constraint) does not.
            """,
        fix: "Use `$feature` in the pop-up, or move the logic into the form's expressions (`formInfo.expressionInfos`).",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "return $originalFeature.Condition + ' -> ' + $feature.Condition"),
                      services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "IIf($editcontext.editType == 'INSERT', 'new', $feature.Address)"),
                      services: Examples.treesSnapshot),
            // A form's visibility expression has no data access.
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Condition", "visibilityExpression": "expr/near"}"#,
                                       expressions: FormExamples.expression("expr/near", "Count(FeatureSetByName($map, 'Trees')) > 0")),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            // In a form's expressions they are the form profiles' own.
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Condition", "visibilityExpression": "expr/changed"}"#,
                                       expressions: FormExamples.expression("expr/changed",
                                                                            "$editcontext.editType == 'UPDATE' && $originalFeature.Address != $feature.Address")),
                      services: FormExamples.snapshot),
            .document(ArcadeExamples.map(expression: """
                // $originalFeature is only a comment here, and '$editcontext' a string
                return $feature.Condition + ' $editcontext'
                """), services: Examples.treesSnapshot),
        ])

    /// The profile variables of form expressions only (lower-cased).
    static let formOnly: Set<String> = ["$originalfeature", "$editcontext"]

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(ArcadeExpression.all(in: context)) { context, expression in
            let offered = expression.profile.variables
            for use in expression.profileVariableUses where !offered.contains(use.name.lowercased()) {
                let name = use.name.lowercased()
                guard ArcadeProfile.allCases.contains(where: { $0.variables.contains(name) }) else { continue }
                let message: String
                if expression.isFormExpression {
                    message = "Arcade expression \(expression.displayName) in \(expression.place) is a \(expression.profile.rawValue) "
                        + "expression (visibility, required or editable) and uses \(use.name), which only value expressions have: the "
                        + "app refuses the expression. Read the data in a value expression, or use $feature."
                } else {
                    message = "Arcade expression \(expression.displayName) in \(expression.place) uses \(use.name), which only form expressions have: the app "
                        + "refuses the expression and shows nothing for it. Use $feature, or move this into the form's expressions."
                }
                context.report(self, in: expression, at: use.range.start, about: use.name, message: message)
            }
        }
    }
}
