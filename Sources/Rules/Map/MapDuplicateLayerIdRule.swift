import WebMap

/// `map/duplicate-layer-id`: two layers or tables share an `id`.
public enum MapDuplicateLayerIdRule: MapRule {
    public static let description = RuleDescription(
        id: "map/duplicate-layer-id",
        severity: .error,
        summary: "Two layers or tables share an `id`.",
        rationale: """
            The app finds layers and tables by `id`: to restore which layers are on, to follow relationships, \
            to label the add-feature list and to apply per-layer settings. When two share an id, one of them is \
            taken for the other, so a pop-up or an edit lands on the wrong layer. It happens when a layer is \
            copied by hand inside the JSON.
            """,
        fix: "Give each layer, group child and table its own `id` (any unique text; the portal writes e.g. `Trees_1234`).",
        triggeringExamples: [
            .document("""
                {
                  "operationalLayers": [
                    {"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)"},
                    {"id": "Trees_1234", "title": "Trees (copy)", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)"}
                  ],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []}
                }
                """, services: Examples.treesSnapshot),
            .document("""
                {
                  "operationalLayers": [
                    {"id": "Group_1", "title": "Street trees", "layerType": "GroupLayer", "layers": [
                      {"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)"}
                    ]}
                  ],
                  "tables": [{"id": "Trees_1234", "title": "Species", "url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/1"}],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []}
                }
                """),
        ],
        nonTriggeringExamples: [
            .document("""
                {
                  "operationalLayers": [
                    {"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)"},
                    {"id": "Trees_5678", "title": "Trees (copy)", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)"}
                  ],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []}
                }
                """, services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        var first: [String: MapLayer] = [:]
        // Sized once: growing it step by step rehashed every id again, most of this rule's time on a large map.
        first.reserveCapacity(context.document.layers.count)
        for layer in context.document.layers where !layer.isStandalonePopup {
            guard let id = layer.id else { continue }
            guard let original = first[id] else {
                first[id] = layer
                continue
            }
            let firstPlace = original.node["id"].map { node -> String in
                let position = context.lint.source.position(ofOffset: node.offset)
                return ", at line \(position.line), column \(position.column)"
            } ?? ""
            context.report(self, pointer: layer.pointer / "id", message: """
                \(layer.kindAndName) has the same id as \(original.isTable ? "table" : "layer") \
                \(original.displayName)\(firstPlace): the app finds layers by id, so one of them is taken for the other. \
                Give this \(layer.isTable ? "table" : "layer") a unique id.
                """, layer: context.layerBehavior(of: layer))
        }
    }
}
