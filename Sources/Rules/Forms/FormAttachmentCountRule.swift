import WebMap

/// `form/attachment-count`: attachment counts that cannot be met, or two elements with one keyword.
public enum FormAttachmentCountRule: MapRule {
    public static let description = RuleDescription(
        id: "form/attachment-count",
        severity: .error,
        summary: "An attachment element's minAttachmentCount is above its maxAttachmentCount, or two attachment elements have the same attachmentKeyword.",
        rationale: """
            An attachment element asks for between `minAttachmentCount` and `maxAttachmentCount` attachments \
            tagged with its `attachmentKeyword`. A minimum above the maximum can never be met, so no feature can \
            be saved; two elements with the same keyword count the same attachments twice.
            """,
        fix: "Make minAttachmentCount at most maxAttachmentCount, and give each attachment element its own keyword.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "attachment", "attachmentKeyword": "photo", "minAttachmentCount": 3, "maxAttachmentCount": 1}"#),
                      services: FormExamples.snapshot),
            .document(FormExamples.map(elements: """
                {"type": "attachment", "attachmentKeyword": "photo", "label": "Photos"},
                          {"type": "attachment", "attachmentKeyword": "photo", "label": "More photos"}
                """), services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "attachment", "attachmentKeyword": "photo", "minAttachmentCount": 1, "maxAttachmentCount": 3},
                          {"type": "attachment", "attachmentKeyword": "sketch", "label": "Sketch"}
                """), services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            var keywords: [String: FormElement] = [:]
            for element in subject.form.form.allElements where element.kind == .attachment {
                if let min = element.minAttachmentCount, let max = element.maxAttachmentCount, min > max {
                    context.report(self, pointer: element.pointer / "minAttachmentCount", message:
                        "Attachment element '\(element.label ?? element.attachmentKeyword ?? "")' in the form of \(subject.name) "
                        + "needs at least \(min) attachments but allows at most \(max): no feature can be saved.", layer: subject.layer)
                }
                guard let keyword = element.attachmentKeyword else { continue }
                if let first = keywords[keyword] {
                    context.report(self, pointer: element.pointer / "attachmentKeyword", message:
                        "Attachment elements at \(first.pointer) and \(element.pointer) in the form of \(subject.name) both use "
                        + "keyword '\(keyword)': they count the same attachments. Give each its own keyword.", layer: subject.layer)
                } else {
                    keywords[keyword] = element
                }
            }
        }
    }
}
