import WebMap

/// `form/required-conditionally-hidden`: a field every new feature needs is visible only sometimes.
public enum FormRequiredConditionallyHiddenRule: MapRule {
    public static let description = RuleDescription(
        id: "form/required-conditionally-hidden",
        severity: .warning,
        summary: "A field a new feature must have is in the form, but only visible when a visibility expression is true.",
        rationale: """
            A hidden element cannot be filled in, and with `preserveFieldValuesWhenHidden` false its value is \
            cleared when the feature is saved. A field that is not nullable, has no default value and that the \
            service does not fill in, shown only while its (or its group's) visibility expression is true, \
            blocks saving whenever that expression is false: the crew cannot see what is missing.
            """,
        fix: "Show the field always (remove the visibility expression), or give the field a default value (or make it nullable) in the service.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Species", "visibilityExpression": "expr/has-address"}"#,
                                       expressions: FormExamples.expression("expr/has-address", "!IsEmpty($feature.Address)")),
                      services: FormExamples.requiredSnapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Species"}"#), services: FormExamples.requiredSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            for field in subject.requiredNewFeatureFields(in: context) {
                let elements = subject.form.fieldElements.filter { $0.field === field && !subject.isNeverVisible($0) && subject.canGetValueOnInsert($0) }
                // Only when every usable element is conditional: one always shown is enough.
                let conditional = elements.filter { element in
                    [element.element.visibilityExpression, element.group?.visibilityExpression].contains { name in
                        name != nil && subject.form.constantValue(of: name) != true
                    }
                }
                guard !elements.isEmpty, conditional.count == elements.count, let element = conditional.first else { continue }
                let name = element.element.visibilityExpression ?? element.group?.visibilityExpression ?? ""
                context.report(self, pointer: element.element.pointer / "fieldName", message:
                    "Field \(field.displayName) of \(subject.name) must have a value in every new feature (not nullable, no "
                    + "default value), but its form element is visible only when '\(name)' is true: whenever it is hidden the "
                    + "feature cannot be saved. Show it always, or give the field a default value in the service.",
                    layer: subject.layer)
            }
        }
    }
}
