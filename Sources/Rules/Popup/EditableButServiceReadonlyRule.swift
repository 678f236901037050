import WebMap

/// `popup/editable-but-service-readonly`: `isEditable: true` on a field the service does not let anyone edit.
public enum EditableButServiceReadonlyRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/editable-but-service-readonly",
        severity: .error,
        summary: "The pop-up marks editable a field that the service marks `editable: false`.",
        rationale: """
            The service refuses every value for a field it marks `editable: false` (editor-tracking fields, \
            calculated fields, fields locked by the owner). The app follows the service: the field is never \
            offered for editing, so the pop-up's `isEditable: true` promises an edit that cannot happen, and a \
            workflow that relies on it cannot be completed. (Fields whose type can never be edited are \
            reported by popup/editable-unsupported-type and popup/editable-readonly-type instead.)
            """,
        fix: "Set `isEditable` to false for this field, or make the field editable in the service.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Ward", "label": "Ward", "visible": true, "isEditable": true}"#),
                      services: wardSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(fieldInfos: #"{"fieldName": "Ward", "label": "Ward", "visible": true, "isEditable": false}"#),
                      services: wardSnapshot),
        ])

    /// Trees with a `Ward` field the service computes (`editable: false`).
    private static let wardSnapshot = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
        {"name": "Ward", "type": "esriFieldTypeString", "alias": "Ward", "nullable": true, "editable": false, "length": 10}
        """)])

    public static func check(_ context: MapContext) {
        for flag in EditableFlag.all(in: context) where flag.problem == .serviceReadOnly {
            context.report(self, pointer: flag.pointer, message:
                "Pop-up of \(flag.subject.name) marks field \(flag.field.displayName) editable, but the service "
                + "marks it `editable: false`, so no one can ever edit it. Set `isEditable` to false, or make the "
                + "field editable in the service.",
                layer: flag.subject.layer, fix: flag.fixSettingNotEditable(in: context))
        }
    }
}
