import WebMap

/// `form/nested-group`: a group inside a group.
public enum FormNestedGroupRule: MapRule {
    public static let description = RuleDescription(
        id: "form/nested-group",
        severity: .error,
        summary: "A form group inside another group (the apps drop it).",
        rationale: """
            Forms have one level of groups: the apps drop a group found inside another group, with every \
            element in it, so the crew never sees those inputs (and a required field among them blocks saving).
            """,
        fix: "Move the inner group's elements into the outer group (`maprules lint --fix` lifts them), or make it a top-level group.",
        triggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "group", "label": "Site", "formElements": [
                            {"type": "field", "fieldName": "Address"},
                            {"type": "group", "label": "Details", "formElements": [{"type": "field", "fieldName": "Condition"}]}
                          ]}
                """), services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "group", "label": "Site", "formElements": [{"type": "field", "fieldName": "Address"}]},
                          {"type": "group", "label": "Details", "formElements": [{"type": "field", "fieldName": "Condition"}]}
                """), services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            for element in subject.form.form.allElements where element.kind == .group && element.depth > 0 {
                context.report(self, pointer: element.pointer / "type", message:
                    "The form of \(subject.name) has group '\(element.label ?? "(no label)")' inside another group: the apps drop "
                    + "it and its \(element.children.count) element(s). Move its elements into the outer group.",
                    layer: subject.layer, fix: context.fixes.liftGroup(element, in: context.document.root))
            }
        }
    }
}
