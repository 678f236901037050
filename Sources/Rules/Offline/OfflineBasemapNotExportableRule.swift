import WebMap

/// `offline/basemap-not-exportable`: a tiled or vector-tile basemap layer whose service does not allow
/// exporting tiles.
public enum OfflineBasemapNotExportableRule: MapRule {
    public static let description = RuleDescription(
        id: "offline/basemap-not-exportable",
        severity: .warning,
        summary: "A tiled basemap layer's service does not allow exporting tiles.",
        rationale: """
            A field app takes a tiled or vector-tile basemap offline by exporting its tiles (exportTiles), which \
            the service allows only when its metadata says `exportTilesAllowed: true`. Otherwise the crew's \
            offline map has no basemap: features float on an empty background. Checked only when the basemap \
            service's metadata is known: a services snapshot holds it under the service's URL (`--fetch` does \
            not ask basemap services, which are usually public ones elsewhere).
            """,
        fix: """
            Use a basemap whose service allows exporting tiles (Esri's "for export" basemaps), or set a local \
            basemap for offline use (`applicationProperties.offline.offlinebasemap`).
            """,
        triggeringExamples: [
            .document(OfflineExamples.map(basemapLayers: basemap), services: Examples.snapshot([
                Examples.treesURL: OfflineExamples.trees(), basemapURL: #"{"currentVersion": 11.1, "exportTilesAllowed": false}"#,
            ])),
        ],
        nonTriggeringExamples: [
            .document(OfflineExamples.map(basemapLayers: basemap), services: Examples.snapshot([
                Examples.treesURL: OfflineExamples.trees(), basemapURL: #"{"currentVersion": 11.1, "exportTilesAllowed": true}"#,
            ])),
            // The basemap's metadata is not known: nothing is said.
            .document(OfflineExamples.map(basemapLayers: basemap), services: OfflineExamples.snapshot()),
        ])

    static let basemapURL = "https://example.com/arcgis/rest/services/Topo/MapServer"
    static let basemap = #"{"id": "Topo_1", "title": "Topographic", "layerType": "ArcGISTiledMapServiceLayer", "url": "\#(basemapURL)"}"#

    public static func check(_ context: MapContext) {
        let plan = OfflinePlan.of(context)
        guard plan.isChecked else { return }
        for entry in plan.entries where entry.isBasemap && entry.exportTilesAllowed == false {
            context.report(self, pointer: entry.behavior.layer.pointer / "url", message:
                "The basemap layer \(entry.behavior.layer.displayName) cannot be taken offline: its service at "
                + "\(entry.behavior.layer.url ?? "?") says exportTilesAllowed is false, so crews get no basemap. Use a basemap "
                + "that allows exporting tiles, or set a local basemap in applicationProperties.offline.offlinebasemap.",
                layer: entry.behavior)
        }
    }
}
