import WebMap

/// `add-feature/none-eligible`: the map has editable layers, but none a user can add features to.
public enum NoneEligibleRule: MapRule {
    public static let description = RuleDescription(
        id: "add-feature/none-eligible",
        severity: .info,
        summary: "The map has editable layers, but none is eligible for adding features.",
        rationale: """
            The app's add button offers the layers eligible for adding features: service-backed feature \
            layers that are editable, can add (Create), have point geometry and are pop-up enabled. With none \
            the button is disabled, although the map has layers whose features can be edited. That may be \
            intended (an inspection-only map), so this is information: the message says, for each editable \
            layer, which condition fails. Tables never take new features from the map and do not count.
            """,
        fix: "If users should add features, make a point layer meet every condition (capabilities with Create, pop-up enabled); otherwise nothing needs to change.",
        triggeringExamples: [
            .document(Examples.map(layerExtra: #""disablePopup": true"#), services: Examples.treesSnapshot),
            .document(Examples.map(), services: Examples.snapshot([
                Examples.treesURL: Examples.treesLayer(capabilities: "Query,Update")])),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(), services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Query")])),
        ])

    public static func check(_ context: MapContext) {
        // A standalone pop-up definition is no map: there is no add button to speak of.
        guard !context.document.layers.contains(where: \.isStandalonePopup) else { return }
        let editable = context.behavior.layers.filter { layer in
            !layer.layer.isTable && !layer.layer.isGroup && layer.layer.isFeatureLayerKind && layer.isServiceBacked
                && layer.capabilities.isEditable
        }
        guard !editable.isEmpty, context.behavior.addFeatureLayers.isEmpty else { return }
        let reasons = editable.map { "\($0.addFeatureName): \(AddFeatureCondition.sentence($0.addFeature.failed))" }
        let count = editable.count == 1 ? "1 layer" : "\(editable.count) layers"
        context.report(self, pointer: context.document.mapPointer / "operationalLayers", message:
            "No layer of the map is eligible for adding features, so the app's add button is disabled, although "
            + "\(count) can be edited: " + reasons.joined(separator: "; ") + ". If users should add features, make "
            + (editable.count == 1 ? "it" : "one of them") + " meet every condition.")
    }
}
