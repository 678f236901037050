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
        guard let form = Self.mapForm(of: root), let object = root.object else { return nil }
        self.source = source
        self.root = root
        switch form {
        case .exportWrapper:
            map = object["itemData"]!
            mapPointer = JSONPointer.root / "itemData"
            if let item = object["item"] {
                title = item["title"]?.string
                titlePointer = item["title"] == nil ? nil : JSONPointer.root / "item" / "title"
                itemId = item["id"]?.string
            }
        case .plain:
            map = root
            mapPointer = .root
        }
        layers = []
        layers.reserveCapacity((map["operationalLayers"]?.array?.count ?? 0) + (map["tables"]?.array?.count ?? 0))
        var order = 0
        for (index, node) in (map["operationalLayers"]?.array ?? []).enumerated() {
            appendLayer(node, pointer: mapPointer.appending("operationalLayers", index), isTable: false, groups: [], order: &order)
        }
        for (index, node) in (map["tables"]?.array ?? []).enumerated() {
            appendLayer(node, pointer: mapPointer.appending("tables", index), isTable: true, groups: [], order: &order)
        }
    }

    private mutating func appendLayer(_ node: JSONNode, pointer: JSONPointer, isTable: Bool, groups: [String], order: inout Int) {
        guard node.object != nil else { return }
        let layer = MapLayer(node: node, pointer: pointer, isTable: isTable, groupTitles: groups, order: order)
        order += 1
        layers.append(layer)
        if layer.layerType == "GroupLayer" {
            for (index, child) in (node["layers"]?.array ?? []).enumerated() {
                appendLayer(child, pointer: pointer.appending("layers", index), isTable: false,
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
        layers = [MapLayer(node: root, pointer: .root, isTable: false, groupTitles: [], order: 0,
                           standalonePopupTitle: .some(layerTitle))]
    }

    /// How a root holds a web map: as the map itself (`operationalLayers` or `baseMap` at the top), or as the
    /// portal's `{item, itemData}` export wrapper (an `itemData` object and no `operationalLayers` beside it).
    public enum MapForm: Sendable {
        case plain, exportWrapper
    }

    /// The form of the web map `root` is, nil when it is none: exactly when `init(root:source:)` makes a map
    /// (a cheap look at the top-level keys, for work that starts before the map's layers are read).
    public static func mapForm(of root: JSONNode) -> MapForm? {
        guard let object = root.object else { return nil }
        if let itemData = object["itemData"], itemData.object != nil, object["operationalLayers"] == nil { return .exportWrapper }
        if object["operationalLayers"] != nil || object["baseMap"] != nil { return .plain }
        return nil
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

/// One entry of `operationalLayers` (or of a group's `layers`) or of `tables`. A class whose properties are
/// read from the JSON once: every rule asks for them, layer after layer, and passes layers around.
public final class MapLayer: Sendable {
    public let node: JSONNode
    public let pointer: JSONPointer
    public let isTable: Bool
    /// Titles of the enclosing group layers, outermost first.
    public let groupTitles: [String]
    /// Position in the flattened list of layers then tables.
    public let order: Int
    /// Set for the single layer made up around a standalone pop-up definition file: the pop-up is the file's
    /// root and the layer stands for the service layer given with `--layer`.
    public let isStandalonePopup: Bool

    public let layerType: String?
    /// The `id`, as text even when a map wrote it as a number.
    public let id: String?
    public let title: String?
    public let url: String?
    public let visibility: Bool
    public let disablePopup: Bool
    public let layerDefinition: JSONNode?
    public let isGroup: Bool
    public let hasFeatureCollection: Bool
    /// Is this a feature layer or table (as opposed to tiles, imagery, WMS, CSV...)?
    public let isFeatureLayerKind: Bool
    /// A feature layer or table with a feature-service URL (not an inline collection).
    public let isServiceBacked: Bool
    /// `ServiceURL.layerComponents(url)`: the normalised service URL and the layer id, when the URL is a
    /// FeatureServer or MapServer layer URL (read once: metadata resolution, relationships and the URL rules
    /// all ask).
    public let serviceLayer: (service: String, layerId: Int)?

    /// `standalonePopupTitle` is set (to the `--layer` title, or nil) only for the layer standing for a
    /// standalone pop-up definition file.
    public init(node: JSONNode, pointer: JSONPointer, isTable: Bool, groupTitles: [String], order: Int,
                standalonePopupTitle: String?? = nil) {
        self.node = node
        self.pointer = pointer
        self.isTable = isTable
        self.groupTitles = groupTitles
        self.order = order
        if let standaloneTitle = standalonePopupTitle {
            isStandalonePopup = true
            layerType = "ArcGISFeatureLayer"
            id = nil
            title = standaloneTitle
            url = nil
            disablePopup = false
            layerDefinition = nil
        } else {
            isStandalonePopup = false
            layerType = node["layerType"]?.string
            if let text = node["id"]?.string {
                id = text
            } else if let n = node["id"], case .number(let number) = n.value {
                id = number.int.map(String.init) ?? String(number.double)
            } else {
                id = nil
            }
            title = node["title"]?.string
            url = node["url"]?.string
            disablePopup = node["disablePopup"]?.bool ?? false
            layerDefinition = node["layerDefinition"]
        }
        visibility = node["visibility"]?.bool ?? true
        isGroup = layerType == "GroupLayer"
        serviceLayer = url.flatMap(ServiceURL.layerComponents)
        hasFeatureCollection = node["featureCollection"]?.object != nil
        if isTable || isStandalonePopup {
            isFeatureLayerKind = true
        } else if let type = layerType {
            isFeatureLayerKind = type == "ArcGISFeatureLayer"
        } else {
            // Version 1.x maps often omit layerType: a FeatureServer/MapServer sublayer URL or a collection says it.
            isFeatureLayerKind = hasFeatureCollection || serviceLayer != nil
        }
        isServiceBacked = isStandalonePopup || (isFeatureLayerKind && !hasFeatureCollection && url != nil)
    }

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
        if let (index, sub) = firstFeatureCollectionLayer, let popup = sub["popupInfo"], popup.object != nil {
            return PopupInfo(node: popup, pointer: pointer.appending(components: "featureCollection", "layers", String(index), "popupInfo"))
        }
        return nil
    }

    /// The first object of the `layers` of an inline `featureCollection`, with its index: the layer the app
    /// shows (its pop-up and layer definition are the layer's).
    public var firstFeatureCollectionLayer: (Int, JSONNode)? {
        guard let layers = node["featureCollection"]?["layers"]?.array else { return nil }
        return layers.indices.first { layers[$0].object != nil }.map { ($0, layers[$0]) }
    }
}
