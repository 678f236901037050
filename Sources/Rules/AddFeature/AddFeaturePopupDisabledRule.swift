import WebMap

/// `add-feature/popup-disabled`: a point layer that can add features is not pop-up enabled, and nothing else
/// stops it from being offered for adding features.
public enum AddFeaturePopupDisabledRule: MapRule {
    public static let description = RuleDescription(
        id: "add-feature/popup-disabled",
        severity: .warning,
        summary: "A point layer that can add features is not pop-up enabled (the only condition missing).",
        rationale: """
            A new feature is edited in its pop-up, so the app offers for adding features only layers that are \
            pop-up enabled (a `popupInfo`, and `disablePopup` not true). A service-backed point layer that can \
            add features but whose pop-up is disabled or missing meets every other condition: the author almost \
            surely meant users to add features to it, but the app never offers it (nor shows its features' \
            pop-ups).
            """,
        fix: "Remove `disablePopup` (or set it to false) and make sure the layer has a `popupInfo`.",
        triggeringExamples: [
            .document(Examples.map(layerExtra: #""disablePopup": true"#), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(layerExtra: #""disablePopup": true"#),
                      services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Query,Update")])),
        ])

    public static func check(_ context: MapContext) {
        for layer in context.behavior.layers where layer.addFeature.failed == [.popupEnabled] {
            let disabled = layer.layer.disablePopup
            var problems: [String] = []
            if layer.popup == nil { problems.append("has no `popupInfo`") }
            if disabled { problems.append("has `disablePopup: true`") }
            let message = "Layer \(layer.layer.displayName) can add point features but "
                + problems.joined(separator: " and ")
                + ", so it is not pop-up enabled and the app never offers it for adding features. "
                + (disabled ? "Remove `disablePopup`" : "Configure a pop-up for the layer")
                + (disabled && layer.popup == nil ? " and configure a pop-up for the layer." : ".")
            if disabled {
                context.report(self, pointer: layer.layer.pointer / "disablePopup", message: message, layer: layer)
            } else {
                context.report(self, layer: layer, message: message)
            }
        }
    }
}
