import WebMap

/// `form/empty`: a `formInfo` without elements.
public enum FormEmptyRule: MapRule {
    public static let description = RuleDescription(
        id: "form/empty",
        severity: .warning,
        summary: "A formInfo with no elements: nothing can be edited through it.",
        rationale: """
            A layer is form-enabled only when its form has at least one element; an empty `formInfo` is usually \
            a form whose elements were lost (a failed save, a copy that dropped them). Apps that read it as a \
            form offer nothing to edit.
            """,
        fix: "Add the form's elements back, or remove the empty formInfo.",
        triggeringExamples: [
            .document(FormExamples.map(elements: ""), services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address"}"#), services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) where !subject.form.isEnabled {
            context.report(self, pointer: subject.form.form.pointer / "formElements", message:
                "The form of \(subject.name) has no elements: nothing can be edited through it. Add its elements, or remove the formInfo.",
                layer: subject.layer)
        }
    }
}
