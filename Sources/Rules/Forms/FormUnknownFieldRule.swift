import WebMap

/// `form/unknown-field`: a field element names no field of the layer.
public enum FormUnknownFieldRule: MapRule {
    public static let description = RuleDescription(
        id: "form/unknown-field",
        severity: .error,
        summary: "A form's field element names a field the layer does not have.",
        rationale: """
            A field element shows and edits the service field its `fieldName` names (compared \
            case-insensitively, as the services do). When the layer has no such field (renamed or removed in \
            the service, or a typing mistake) the app leaves the element out of the form: the crew never sees \
            the input, and whatever its expressions decide is lost.
            """,
        fix: "Correct `fieldName` to a field of the layer (the finding suggests the closest), or remove the element.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Adress", "label": "Address"}"#), services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "ADDRESS", "label": "Address"}"#), services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            // Without the layer's fields nothing can be checked (map/unresolved-layer says so).
            guard let table = subject.layer.table, !table.fields.isEmpty else { continue }
            for element in subject.form.fieldElements where element.field == nil {
                guard let name = element.element.fieldName else { continue }
                let suggestion = Suggestions.closest(to: name, in: table.fields.map(\.name))
                context.report(self, pointer: element.element.pointer / "fieldName", message:
                    "The form of \(subject.name) has a field element for '\(name)', which the layer does not have: the app "
                    + "leaves it out of the form." + (suggestion.map { " Did you mean '\($0)'?" } ?? " Correct the name or remove the element."),
                    layer: subject.layer)
            }
        }
    }
}
