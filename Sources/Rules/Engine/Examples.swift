/// Building blocks for rule examples: a small Trees layer and its services snapshot, so that each rule's
/// examples show only what matters to that rule.
public enum Examples {
    public static let treesURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer/0"

    /// A web map with one Trees point layer whose pop-up has `fieldInfos` (comma-separated JSON objects) and
    /// optional extra pop-up members; `layerExtra` adds members to the layer object.
    public static func map(fieldInfos: String = defaultFieldInfos, extraPopup: String? = nil, layerExtra: String? = nil,
                           title: String = "{Address}", url: String = treesURL) -> String {
        """
        {
          "operationalLayers": [
            {
              "id": "Trees_1234",
              "title": "Trees",
              "layerType": "ArcGISFeatureLayer",
              "url": "\(url)",\(layerExtra.map { "\n      " + $0 + "," } ?? "")
              "popupInfo": {
                "title": "\(title)",
                "fieldInfos": [
                  \(fieldInfos)
                ],\(extraPopup.map { "\n        " + $0 + "," } ?? "")
                "popupElements": [{"type": "fields"}, {"type": "attachments"}]
              }
            }
          ],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """
    }

    public static let defaultFieldInfos = """
        {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                  {"fieldName": "Condition", "label": "Condition", "visible": true, "isEditable": true}
        """

    /// Layer metadata for Trees; `fields` replaces the extra fields, `extra` adds members.
    public static func treesLayer(capabilities: String = "Create,Delete,Query,Update,Editing", geometryType: String = "esriGeometryPoint",
                                  extraFields: String = "", extra: String = "") -> String {
        """
        {
            "id": 0, "name": "Trees", "type": "Feature Layer", "geometryType": "\(geometryType)",
            "objectIdField": "OBJECTID", "globalIdField": "GlobalID", "capabilities": "\(capabilities)",
            "hasAttachments": true,\(extra.isEmpty ? "" : " " + extra + ",")
            "fields": [
              {"name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID", "nullable": false, "editable": false},
              {"name": "GlobalID", "type": "esriFieldTypeGlobalID", "alias": "GlobalID", "nullable": false, "editable": false, "length": 38},
              {"name": "Address", "type": "esriFieldTypeString", "alias": "Address", "nullable": true, "editable": true, "length": 100},
              {"name": "Condition", "type": "esriFieldTypeString", "alias": "Condition", "nullable": true, "editable": true, "length": 20,
               "domain": {"type": "codedValue", "name": "Condition", "codedValues": [{"name": "Good", "code": "Good"}, {"name": "Poor", "code": "Poor"}]}}\(extraFields.isEmpty ? "" : ",\n      " + extraFields)
            ]
        }
        """
    }

    /// A services snapshot holding only the Trees layer.
    public static let treesSnapshot = snapshot([treesURL: treesLayer()])

    /// A services snapshot from URL -> layer JSON text.
    public static func snapshot(_ layers: [String: String]) -> String {
        "{\n" + layers.sorted { $0.key < $1.key }.map { "  \"\($0.key)\": \($0.value)" }.joined(separator: ",\n") + "\n}"
    }
}
