import WebMap

/// `popup/editable-readonly-type`: `isEditable: true` on an OID, GlobalID or GUID field.
public enum EditableReadonlyTypeRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/editable-readonly-type",
        severity: .warning,
        summary: "The pop-up marks editable an OID, GlobalID or GUID field, which is always read-only.",
        rationale: """
            Object ids and global ids are assigned by the service, and the app shows OID, GlobalID and GUID \
            fields read-only whatever the pop-up says: the field is never editable, and the author probably \
            expected it to be (a GUID key of a relationship is set by choosing the related record instead).
            """,
        fix: "Set `isEditable` to false for this field.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "GlobalID", "label": "Global ID", "visible": true, "isEditable": true}"#),
                      services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "GlobalID", "label": "Global ID", "visible": true, "isEditable": false}"#),
                      services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for flag in EditableFlag.all(in: context) where flag.problem == .readOnlyType {
            context.report(self, pointer: flag.pointer, message:
                "Pop-up of \(flag.subject.name) marks field \(flag.field.displayName) editable, but "
                + "\(flag.field.type.shortName) fields are always read-only in the app. Set `isEditable` to false "
                + "for this field.",
                layer: flag.subject.layer, fix: flag.fixSettingNotEditable(in: context))
        }
    }
}
