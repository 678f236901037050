import WebMap

extension WebMapDocument {
    /// True when this "map" is a standalone pop-up definition file read as a map of one layer: the map-level
    /// rules (layers, URLs, title) have nothing to say about it.
    var isPopupDefinitionFile: Bool { layers.first?.isStandalonePopup == true }

    /// The innermost layer or table whose object holds the value at `pointer` (for per-layer configuration).
    func enclosingLayer(of pointer: JSONPointer) -> MapLayer? {
        layers.filter { !$0.isStandalonePopup && pointer.tokens.starts(with: $0.pointer.tokens) }
            .max { $0.pointer.tokens.count < $1.pointer.tokens.count }
    }
}

/// A service URL written in a layer of the map: an operational layer (group children included), a table or
/// a basemap layer. A class: the rules that walk a large map's 100,000 references then retain one object each
/// instead of copying five references.
final class LayerURLReference {
    /// The URL as the rules see it (after `{{ }}` substitution).
    let url: String
    /// The object holding the URL (a layer, or the basemap's `baseMapLayers`) and the member's key: the
    /// pointer is built only when a diagnostic names it.
    private let container: JSONPointer
    private let key: String
    /// The operational layer or table; nil for a basemap layer.
    let layer: MapLayer?
    /// For a basemap layer, its title or id (nil when it has neither); unused for operational layers.
    let basemapTitle: String?
    /// Its index in `baseMapLayers` (for basemap layers).
    let basemapIndex: Int

    init(url: String, container: JSONPointer, key: String, layer: MapLayer?, basemapTitle: String? = nil, basemapIndex: Int = 0) {
        self.url = url
        self.container = container
        self.key = key
        self.layer = layer
        self.basemapTitle = basemapTitle
        self.basemapIndex = basemapIndex
    }

    /// Pointer to the URL string.
    var pointer: JSONPointer {
        layer == nil ? container.appending(components: String(basemapIndex), key) : container / key
    }

    /// "layer 'Trees' (id Trees_1234)" or "basemap layer 'Topographic'" (built only for a diagnostic).
    var name: String {
        if let layer { return (layer.isTable ? "table " : "layer ") + layer.displayName }
        return "basemap layer" + (basemapTitle.map { " '\($0)'" } ?? " \(basemapIndex + 1)")
    }

    /// Every `url` and `styleUrl` of every layer, table and basemap layer, in document order (found once
    /// per file: several map/ rules read them).
    static func all(in context: MapContext) -> [LayerURLReference] {
        context.shared([LayerURLReference].self) { find(in: context.document) }
    }

    private static let urlKeys = ["url", "styleUrl"]

    private static func find(in document: WebMapDocument) -> [LayerURLReference] {
        guard !document.isPopupDefinitionFile else { return [] }
        var found: [LayerURLReference] = []
        found.reserveCapacity(document.layers.count)
        for layer in document.layers {
            for key in urlKeys {
                guard let url = layer.node[key]?.string else { continue }
                found.append(LayerURLReference(url: url, container: layer.pointer, key: key, layer: layer))
            }
        }
        let basemapPointer = document.mapPointer / "baseMap" / "baseMapLayers"
        for (index, node) in (document.map["baseMap"]?["baseMapLayers"]?.array ?? []).enumerated() {
            let title = node["title"]?.string ?? node["id"]?.string
            for key in urlKeys {
                guard let url = node[key]?.string else { continue }
                found.append(LayerURLReference(url: url, container: basemapPointer, key: key, layer: nil,
                                               basemapTitle: title, basemapIndex: index))
            }
        }
        return found
    }
}

extension MapContext {
    /// The behavior of `layer` (nil for a layer the map does not list, such as a basemap layer). Found by the
    /// layer's place in the map (`order`) first: searching the list for each finding made a map of 100,000
    /// layers with an insecure URL in every seventh take 45 s (14,286 findings times 100,000 pointers compared).
    func layerBehavior(of layer: MapLayer?) -> LayerBehavior? {
        guard let layer else { return nil }
        let layers = behavior.layers
        if layers.indices.contains(layer.order), layers[layer.order].layer === layer { return layers[layer.order] }
        return layers.first { $0.layer.pointer == layer.pointer }
    }
}

extension MapLayer {
    /// "Layer 'Trees' (id Trees_1234)" or "Table 'Species' (id Species_1)".
    var kindAndName: String { (isTable ? "Table " : "Layer ") + displayName }
}

extension String {
    /// "layer 'Trees'" from "Layer 'Trees'": for a name that continues a sentence.
    var withLowercasedInitial: String { prefix(1).lowercased() + dropFirst() }
}
