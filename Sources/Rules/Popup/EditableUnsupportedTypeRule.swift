import WebMap

/// `popup/editable-unsupported-type`: `isEditable: true` on a field whose type the app cannot edit at all.
public enum EditableUnsupportedTypeRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/editable-unsupported-type",
        severity: .error,
        summary: "The pop-up marks editable a Geometry, Raster, XML or Blob field.",
        rationale: """
            The app has no editor for Geometry, Raster, XML or Blob fields: the reference app asserts when it \
            builds the edit form and shows an empty cell, so the pop-up cannot be edited reliably.
            """,
        fix: "Set `isEditable` to false for this field (or remove it from the pop-up).",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Photo", "label": "Photo", "visible": true, "isEditable": true}"#),
                      services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
                        {"name": "Photo", "type": "esriFieldTypeBlob", "alias": "Photo", "nullable": true, "editable": true}
                        """)])),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Photo", "label": "Photo", "visible": true, "isEditable": false}"#),
                      services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
                        {"name": "Photo", "type": "esriFieldTypeBlob", "alias": "Photo", "nullable": true, "editable": true}
                        """)])),
        ])

    public static func check(_ context: MapContext) {
        for flag in EditableFlag.all(in: context) where flag.problem == .unsupportedType {
            context.report(self, pointer: flag.pointer, message:
                "Pop-up of \(flag.subject.name) marks field \(flag.field.displayName) editable, but its type "
                + "\(flag.field.type.shortName) has no editor in the app (it shows an empty cell). Set `isEditable` "
                + "to false for this field.",
                layer: flag.subject.layer, fix: flag.fixSettingNotEditable(in: context))
        }
    }
}
