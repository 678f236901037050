import WebMap

/// `form/value-expression-ignored`: a value expression that never writes anything.
public enum FormValueExpressionIgnoredRule: MapRule {
    public static let description = RuleDescription(
        id: "form/value-expression-ignored",
        severity: .warning,
        summary: "A value expression on a field that does not allow edits (never evaluated), or whose editableExpression is expr/system/true (the crew's entry wins).",
        rationale: """
            A field element is calculated when its field allows edits (editable in the service, not maintained \
            by it, the layer can add or update) and its `editableExpression` is absent or false. On a field \
            that allows no edits the app never runs the value expression; with `editableExpression` \
            `expr/system/true` the crew's entry always wins. Either way the author's calculation never lands.
            """,
        fix: "Remove the value expression, or make the field editable in the service (or drop `editableExpression: expr/system/true`).",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "created_user", "valueExpression": "expr/who"}"#,
                                       expressions: FormExamples.expression("expr/who", "'crew'", returnType: "string")),
                      services: FormExamples.snapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "expr/who", "editableExpression": "expr/system/true"}"#,
                                       expressions: FormExamples.expression("expr/who", "'crew'", returnType: "string")),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "expr/who"}"#,
                                       expressions: FormExamples.expression("expr/who", "'crew'", returnType: "string")),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            for element in subject.form.fieldElements {
                guard let name = element.element.valueExpression, let field = element.field else { continue }
                let reason: String
                if !element.allowsEditsOnInsert && !element.allowsEditsOnUpdate {
                    reason = "the field does not allow edits (read-only or maintained by the service, or the layer cannot add or update), so the app never evaluates it"
                } else if element.element.editableExpression == "expr/system/true" {
                    reason = "its editableExpression is expr/system/true, so the crew's entry always wins"
                } else {
                    continue
                }
                context.report(self, pointer: element.element.pointer / "valueExpression", message:
                    "Value expression '\(name)' of field \(field.displayName) in the form of \(subject.name) is ignored: "
                    + reason + ". Remove it, or make the field calculable.", layer: subject.layer)
            }
        }
    }
}
