/// Where a layer's metadata came from; every report says which.
public enum MetadataSource: String, Sendable, Codable {
    case inline, snapshot, live
}

public struct ResolvedMetadata: Sendable {
    /// The service's metadata with the map's `layerDefinition` overrides applied (the "feature table").
    public var metadata: LayerMetadata
    public var source: MetadataSource
    /// The service root, when the snapshot or service gave it.
    public var serviceRoot: ServiceRootMetadata?

    public init(metadata: LayerMetadata, source: MetadataSource, serviceRoot: ServiceRootMetadata? = nil) {
        self.metadata = metadata
        self.source = source
        self.serviceRoot = serviceRoot
    }
}

/// Finds a layer's metadata: inline feature collection, then the services snapshots, then (only when a
/// fetcher is given) the live service.
public struct MetadataResolver: Sendable {
    public var snapshots: [ServicesSnapshot]
    public var fetcher: LiveMetadataFetcher?

    public init(snapshots: [ServicesSnapshot] = [], fetcher: LiveMetadataFetcher? = nil) {
        self.snapshots = snapshots
        self.fetcher = fetcher
    }

    /// The metadata of `layer`, or nil when it cannot be found (or the layer has none to find). A URL that is
    /// not a layer URL (`.../FeatureServer/<n>`, `.../MapServer/<n>`) has none: a snapshot or service answers
    /// it with something else (the service root for `.../FeatureServer`), which is not this layer.
    /// `urlOverride` is the layer's URL after template substitution, when it differs.
    public func resolve(_ layer: MapLayer, url urlOverride: String? = nil) -> ResolvedMetadata? {
        guard layer.isFeatureLayerKind else { return nil }
        if let (_, sub) = layer.firstFeatureCollectionLayer, let definition = sub["layerDefinition"], definition.object != nil {
            return ResolvedMetadata(metadata: LayerMetadata(definition), source: .inline, serviceRoot: nil)
        }
        guard let url = urlOverride ?? layer.url,
              let service = urlOverride == nil ? layer.serviceLayer?.service : ServiceURL.layerComponents(url)?.service
        else { return nil }
        for snapshot in snapshots {
            if let metadata = snapshot.layer(url: url) {
                return ResolvedMetadata(
                    metadata: metadata.applying(overrides: layer.layerDefinition), source: .snapshot,
                    serviceRoot: snapshot.serviceRoot(url: service))
            }
        }
        if let fetcher, case .success(let node) = fetcher.fetchJSON(url: url) {
            let root = (try? fetcher.fetchJSON(url: service).get()).map(ServiceRootMetadata.init)
            return ResolvedMetadata(metadata: LayerMetadata(node).applying(overrides: layer.layerDefinition), source: .live, serviceRoot: root)
        }
        return nil
    }

    /// The JSON a snapshot holds for any service URL (a basemap's `.../MapServer`); nil when none has it. Never
    /// fetched live, even with a fetcher: a map's basemap is usually a public service elsewhere (Esri's), and
    /// `--fetch` is for the map's own feature services.
    public func snapshotJSON(url: String) -> JSONNode? {
        for snapshot in snapshots {
            if let node = snapshot.entries[ServiceURL.normalize(url)] { return node }
        }
        return nil
    }
}
