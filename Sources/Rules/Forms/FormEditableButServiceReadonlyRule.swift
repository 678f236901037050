import WebMap

/// `form/editable-but-service-readonly`: an editable expression on a field the service does not let anyone edit.
public enum FormEditableButServiceReadonlyRule: MapRule {
    public static let description = RuleDescription(
        id: "form/editable-but-service-readonly",
        severity: .warning,
        summary: "An editableExpression (other than expr/system/false) on a field the service marks read-only or maintains itself.",
        rationale: """
            A field element is editable by the crew only when its field allows edits. On a field the service \
            marks `editable: false`, or fills in itself (object id, global id, editor tracking), the \
            `editableExpression` is ignored: the author expects the crew to edit it at times, and they never can.
            """,
        fix: "Remove the editableExpression, or make the field editable in the service.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "created_user", "editableExpression": "expr/system/true"}"#),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "field", "fieldName": "created_user", "editableExpression": "expr/system/false"},
                          {"type": "field", "fieldName": "Address", "editableExpression": "expr/system/true"}
                """), services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            guard let table = subject.layer.table else { continue }
            for element in subject.form.fieldElements {
                guard let name = element.element.editableExpression, name != "expr/system/false", let field = element.field,
                      !field.editable || table.isSystemMaintained(field) else { continue }
                let why = table.isSystemMaintained(field) ? "the service maintains it itself" : "the service marks it read-only (`editable: false`)"
                context.report(self, pointer: element.element.pointer / "editableExpression", message:
                    "Field \(field.displayName) in the form of \(subject.name) has editable expression '\(name)', but \(why): "
                    + "the crew can never edit it. Remove the expression, or make the field editable in the service.",
                    layer: subject.layer)
            }
        }
    }
}
