import WebMap

/// `layer/hidden`: an operational layer with `visibility: false`.
public enum LayerHiddenRule: MapRule {
    public static let description = RuleDescription(
        id: "layer/hidden",
        severity: .info,
        summary: "A layer has `visibility: false`.",
        rationale: """
            The app opens the map with the layer turned off: it is not drawn and not identified (no pop-up, no \
            editing from a tap) until the user turns it on in the layer list, which many never do. Hiding a \
            reference layer is fine; hiding the layer users are meant to work with usually is not.
            """,
        fix: "Set `visibility` to true (or save the map with the layer turned on) if users should see it from the start.",
        triggeringExamples: [
            .document(Examples.map(layerExtra: #""visibility": false"#), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(layerExtra: #""visibility": true"#), services: Examples.treesSnapshot),
            .document(Examples.map(), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(context.behavior.layers) { context, behavior in
            let layer = behavior.layer
            guard !layer.isTable, !layer.isStandalonePopup, layer.node["visibility"]?.bool == false else { return }
            let contents = layer.isGroup ? ", nor are the layers in this group," : ""
            context.report(self, pointer: layer.pointer / "visibility", message: """
                \(layer.kindAndName) is turned off (`visibility: false`): it is not drawn or identified\(contents) \
                until the user turns it on in the layer list. Set `visibility` to true if users should see it \
                from the start.
                """, layer: behavior)
        }
    }
}
