import WebMap

/// `popup/no-display-fields`: a pop-up enabled layer whose pop-up shows no field.
public enum NoDisplayFieldsRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/no-display-fields",
        severity: .warning,
        summary: "A pop-up enabled layer shows no fields.",
        rationale: """
            The app lists a feature's attributes from the display fields: the `fieldInfos` entries with \
            `visible: true` that name a field of the layer (or an expression). With none, the pop-up shows only \
            its title, nothing can be edited, and a related table shown this way has no field to sort its \
            records by.
            """,
        fix: "Set `visible: true` on the `fieldInfos` entries a user should see, or add entries for the layer's fields.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Address", "label": "Address", "visible": false}"#),
                      services: Examples.treesSnapshot),
            .document(PopupExamples.map(popup: #""title": "{Address}", "popupElements": [{"type": "fields"}]"#),
                      services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Address", "label": "Address", "visible": true}"#),
                      services: Examples.treesSnapshot),
            .document(Examples.map(fieldInfos: #"{"fieldName": "Address", "label": "Address", "visible": false}"#,
                                   layerExtra: #""disablePopup": true"#),
                      services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in PopupSubject.all(in: context) {
            let layer = subject.layer
            guard layer.isPopupEnabled, layer.table != nil, layer.displayFields.isEmpty else { continue }
            let infos = subject.popup.fieldInfos
            let reason: String
            if infos.isEmpty {
                reason = "it has no `fieldInfos`"
            } else if !infos.contains(where: \.visible) {
                reason = "none of its `fieldInfos` is visible"
            } else {
                reason = "none of its visible `fieldInfos` names a field of the layer"
            }
            context.report(self, pointer: subject.popup.pointer / "fieldInfos", message:
                "Pop-up of \(subject.name) shows no fields: \(reason). The pop-up shows only its title and nothing "
                + "can be edited; set `visible: true` on the fields a user should see.",
                layer: layer)
        }
    }
}
