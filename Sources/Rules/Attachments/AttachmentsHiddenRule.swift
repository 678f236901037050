import WebMap

/// `attachments/hidden`: the layer has attachments but the pop-up does not show them.
public enum AttachmentsHiddenRule: MapRule {
    public static let description = RuleDescription(
        id: "attachments/hidden",
        severity: .info,
        summary: "The layer has attachments but the pop-up does not show them.",
        rationale: """
            The app shows attachments, and lets users add photos and documents, only when the pop-up asks for \
            them with `showAttachments: true` or an `attachments` element. When the feature table has \
            attachments (`hasAttachments`) and the pop-up asks for neither, users never see them and cannot add \
            any from the field. Only pop-up enabled, service-backed layers and tables with known metadata are \
            checked: an inline feature collection cannot hold attachments, and a pop-up that is never shown \
            hides nothing more.
            """,
        fix: "Add an `attachments` element to `popupElements` (and set `showAttachments: true` for older clients).",
        triggeringExamples: [
            .document(RelatedExamples.map(trees: RelatedExamples.treesLayer(popupElements: #"{"type": "fields"}"#), tables: []),
                      services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(RelatedExamples.map(trees: RelatedExamples.treesLayer(popupElements: #"{"type": "fields"}"#), tables: []),
                      services: Examples.snapshot([Examples.treesURL: RelatedExamples.treesMetadata(relationships: [], hasAttachments: false)])),
        ])

    public static func check(_ context: MapContext) {
        for layer in context.behavior.layers {
            guard layer.isPopupEnabled, layer.isServiceBacked, let popup = layer.popup, !popup.showsAttachments,
                  let table = layer.table, table.hasAttachments else { continue }
            let pointer = popup.node["showAttachments"] == nil ? popup.pointer : popup.pointer / "showAttachments"
            context.report(self, pointer: pointer, message:
                (layer.layer.isTable ? "Table " : "Layer ") + "\(layer.layer.displayName) has attachments, but its pop-up does not show them (no "
                + "showAttachments: true and no attachments element): users never see its photos and documents "
                + "and cannot add any. Add an attachments element to popupElements (and showAttachments: true).",
                layer: layer)
        }
    }
}
