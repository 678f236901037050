/// Building blocks for the `offline/` rules' examples: the Trees map meant for offline use (or not), and the
/// Trees layer's metadata with or without `Sync` and a global id.
enum OfflineExamples {
    /// The Trees layer's entry in `operationalLayers`.
    static let treesLayer = """
        {"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)",
               "popupInfo": {"title": "{Address}", "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true}]}}
        """

    /// A map with `layers` (operational layer objects, comma-separated), the given `applicationProperties.offline`
    /// (nil: none, so the map is not meant for offline use) and basemap layers.
    static func map(layers: String = treesLayer, offline: String? = "{}", basemapLayers: String = "") -> String {
        """
        {
          "operationalLayers": [
            \(layers)
          ],
          "baseMap": {"title": "Basemap", "baseMapLayers": [\(basemapLayers)]},\(offline.map { "\n  \"applicationProperties\": {\"offline\": \($0)}," } ?? "")
          "version": "2.28"
        }
        """
    }

    /// The same map in the item wrapper whose `typeKeywords` hold `Offline`.
    static func itemWrapper(layers: String = treesLayer) -> String {
        """
        {
          "item": {"id": "0123456789abcdef0123456789abcdef", "title": "Trees", "type": "Web Map", "typeKeywords": ["ArcGIS Online", "Offline"]},
          "itemData": \(map(layers: layers, offline: nil))
        }
        """
    }

    /// Trees metadata: `capabilities`, with or without its global id field (without, neither `globalIdField`
    /// nor a GlobalID field, from which the metadata would be inferred), and extra members.
    static func trees(capabilities: String = "Create,Delete,Query,Update,Editing,Sync", globalIds: Bool = true, extra: String = "") -> String {
        let layer = Examples.treesLayer(capabilities: capabilities, extra: extra)
        guard !globalIds else { return layer }
        return layer.replacingOccurrences(of: #""globalIdField": "GlobalID", "#, with: "")
            .replacingOccurrences(of: #"{"name": "GlobalID", "type": "esriFieldTypeGlobalID", "alias": "GlobalID", "nullable": false, "editable": false, "length": 38},"#, with: "")
    }

    /// A snapshot holding the Trees layer `layer`.
    static func snapshot(_ layer: String = trees()) -> String { Examples.snapshot([Examples.treesURL: layer]) }
}
