import WebMap

/// What happens to a layer when the map is taken offline.
public enum OfflineStatus: Sendable, Equatable {
    /// Its data (or tiles) go into the offline map.
    case downloads
    /// The author keeps it online (`connectedOnlineLayers`): it works only with a connection.
    case staysOnline
    /// It cannot be taken offline; each reason in a few words.
    case cannot([String])
    /// Its service metadata was not found, so nothing can be said.
    case unknown

    /// `downloads`, `stays-online`, `cannot`, `unknown`.
    public var name: String {
        switch self {
        case .downloads: return "downloads"
        case .staysOnline: return "stays-online"
        case .cannot: return "cannot"
        case .unknown: return "unknown"
        }
    }

    /// "downloads", "stays online", "cannot (its capabilities lack Sync)".
    public var text: String {
        switch self {
        case .downloads: return "downloads"
        case .staysOnline: return "stays online"
        case .cannot(let reasons): return "cannot (\(reasons.joined(separator: "; ")))"
        case .unknown: return "unknown (its service metadata was not found)"
        }
    }

    public var reasons: [String] { if case .cannot(let reasons) = self { return reasons } else { return [] } }
}

/// The map taken offline, layer by layer (operational layers, tables, then basemap layers): computed once per
/// map and shared by the `offline/` rules and `maprules inspect`.
public struct OfflinePlan: Sendable {
    public struct Entry: Sendable {
        public var behavior: LayerBehavior
        /// True for a layer of `baseMap.baseMapLayers`.
        public var isBasemap: Bool
        /// The layer as the offline layer rules see it: set for service-backed layers and tables whose metadata
        /// is known and that the author does not keep online.
        public var offlineLayer: OfflineLayer?
        public var status: OfflineStatus
        /// For a basemap layer whose service metadata is known: its `exportTilesAllowed`.
        public var exportTilesAllowed: Bool?
    }

    public var settings: OfflineSettings
    /// True when the `offline/` rules apply: the map is meant for offline use, or the configuration
    /// (`"offline": true`, `--offline`) says every map is.
    public var isChecked: Bool
    /// Every layer and table (group layers left out), then the basemap's layers.
    public var entries: [Entry]

    /// Layer types that never go offline (rules.md, `offline/layer-stays-online`), with a phrase for each.
    static let onlineOnlyTypes: [String: String] = [
        "WMS": "a WMS layer", "WMTS": "a WMTS layer", "WFS": "a WFS layer",
        "ArcGISMapServiceLayer": "a dynamic map service layer", "ArcGISImageServiceLayer": "an image service layer that is not tiled",
        "CSV": "a CSV file read from a URL", "GeoJSON": "a GeoJSON file read from a URL", "KML": "a KML file read from a URL",
        "GeoRSS": "a GeoRSS feed", "OGCFeatureLayer": "an OGC API feature collection read from a URL",
    ]
    /// Layer types whose tiles are exported for offline use.
    static let tiledTypes: Set<String> = ["ArcGISTiledMapServiceLayer", "VectorTileLayer", "ArcGISTiledImageServiceLayer"]

    /// `serviceJSON` answers the metadata of a service URL when it is known (a services snapshot). With
    /// `onlyWhenChecked` a map whose offline use is not checked gets no entries (the linter has nothing to say).
    public init(document: WebMapDocument, behavior: MapBehavior, offlineRequested: Bool, onlyWhenChecked: Bool = false,
                serviceJSON: (String) -> JSONNode? = { _ in nil }) {
        let settings = OfflineSettings(document: document)
        self.settings = settings
        isChecked = offlineRequested || settings.mapIsMeantForOffline
        var entries: [Entry] = []
        guard isChecked || !onlyWhenChecked else {
            self.entries = []
            return
        }
        for layer in behavior.layers where !layer.layer.isGroup {
            entries.append(Self.entry(for: layer, isBasemap: false, settings: settings, serviceJSON: serviceJSON))
        }
        let basemapPointer = document.mapPointer.appending(components: "baseMap", "baseMapLayers")
        for (index, node) in (document.map["baseMap"]?["baseMapLayers"]?.array ?? []).enumerated() where node.object != nil {
            let layer = MapLayer(node: node, pointer: basemapPointer / index, isTable: false, groupTitles: [], order: behavior.layers.count + index)
            entries.append(Self.entry(for: LayerBehavior(layer: layer, resolved: nil), isBasemap: true, settings: settings, serviceJSON: serviceJSON))
        }
        self.entries = entries
    }

    /// The plan of the map being linted (made once per file).
    static func of(_ context: MapContext) -> OfflinePlan {
        context.shared(OfflinePlan.self) { context.offlinePlan }
    }

    private static func entry(for behavior: LayerBehavior, isBasemap: Bool, settings: OfflineSettings, serviceJSON: (String) -> JSONNode?) -> Entry {
        let layer = behavior.layer
        var entry = Entry(behavior: behavior, isBasemap: isBasemap, offlineLayer: nil, status: .downloads, exportTilesAllowed: nil)
        if settings.keepsOnline(layer) {
            entry.status = .staysOnline
            return entry
        }
        if let type = layer.layerType, let phrase = onlineOnlyTypes[type], !layer.isFeatureLayerKind {
            // A CSV, GeoJSON or KML layer whose features are in the map itself goes offline with the map.
            let fromURL = layer.url != nil || !["CSV", "GeoJSON", "KML", "GeoRSS"].contains(type)
            if fromURL {
                entry.status = .cannot(["it is \(phrase), which cannot be taken offline"])
                return entry
            }
        }
        if let type = layer.layerType, tiledTypes.contains(type), let url = layer.url, let metadata = serviceJSON(url) {
            entry.exportTilesAllowed = metadata["exportTilesAllowed"]?.bool
            if entry.exportTilesAllowed == false { entry.status = .cannot(["its service does not allow exporting tiles (exportTilesAllowed is false)"]) }
            return entry
        }
        guard behavior.needsMetadata else { return entry }
        guard behavior.isServiceBacked else { return entry }  // an inline feature collection goes with the map
        guard let table = behavior.table else {
            entry.status = .unknown
            return entry
        }
        let offline = OfflineLayer(table: table, displayName: layer.displayName, isTable: layer.isTable)
        entry.offlineLayer = offline
        var reasons = OfflineReadiness.problems(of: [offline]).filter { $0.severity == .error }.map(\.reason)
        if !offline.hasSync && !offline.capabilities.isEditable {
            // Read-only layers also go offline only by sync (offline/sync-disabled speaks of the editable ones).
            reasons.insert("its capabilities lack Sync", at: 0)
        }
        if !reasons.isEmpty { entry.status = .cannot(reasons) }
        return entry
    }
}
