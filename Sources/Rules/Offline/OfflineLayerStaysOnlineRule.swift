import WebMap

/// `offline/layer-stays-online`: a layer of a kind that cannot be taken offline at all.
public enum OfflineLayerStaysOnlineRule: MapRule {
    public static let description = RuleDescription(
        id: "offline/layer-stays-online",
        severity: .warning,
        summary: "A layer of a map meant for offline use cannot be taken offline at all.",
        rationale: """
            WMS, WMTS and WFS layers, dynamic map service layers, image service layers that are not tiled and \
            feature collections read from a URL (CSV, GeoJSON, KML, GeoRSS, OGC API) have nothing a field app \
            can download: offline they simply disappear, with nothing to tell the crew what they are missing.
            """,
        fix: """
            Publish the data as a sync-enabled feature layer or a tiled layer that allows exporting tiles, or \
            list the layer in `applicationProperties.offline.connectedOnlineLayers` so that it is knowingly kept \
            online.
            """,
        triggeringExamples: [
            .document(OfflineExamples.map(layers: OfflineExamples.treesLayer + ",\n    " + wmsLayer), services: OfflineExamples.snapshot()),
        ],
        nonTriggeringExamples: [
            .document(OfflineExamples.map(layers: OfflineExamples.treesLayer + ",\n    " + wmsLayer,
                                          offline: #"{"connectedOnlineLayers": [{"id": "Radar_1"}]}"#), services: OfflineExamples.snapshot()),
            .document(OfflineExamples.map(layers: OfflineExamples.treesLayer + ",\n    " + wmsLayer, offline: nil), services: OfflineExamples.snapshot()),
        ])

    static let wmsLayer = #"{"id": "Radar_1", "title": "Weather radar", "layerType": "WMS", "url": "https://example.com/wms"}"#

    public static func check(_ context: MapContext) {
        let plan = OfflinePlan.of(context)
        guard plan.isChecked else { return }
        for entry in plan.entries where !entry.behavior.layer.isFeatureLayerKind {
            guard case .cannot(let reasons) = entry.status, entry.exportTilesAllowed == nil, let reason = reasons.first else { continue }
            let layer = entry.behavior.layer
            context.report(self, layer: entry.behavior, message:
                "The \(entry.isBasemap ? "basemap layer" : "layer") \(layer.displayName) disappears when the map is taken offline: \(reason). "
                + "Publish its data as a sync-enabled feature layer or an exportable tiled layer, or keep it online knowingly "
                + "with applicationProperties.offline.connectedOnlineLayers.")
        }
    }
}
