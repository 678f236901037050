/// A web map read from a file: the map object (inside the `{item, itemData}` wrapper when there is one),
/// its title and item id when known, and its layers and tables flattened in the order the app sees them.
public struct WebMapDocument: Sendable {
    public var source: SourceText
    public var root: JSONNode
    /// The web map object: the root, or `itemData` of the wrapper.
    public var map: JSONNode
    /// "" or "/itemData".
    public var mapPointer: JSONPointer
    /// `item.title` of the wrapper, when present.
    public var title: String?
    public var titlePointer: JSONPointer?
    public var itemId: String?
    /// Operational layers with group layers expanded (groups themselves included, before their children),
    /// then tables.
    public var layers: [MapLayer]

    /// Reads `root` as a web map; nil when it is not one (not an object, or neither `operationalLayers`,
    /// `baseMap` nor the item wrapper).
    public init?(root: JSONNode, source: SourceText) {
        guard let object = root.object else { return nil }
        self.source = source
        self.root = root
        if let itemData = object["itemData"], itemData.object != nil, object["operationalLayers"] == nil {
            map = itemData
            mapPointer = JSONPointer.root / "itemData"
            if let item = object["item"] {
                title = item["title"]?.string
                titlePointer = item["title"] == nil ? nil : JSONPointer.root / "item" / "title"
                itemId = item["id"]?.string
            }
        } else if object["operationalLayers"] != nil || object["baseMap"] != nil {
            map = root
            mapPointer = .root
        } else {
            return nil
        }
        layers = []
        var order = 0
        for (index, node) in (map["operationalLayers"]?.array ?? []).enumerated() {
            appendLayer(node, pointer: mapPointer / "operationalLayers" / index, isTable: false, groups: [], order: &order)
        }
        for (index, node) in (map["tables"]?.array ?? []).enumerated() {
            appendLayer(node, pointer: mapPointer / "tables" / index, isTable: true, groups: [], order: &order)
        }
    }

    private mutating func appendLayer(_ node: JSONNode, pointer: JSONPointer, isTable: Bool, groups: [String], order: inout Int) {
        guard node.object != nil else { return }
        let layer = MapLayer(node: node, pointer: pointer, isTable: isTable, groupTitles: groups, order: order)
        order += 1
        layers.append(layer)
        if layer.layerType == "GroupLayer" {
            for (index, child) in (node["layers"]?.array ?? []).enumerated() {
                appendLayer(child, pointer: pointer / "layers" / index, isTable: false,
                            groups: groups + [layer.title ?? layer.id ?? "group"], order: &order)
            }
        }
    }

    /// A standalone pop-up definition, read as a map of one layer whose pop-up is the file's root.
    public init(popup root: JSONNode, source: SourceText, layerTitle: String?) {
        self.source = source
        self.root = root
        map = JSONNode(.object(JSONObject()), offset: root.offset)
        mapPointer = .root
        var layer = MapLayer(node: root, pointer: .root, isTable: false, groupTitles: [], order: 0)
        layer.isStandalonePopup = true
        layer.standaloneTitle = layerTitle
        layers = [layer]
    }

    /// True when `root` is the `{item, itemData}` export wrapper but its `itemData` is not a map object (for
    /// example double-encoded JSON text): such a file means to be a map, so a directory walk reports it.
    public static func looksLikeBrokenWrapper(_ root: JSONNode) -> Bool {
        guard let object = root.object, object["item"] != nil, let data = object["itemData"] else { return false }
        return data.object == nil
    }

    /// True when `root` looks like a pop-up definition (`fieldInfos`, `popupElements` or `title` with no map keys).
    public static func looksLikePopup(_ root: JSONNode) -> Bool {
        guard let object = root.object, object["operationalLayers"] == nil, object["baseMap"] == nil, object["itemData"] == nil else { return false }
        return object["fieldInfos"] != nil || object["popupElements"] != nil
    }

    public var operationalLayers: [MapLayer] { layers.filter { !$0.isTable } }
    public var tables: [MapLayer] { layers.filter(\.isTable) }
    public var operationalLayersNode: JSONNode? { map["operationalLayers"] }
    public var version: String? { map["version"]?.string }
}

/// One entry of `operationalLayers` (or of a group's `layers`) or of `tables`.
public struct MapLayer: Sendable {
    public var node: JSONNode
    public var pointer: JSONPointer
    public var isTable: Bool
    /// Titles of the enclosing group layers, outermost first.
    public var groupTitles: [String]
    /// Position in the flattened list of layers then tables.
    public var order: Int
    /// Set for the single layer made up around a standalone pop-up definition file: the pop-up is the file's
    /// root and the layer stands for the service layer given with `--layer`.
    public var isStandalonePopup = false

    public var layerType: String? { isStandalonePopup ? "ArcGISFeatureLayer" : node["layerType"]?.string }
    /// The `id`, as text even when a map wrote it as a number.
    public var id: String? {
        if isStandalonePopup { return nil }
        if let s = node["id"]?.string { return s }
        if let n = node["id"], case .number(let number) = n.value {
            return number.int.map(String.init) ?? String(number.double)
        }
        return nil
    }
    public var title: String? { isStandalonePopup ? standaloneTitle : node["title"]?.string }
    var standaloneTitle: String?
    public var url: String? { isStandalonePopup ? nil : node["url"]?.string }
    public var visibility: Bool { node["visibility"]?.bool ?? true }
    public var disablePopup: Bool { isStandalonePopup ? false : node["disablePopup"]?.bool ?? false }
    public var layerDefinition: JSONNode? { isStandalonePopup ? nil : node["layerDefinition"] }
    public var isGroup: Bool { layerType == "GroupLayer" }

    /// "'Trees' (id Trees_1234)", or whichever of the two the map gives.
    public var displayName: String {
        switch (title, id) {
        case let (title?, id?): return "'\(title)' (id \(id))"
        case let (title?, nil): return "'\(title)'"
        case let (nil, id?): return "id \(id)"
        default: return "at \(pointer)"
        }
    }

    /// The pop-up definition: the layer's own `popupInfo`, or that of its single inline feature collection
    /// layer.
    public var popupInfo: PopupInfo? {
        if isStandalonePopup { return PopupInfo(node: node, pointer: pointer) }
        if let popup = node["popupInfo"], popup.object != nil { return PopupInfo(node: popup, pointer: pointer / "popupInfo") }
        if let (index, sub) = featureCollectionLayers.first, let popup = sub["popupInfo"], popup.object != nil {
            return PopupInfo(node: popup, pointer: pointer / "featureCollection" / "layers" / index / "popupInfo")
        }
        return nil
    }

    /// Layers of an inline `featureCollection`, with their index.
    public var featureCollectionLayers: [(Int, JSONNode)] {
        (node["featureCollection"]?["layers"]?.array ?? []).enumerated().filter { $0.element.object != nil }.map { ($0.offset, $0.element) }
    }

    public var hasFeatureCollection: Bool { node["featureCollection"]?.object != nil }

    /// Is this a feature layer or table (as opposed to tiles, imagery, WMS, CSV...)?
    public var isFeatureLayerKind: Bool {
        if isTable || isStandalonePopup { return true }
        if let type = layerType { return type == "ArcGISFeatureLayer" }
        // Version 1.x maps often omit layerType: a FeatureServer/MapServer sublayer URL or a collection says it.
        return hasFeatureCollection || (url.map(ServiceURL.isLayerURL) ?? false)
    }

    /// A feature layer or table with a feature-service URL (not an inline collection).
    public var isServiceBacked: Bool {
        isStandalonePopup || (isFeatureLayerKind && !hasFeatureCollection && url != nil)
    }
}
