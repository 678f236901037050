import WebMap

/// `form/attachments-not-enabled`: an attachment element on a layer without attachments.
public enum FormAttachmentsNotEnabledRule: MapRule {
    public static let description = RuleDescription(
        id: "form/attachments-not-enabled",
        severity: .error,
        summary: "A form has an attachment element but the layer does not have attachments enabled.",
        rationale: """
            An attachment element lets the crew take photos or add files to the feature. On a layer whose \
            service has no attachments (`hasAttachments` false) there is nowhere to store them: the app leaves \
            the element out, and the photos the form asks for are never taken.
            """,
        fix: "Enable attachments on the layer in the service, or remove the element.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "attachment", "attachmentKeyword": "photo", "label": "Photos"}"#),
                      services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Create,Query,Update,Editing").replacingOccurrences(of: "\"hasAttachments\": true", with: "\"hasAttachments\": false")])),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "attachment", "attachmentKeyword": "photo", "label": "Photos"}"#),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            guard let table = subject.layer.table, !table.hasAttachments else { continue }
            for element in subject.form.form.allElements where element.kind == .attachment {
                context.report(self, pointer: element.pointer / "type", message:
                    "The form of \(subject.name) has an attachment element '\(element.label ?? element.attachmentKeyword ?? "")', "
                    + "but the layer does not have attachments enabled: the app leaves it out. Enable attachments in the "
                    + "service, or remove the element.", layer: subject.layer)
            }
        }
    }
}
