import WebMap

/// `form/popup-editable-ignored`: `isEditable: true` in the pop-up of a form-enabled layer, on a field the form
/// does not contain.
public enum FormPopupEditableIgnoredRule: MapRule {
    public static let description = RuleDescription(
        id: "form/popup-editable-ignored",
        severity: .info,
        summary: "A form-enabled layer's pop-up sets isEditable: true on fields the form does not contain: the setting has no effect.",
        rationale: """
            When a layer has a form, the apps edit through the form only: the pop-up's `isEditable` no longer \
            decides. A field the pop-up marks editable but the form leaves out cannot be edited at all, which \
            the pop-up suggests otherwise.
            """,
        fix: "Add a field element for the field to the form, or set `isEditable` to false in the pop-up.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address"}"#,
                                       fieldInfos: #"{"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true}, {"fieldName": "Condition", "label": "Condition", "visible": true, "isEditable": true}"#),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address"}, {"type": "field", "fieldName": "Condition"}"#,
                                       fieldInfos: #"{"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true}, {"fieldName": "Condition", "label": "Condition", "visible": true, "isEditable": true}"#),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) where subject.form.isEnabled {
            guard let popup = subject.layer.popup else { continue }
            for (position, facts) in subject.layer.fieldInfoFacts.enumerated() where facts.isEditable && facts.fieldIndex >= 0 {
                guard let field = subject.layer.field(at: position), subject.form.element(forField: field) == nil else { continue }
                let info = popup.fieldInfos[position]
                context.report(self, pointer: info.pointer / "isEditable", message:
                    "The pop-up of \(subject.name) marks field \(field.displayName) editable, but the layer edits through its form, "
                    + "which does not contain the field: it cannot be edited. Add it to the form, or set isEditable to false.",
                    layer: subject.layer)
            }
        }
    }
}
