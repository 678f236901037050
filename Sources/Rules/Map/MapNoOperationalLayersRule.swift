import WebMap

/// `map/no-operational-layers`: `operationalLayers` is missing or empty.
public enum MapNoOperationalLayersRule: MapRule {
    public static let description = RuleDescription(
        id: "map/no-operational-layers",
        severity: .warning,
        summary: "The map has no operational layers.",
        rationale: """
            The app draws operational layers over the basemap and offers them for identify, editing and \
            adding features. A map without any shows only the basemap: nothing can be tapped, edited or added. \
            It usually means the wrong item was exported, or the layers were removed while editing the map.
            """,
        fix: "Add the map's layers to `operationalLayers` (in the portal's map viewer, or by exporting the right item).",
        triggeringExamples: [
            .document(#"{"operationalLayers": [], "baseMap": {"title": "Topographic", "baseMapLayers": []}, "version": "2.28"}"#),
            .document(#"{"baseMap": {"title": "Topographic", "baseMapLayers": []}, "version": "2.28"}"#),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        let document = context.document
        guard !document.isPopupDefinitionFile else { return }
        let pointer = document.mapPointer / "operationalLayers"
        let consequence = "the app shows only the basemap, with nothing to identify, edit or add features to. Add the map's layers to `operationalLayers`."
        guard let node = document.operationalLayersNode else {
            context.report(self, pointer: pointer, message: "The map has no `operationalLayers`: " + consequence)
            return
        }
        if let layers = node.array {
            guard layers.isEmpty else { return }
            context.report(self, pointer: pointer, message: "The map's `operationalLayers` is empty: " + consequence)
        } else {
            context.report(self, pointer: pointer, message: """
                The map's `operationalLayers` is \(node.typeName == "object" ? "an object" : "a \(node.typeName)"), \
                not a list of layers: \(consequence)
                """)
        }
    }
}
