import WebMap

/// `form/length-exceeds-field`: a text input allows more characters than the String field holds, or its
/// minimum is above its maximum.
public enum FormLengthExceedsFieldRule: MapRule {
    public static let description = RuleDescription(
        id: "form/length-exceeds-field",
        severity: .warning,
        summary: "A text input's maxLength is above the String field's length, or its minLength is above its maxLength.",
        rationale: """
            A text input (`text-box`, `text-area`, `barcode-scanner`) lets the crew type up to `maxLength` \
            characters. Above the String field's `length` the form accepts text the service then refuses, so \
            the feature cannot be saved; a `minLength` above `maxLength` accepts nothing at all.
            """,
        fix: "Set `maxLength` to at most the field's length, and `minLength` to at most `maxLength`.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "inputType": {"type": "text-box", "maxLength": 255}}"#),
                      services: FormExamples.snapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "inputType": {"type": "text-area", "minLength": 20, "maxLength": 10}}"#),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "inputType": {"type": "text-box", "minLength": 2, "maxLength": 100}}"#),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            for element in subject.form.fieldElements {
                guard let field = element.field, field.type == .string, let input = element.element.inputType, input.isText else { continue }
                let pointer = element.element.pointer / "inputType"
                if let max = input.maxLength, let length = field.length, length > 0, max > length {
                    context.report(self, pointer: pointer / "maxLength", message:
                        "The \(input.type ?? "text") input of field \(field.displayName) in the form of \(subject.name) allows "
                        + "\(max) characters, but the field holds \(length): longer text cannot be saved. Set maxLength to at most \(length).",
                        layer: subject.layer)
                }
                if let min = input.minLength, let max = input.maxLength, min > max {
                    context.report(self, pointer: pointer / "minLength", message:
                        "The \(input.type ?? "text") input of field \(field.displayName) in the form of \(subject.name) needs at "
                        + "least \(min) characters but allows at most \(max): no text is accepted. Lower minLength or raise maxLength.",
                        layer: subject.layer)
                }
            }
        }
    }
}
