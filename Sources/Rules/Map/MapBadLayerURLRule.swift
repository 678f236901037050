import WebMap

/// `map/bad-layer-url`: a feature layer's or table's `url` is not a feature service layer URL.
public enum MapBadLayerURLRule: MapRule {
    public static let description = RuleDescription(
        id: "map/bad-layer-url",
        severity: .error,
        summary: "A feature layer's or table's `url` is not an http(s) URL of `.../FeatureServer/<n>` or `.../MapServer/<n>`.",
        rationale: """
            The app loads a feature layer or table from its service layer URL: the service URL followed by the \
            layer number. A URL naming the whole service, another kind of service, a relative path, or none at \
            all fails to load; the layer is missing from the map, its pop-ups and the add-feature list.
            """,
        fix: "Set `url` to the layer's full URL, e.g. `https://host/arcgis/rest/services/Trees/FeatureServer/0`.",
        triggeringExamples: [
            .document(Examples.map(url: "https://example.com/arcgis/rest/services/Trees/FeatureServer")),
            .document(Examples.map(url: "/arcgis/rest/services/Trees/FeatureServer/0")),
            .document(#"{"operationalLayers": [], "tables": [{"id": "Species_1", "title": "Species"}], "baseMap": {"baseMapLayers": []}}"#),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(url: "https://example.com/arcgis/rest/services/Trees/MapServer/3")),
            // A placeholder is map/template-placeholder's business.
            .document(Examples.map(url: "{{ portal }}/arcgis/rest/services/Trees/FeatureServer/0")),
            // A tiled basemap service is not a feature layer.
            .document("""
                {
                  "operationalLayers": [
                    {"id": "Hillshade_1", "title": "Hillshade", "layerType": "ArcGISTiledMapServiceLayer",
                     "url": "https://example.com/arcgis/rest/services/Hillshade/MapServer"}
                  ],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []}
                }
                """),
        ])

    public static func check(_ context: MapContext) {
        for behavior in context.behavior.layers {
            let layer = behavior.layer
            guard layer.isFeatureLayerKind, !layer.isGroup, !layer.isStandalonePopup, !layer.hasFeatureCollection else { continue }
            // Most layers have a good URL: the messages are made only for the others.
            if let url = layer.url, layer.serviceLayer != nil || TemplatePlaceholders.contains(url) { continue }
            let name = layer.kindAndName
            let fix = "Set it to the layer's full URL, such as https://host/arcgis/rest/services/NAME/FeatureServer/0."
            guard let url = layer.url else {
                if let node = layer.node["url"] {
                    context.report(self, pointer: layer.pointer / "url", message:
                        "\(name) has a `url` that is \(node.typeName == "array" || node.typeName == "object" ? "an" : "a") \(node.typeName), not text: the app cannot load it. \(fix)",
                        layer: behavior)
                } else if layer.node["itemId"]?.string == nil {
                    // An item-backed collection has no URL by design: map/unresolved-layer says so.
                    context.report(self, pointer: layer.pointer / "url", message:
                        "\(name) has no `url` and no inline `featureCollection`: the app has nothing to load it from. \(fix)",
                        layer: behavior)
                }
                continue
            }
            context.report(self, pointer: layer.pointer / "url", message:
                "\(name) has the URL '\(url)', which \(reason(url)): the app cannot load the \(layer.isTable ? "table" : "layer"). \(fix)",
                layer: behavior)
        }
    }

    /// Why `url` is not a layer URL, as the end of a sentence.
    static func reason(_ url: String) -> String {
        let text = ServiceURL.normalize(url)
        let lower = text.lowercased()
        if text.isEmpty { return "is empty" }
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return "is not an http(s) URL" }
        let last = lower.split(separator: "/").last.map(String.init) ?? ""
        if last == "featureserver" || last == "mapserver" {
            return "names the whole service, not one of its layers (append the layer number, e.g. /0)"
        }
        if lower.contains("/featureserver/") || lower.contains("/mapserver/") {
            return "does not end in a layer number after /FeatureServer/ or /MapServer/"
        }
        if let server = lower.split(separator: "/").first(where: { $0.hasSuffix("server") }) {
            return "points to a \(server.prefix(server.count - 6).capitalized)Server service, not a feature service layer"
        }
        return "does not end in /FeatureServer/<n> or /MapServer/<n>"
    }
}
