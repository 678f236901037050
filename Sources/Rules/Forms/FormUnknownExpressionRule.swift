import WebMap

/// `form/unknown-expression`: an element names an expression the form does not define.
public enum FormUnknownExpressionRule: MapRule {
    public static let description = RuleDescription(
        id: "form/unknown-expression",
        severity: .error,
        summary: "A form element names an expression that the form's expressionInfos do not define.",
        rationale: """
            `visibilityExpression`, `requiredExpression`, `editableExpression` and `valueExpression` name an \
            entry of `formInfo.expressionInfos` (or the constants `expr/system/true` and `expr/system/false`). \
            A name the form does not define cannot be evaluated: the app ignores it, so the element is always \
            shown, never required, or never calculated, whatever the author meant.
            """,
        fix: "Name an expression of `formInfo.expressionInfos` (the finding suggests the closest), or add the expression.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Condition", "visibilityExpression": "expr/has-adress"}"#,
                                       expressions: FormExamples.expression("expr/has-address", "!IsEmpty($feature.Address)")),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "field", "fieldName": "Condition", "visibilityExpression": "expr/has-address"},
                          {"type": "field", "fieldName": "Address", "editableExpression": "expr/system/false"}
                """, expressions: FormExamples.expression("expr/has-address", "!IsEmpty($feature.Address)")),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            let names = subject.form.form.expressionInfos.compactMap(\.name)
            for element in subject.form.form.allElements {
                for (member, name) in element.expressionReferences where !subject.form.isDefined(name) {
                    let suggestion = Suggestions.closest(to: name, in: names + ["expr/system/true", "expr/system/false"])
                    context.report(self, pointer: element.pointer / member, message:
                        "The form of \(subject.name) names expression '\(name)' as a \(member), but its expressionInfos do not "
                        + "define it: the app ignores it." + (suggestion.map { " Did you mean '\($0)'?" } ?? " Add the expression or correct the name."),
                        layer: subject.layer)
                }
            }
        }
    }
}
