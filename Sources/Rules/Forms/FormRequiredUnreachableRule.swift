import WebMap

/// `form/required-unreachable`: a field every new feature needs cannot get a value through the form.
public enum FormRequiredUnreachableRule: MapRule {
    public static let description = RuleDescription(
        id: "form/required-unreachable",
        severity: .error,
        summary: "On a form-enabled layer that can add, a field a new feature must have cannot get a value through the form.",
        rationale: """
            On a form-enabled layer only the form's field elements get values. A field that is not nullable, \
            has no default value and that the service does not fill in itself must therefore have an element \
            that is visible at least sometimes and that the crew can edit or the app calculates. Without one \
            (no element, an element whose visibility is `expr/system/false` or literally `false`, an element \
            never editable and not calculated) every new feature is refused: the crew fills in the form and can \
            never save it. Not checked: the geometry and the key of a many-to-one relationship the app uses.
            """,
        fix: "Add a visible, editable (or calculated) field element for the field, or give the field a default value in the service.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address"}"#), services: FormExamples.requiredSnapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Species", "visibilityExpression": "expr/system/false"}"#),
                      services: FormExamples.requiredSnapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Species", "editableExpression": "expr/system/false"}"#),
                      services: FormExamples.requiredSnapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Species", "inputType": {"type": "text-box"}}"#),
                      services: FormExamples.requiredSnapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Species", "valueExpression": "expr/species"}"#,
                                       expressions: FormExamples.expression("expr/species", "'Unknown'", returnType: "string")),
                      services: FormExamples.requiredSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            for field in subject.requiredNewFeatureFields(in: context) {
                let elements = subject.form.fieldElements.filter { $0.field === field }
                let reason: String
                let pointer: JSONPointer
                if elements.isEmpty {
                    reason = "the form has no element for it"
                    pointer = subject.form.form.pointer / "formElements"
                } else if let hidden = elements.first(where: subject.isNeverVisible) , elements.allSatisfy(subject.isNeverVisible) {
                    reason = "its element is never visible"
                    pointer = hidden.element.pointer
                } else if !elements.contains(where: subject.canGetValueOnInsert) {
                    reason = "its element is never editable by the crew and not calculated"
                    pointer = elements[0].element.pointer
                } else {
                    continue
                }
                context.report(self, pointer: pointer, message:
                    "Layer \(subject.layer.layer.displayName) requires a value for field \(field.displayName) (not nullable, "
                    + "no default value, not maintained by the service), but \(reason): no new feature can be saved. Add a "
                    + "visible, editable or calculated field element for it, or give it a default value in the service.",
                    layer: subject.layer)
            }
        }
    }
}
