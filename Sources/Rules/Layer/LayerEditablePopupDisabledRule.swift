import WebMap

/// `layer/editable-popup-disabled`: an editable layer or table that is not pop-up enabled.
public enum LayerEditablePopupDisabledRule: MapRule {
    public static let description = RuleDescription(
        id: "layer/editable-popup-disabled",
        severity: .warning,
        summary: "An editable layer or table is not pop-up enabled, so no user can ever edit it.",
        rationale: """
            The app edits attributes, attachments and related records only from a feature's pop-up, and \
            identifies only pop-up enabled layers and tables. A layer whose service allows editing but whose \
            pop-up is disabled (`disablePopup: true`) or missing (no `popupInfo`) can never be tapped, so its \
            editing capabilities are unreachable; usually the pop-up was turned off by mistake.
            """,
        fix: """
            Enable the pop-up (configure `popupInfo`, remove `disablePopup`), or, if the layer is meant to be \
            read-only in this map, set `layerDefinition.capabilities` to `Query`.
            """,
        triggeringExamples: [
            .document(Examples.map(layerExtra: #""disablePopup": true"#), services: Examples.treesSnapshot),
            .document("""
                {
                  "operationalLayers": [
                    {"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)"}
                  ],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []}
                }
                """, services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(layerExtra: #""disablePopup": true, "layerDefinition": {"capabilities": "Query"}"#),
                      services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for behavior in context.behavior.layers where behavior.isServiceBacked && !behavior.layer.isStandalonePopup {
            guard let table = behavior.table, behavior.capabilities.isEditable, !behavior.isPopupEnabled else { continue }
            let layer = behavior.layer
            let kind = layer.isTable ? "table" : "layer"
            let editable = "\(layer.kindAndName) is editable (capabilities \(table.capabilities.names.joined(separator: ", ")))"
            let consequence = """
                : the app edits only from a pop-up, so no user can ever edit this \(kind). Enable its pop-up, or \
                set `layerDefinition.capabilities` to "Query" if it is meant to be read-only here.
                """
            if layer.disablePopup {
                context.report(self, pointer: layer.pointer / "disablePopup",
                               message: editable + " but its pop-up is disabled (`disablePopup: true`)" + consequence,
                               layer: behavior)
            } else {
                context.report(self, layer: behavior,
                               message: editable + " but has no pop-up (`popupInfo`)" + consequence)
            }
        }
    }
}
