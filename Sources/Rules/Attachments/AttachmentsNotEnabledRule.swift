import WebMap

/// `attachments/not-enabled`: the pop-up shows attachments but the layer has none.
public enum AttachmentsNotEnabledRule: MapRule {
    public static let description = RuleDescription(
        id: "attachments/not-enabled",
        severity: .warning,
        summary: "The pop-up shows attachments but the layer has no attachments.",
        rationale: """
            A pop-up with `showAttachments: true` or an `attachments` element asks the app for an attachments \
            section, but the app shows attachments only for a feature table with `hasAttachments`: without it \
            the section never lists a photo or document and offers nothing to add. This is about the pop-up's \
            content, so it applies to inline feature collections too (they can never hold attachments). Only \
            pop-up enabled layers and tables with known metadata are checked: a pop-up that is never shown \
            misleads no one.
            """,
        fix: """
            Enable attachments on the service layer (it then reports `hasAttachments: true`), or remove \
            `showAttachments` and the `attachments` element from the pop-up.
            """,
        triggeringExamples: [
            .document(Examples.map(), services: Examples.snapshot([Examples.treesURL: RelatedExamples.treesMetadata(relationships: [], hasAttachments: false)])),
            .document(RelatedExamples.map(trees: RelatedExamples.treesLayer(extraPopup: #""showAttachments": true"#, popupElements: #"{"type": "fields"}"#),
                                          tables: []),
                      services: Examples.snapshot([Examples.treesURL: RelatedExamples.treesMetadata(relationships: [], hasAttachments: false)])),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(RelatedExamples.map(trees: RelatedExamples.treesLayer(popupElements: #"{"type": "fields"}"#), tables: []),
                      services: Examples.snapshot([Examples.treesURL: RelatedExamples.treesMetadata(relationships: [], hasAttachments: false)])),
        ])

    public static func check(_ context: MapContext) {
        for layer in context.behavior.layers {
            guard layer.isPopupEnabled, let popup = layer.popup, popup.showsAttachments,
                  let table = layer.table, !table.hasAttachments else { continue }
            let pointer: JSONPointer
            let setting: String
            if popup.showAttachments == true {
                pointer = popup.pointer / "showAttachments"
                setting = "showAttachments is true"
            } else if let element = popup.popupElements.first(where: { $0.type == "attachments" }) {
                pointer = element.pointer
                setting = "it has an attachments element"
            } else {
                continue
            }
            let remedy = layer.isServiceBacked
                ? "Enable attachments on the service layer, or remove showAttachments and the attachments element from the pop-up."
                : "An inline feature collection cannot hold attachments: remove showAttachments and the attachments element from the pop-up."
            context.report(self, pointer: pointer, message:
                "The pop-up of \(layer.layer.isTable ? "table" : "layer") \(layer.layer.displayName) shows attachments (\(setting)), but the \(layer.layer.isTable ? "table" : "layer") has no "
                + "attachments (hasAttachments is not true): the app shows an attachments section that is always "
                + "empty. \(remedy)",
                layer: layer)
        }
    }
}
