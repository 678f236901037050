import WebMap

/// Whether a map is meant for offline use, and what its author said about going offline (rules.md, `offline/`):
/// read once per map from the item wrapper's `item.typeKeywords` and `applicationProperties.offline`.
public struct OfflineSettings: Sendable {
    /// The item wrapper's `typeKeywords` holds `Offline` (ArcGIS adds it when "Enable offline mode" is on).
    public var hasOfflineKeyword: Bool
    /// The map has `applicationProperties.offline`.
    public var hasOfflineProperties: Bool
    /// Ids of the layers and tables `applicationProperties.offline.connectedOnlineLayers` keeps online.
    public var onlineLayerIds: Set<String>
    /// `applicationProperties.offline.editableLayers.download` (`features`, `featuresAndAttachments`, `none`).
    public var editableLayersDownload: String?
    /// Where `editableLayers.download` is in the file.
    public var editableLayersDownloadPointer: JSONPointer?

    public init(document: WebMapDocument) {
        // Only the item wrapper has an item (its map is `itemData`).
        let keywords = document.mapPointer.tokens.first == "itemData" ? document.root["item"]?["typeKeywords"]?.array ?? [] : []
        hasOfflineKeyword = keywords.contains { $0.string?.equalsIgnoringCase("Offline") == true }
        let offline = document.map["applicationProperties"]?["offline"]
        hasOfflineProperties = offline?.object != nil
        var ids = Set<String>()
        for entry in offline?["connectedOnlineLayers"]?.array ?? [] {
            if let id = entry.string ?? entry["id"]?.string { ids.insert(id) }
            if let number = entry["id"]?.integer { ids.insert(String(number)) }
        }
        onlineLayerIds = ids
        editableLayersDownload = offline?["editableLayers"]?["download"]?.string
        editableLayersDownloadPointer = editableLayersDownload == nil ? nil
            : document.mapPointer.appending(components: "applicationProperties", "offline", "editableLayers", "download")
    }

    /// True when the map says it is meant for offline use (the keyword or the offline properties).
    public var mapIsMeantForOffline: Bool { hasOfflineKeyword || hasOfflineProperties }

    /// True when `layer` is one the author keeps online (`connectedOnlineLayers`): the offline rules skip it.
    public func keepsOnline(_ layer: MapLayer) -> Bool {
        guard let id = layer.id else { return false }
        return onlineLayerIds.contains(id)
    }
}
