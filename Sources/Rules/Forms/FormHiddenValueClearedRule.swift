import WebMap

/// `form/hidden-value-cleared`: a conditionally visible field whose value is erased whenever it is hidden.
public enum FormHiddenValueClearedRule: MapRule {
    public static let description = RuleDescription(
        id: "form/hidden-value-cleared",
        severity: .info,
        summary: "A field element with a visibility expression while preserveFieldValuesWhenHidden is false: its value is erased whenever it is hidden.",
        rationale: """
            With `preserveFieldValuesWhenHidden` false (the default) the app sets every field element that is \
            hidden when the feature is saved to null. A field shown only under a condition therefore loses \
            what was entered (or what the feature already had) as soon as the condition turns false, often \
            without the crew noticing. That is usually intended; this note makes it visible.
            """,
        fix: "Set `preserveFieldValuesWhenHidden` to true on the form when hidden values must be kept.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "DBH", "visibilityExpression": "expr/has-address"}"#,
                                       expressions: FormExamples.expression("expr/has-address", "!IsEmpty($feature.Address)")),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "DBH", "visibilityExpression": "expr/has-address"}"#,
                                       expressions: FormExamples.expression("expr/has-address", "!IsEmpty($feature.Address)"),
                                       formExtra: #""preserveFieldValuesWhenHidden": true"#),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) where !subject.form.form.preserveFieldValuesWhenHidden {
            for element in subject.form.fieldElements {
                guard let name = element.element.visibilityExpression, subject.form.constantValue(of: name) != true,
                      element.field?.nullable != false else { continue }
                context.report(self, pointer: element.element.pointer / "visibilityExpression", message:
                    "Field '\(element.fieldName)' in the form of \(subject.name) is visible only when '\(name)' is true, and the "
                    + "form does not preserve hidden values: whatever it holds is erased when the feature is saved while it is "
                    + "hidden. Set preserveFieldValuesWhenHidden to true if that is not intended.", layer: subject.layer)
            }
        }
    }
}
