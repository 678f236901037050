import Foundation
import WebMap

/// `map/unresolved-layer`: a feature layer's or table's metadata was not found.
public enum MapUnresolvedLayerRule: MapRule {
    public static let description = RuleDescription(
        id: "map/unresolved-layer",
        severity: .warning,
        summary: "A feature layer's or table's service metadata was not found; the rules that need it were skipped.",
        rationale: """
            Which fields a pop-up can show and edit, whether features can be added, and which related records \
            appear depend on the service's metadata (fields, capabilities, relationships), which the web map \
            does not hold. MapRules reads it from the inline feature collection, a services snapshot, or the \
            live service (`--fetch`); when none has it, it skips the rules that need it rather than guess, so \
            mistakes the app would hit in the field go unreported for that layer.
            """,
        fix: """
            Record the services in a snapshot beside the map (`maprules snapshot MAP --output MAP.services.json`), \
            name one with `--services FILE`, or fetch the metadata live with `--fetch`.
            """,
        triggeringExamples: [
            .document(Examples.map()),
            .document(Examples.map(), services: Examples.snapshot([
                "https://example.com/arcgis/rest/services/Other/FeatureServer/0": Examples.treesLayer(),
            ])),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            // A URL still holding a placeholder is map/template-placeholder's business.
            .document(Examples.map(url: "{{ portal }}/arcgis/rest/services/Trees/FeatureServer/0")),
            // A URL that is not a layer URL is map/bad-layer-url's business.
            .document(Examples.map(url: "https://example.com/arcgis/rest/services/Trees/FeatureServer")),
        ])

    public static func check(_ context: MapContext) {
        for behavior in context.behavior.layers where behavior.needsMetadata && behavior.resolved == nil {
            let layer = behavior.layer
            if layer.isStandalonePopup {
                context.report(self, layer: behavior, message: """
                    The metadata of the layer this pop-up definition describes was not given, so the rules that \
                    need its fields and capabilities were skipped. Pass the layer's metadata (its `?f=json`) with \
                    --layer FILE.
                    """)
                continue
            }
            let url = layer.url
            if let url, TemplatePlaceholders.contains(url) { continue }
            if let url, layer.serviceLayer != nil, !layer.hasFeatureCollection, var reason = context.fetchFailure(url) {
                while reason.hasSuffix(".") { reason.removeLast() }
                context.report(self, pointer: layer.pointer / "url", message: """
                    No service metadata was found for \(layer.kindAndName.withLowercasedInitial) at \(url): --fetch \
                    could not get it (\(reason)), so the rules that need its fields and capabilities were skipped for \
                    it. Check the URL and that the service answers (a secured one needs --token), or record it in \
                    \(snapshotName(forMap: context.lint.path)) with `maprules snapshot`.
                    """, layer: behavior)
            } else if let url, layer.serviceLayer != nil, !layer.hasFeatureCollection {
                context.report(self, pointer: layer.pointer / "url", message: """
                    No service metadata was found for \(layer.kindAndName.withLowercasedInitial) at \(url), so the rules \
                    that need its fields and capabilities were skipped for it. Add it to \
                    \(snapshotName(forMap: context.lint.path)) with `maprules snapshot`, name a snapshot that has it \
                    with --services FILE, or fetch it live with --fetch.
                    """, layer: behavior)
            } else if layer.hasFeatureCollection {
                context.report(self, pointer: layer.pointer / "featureCollection", message: """
                    \(layer.kindAndName) is an inline feature collection without a `layers[0].layerDefinition`, so \
                    its fields and capabilities are unknown and the rules that need them were skipped. Add the \
                    layer definition (fields, geometry type) to the collection.
                    """, layer: behavior)
            } else if url == nil, let itemId = layer.node["itemId"]?.string {
                context.report(self, pointer: layer.pointer / "itemId", message: """
                    \(layer.kindAndName) has neither a `url` nor an inline `featureCollection`: its features and \
                    fields are in portal item \(itemId), which MapRules does not read, so the rules that need them \
                    were skipped. Save the collection into the map, or publish it as a feature service layer.
                    """, layer: behavior)
            }
            // A layer with no usable URL is reported by map/bad-layer-url.
        }
    }

    /// `<map>.services.json`, the snapshot MapRules reads by default beside `path`.
    static func snapshotName(forMap path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".services.json"
    }
}
