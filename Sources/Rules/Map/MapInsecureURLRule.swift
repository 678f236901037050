import WebMap

/// `map/insecure-url`: an `http://` service URL.
public enum MapInsecureURLRule: MapRule {
    public static let description = RuleDescription(
        id: "map/insecure-url",
        severity: .warning,
        summary: "A layer uses an `http://` service URL.",
        rationale: """
            Over plain HTTP, the sign-in token the app adds to every request, and every feature it reads or \
            writes, travel unencrypted: anyone on the same network can read them and reuse the token. Many \
            portals and mobile platforms also refuse plain HTTP, so the layer may simply fail to load.
            """,
        fix: "Use the `https://` URL of the service (ArcGIS Server and ArcGIS Online both serve HTTPS).",
        triggeringExamples: [
            .document(Examples.map(url: "http://example.com/arcgis/rest/services/Trees/FeatureServer/0")),
            .document("""
                {
                  "operationalLayers": [],
                  "baseMap": {"title": "Imagery", "baseMapLayers": [
                    {"id": "World_Imagery", "layerType": "ArcGISTiledMapServiceLayer",
                     "url": "HTTP://services.example.com/arcgis/rest/services/World_Imagery/MapServer"}
                  ]}
                }
                """),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(LayerURLReference.all(in: context)) { context, reference in
            // Cheap test first: most URLs start with "https:"; only then trim and compare properly.
            guard reference.url.utf8.contains(where: { $0 == UInt8(ascii: ":") }) else { return }
            let trimmed = reference.url.trimmingSpaces()
            guard trimmed.hasASCIIPrefixIgnoringCase("http://") else { return }
            let secure = "https://" + trimmed.dropFirst("http://".count)
            context.report(self, pointer: reference.pointer, message: """
                The \(reference.name) uses the unencrypted URL \(reference.url): the sign-in token and every \
                feature would travel in clear, and many devices refuse plain HTTP. Use \(secure) instead.
                """, layer: context.layerBehavior(of: reference.layer))
        }
    }
}
