/// Example maps for popup/ rules that need a pop-up shaped differently from `Examples.map` (no
/// `popupElements`, a custom description, an inline feature collection).
enum PopupExamples {
    /// A web map with the Trees layer of `Examples.treesURL` whose `popupInfo` members are `popup` (JSON
    /// members, without the braces).
    static func map(popup: String, layerExtra: String? = nil) -> String {
        """
        {
          "operationalLayers": [
            {
              "id": "Trees_1234",
              "title": "Trees",
              "layerType": "ArcGISFeatureLayer",
              "url": "\(Examples.treesURL)",\(layerExtra.map { "\n      " + $0 + "," } ?? "")
              "popupInfo": {
                \(popup)
              }
            }
          ],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """
    }

    /// A web map with one inline feature collection layer (read-only to the app) of street trees, whose
    /// layer definition has the fields `Address` (String) and `Condition` (String) and whose `popupInfo`
    /// members are `popup`.
    static func inlineMap(popup: String) -> String {
        """
        {
          "operationalLayers": [
            {
              "id": "Sketch_1",
              "title": "Survey sketch",
              "layerType": "ArcGISFeatureLayer",
              "featureCollection": {
                "layers": [
                  {
                    "layerDefinition": {
                      "name": "Sketch", "type": "Feature Layer", "geometryType": "esriGeometryPoint",
                      "objectIdField": "FID", "capabilities": "Query,Editing",
                      "fields": [
                        {"name": "FID", "type": "esriFieldTypeOID", "alias": "FID"},
                        {"name": "Address", "type": "esriFieldTypeString", "alias": "Address", "length": 100},
                        {"name": "Condition", "type": "esriFieldTypeString", "alias": "Condition", "length": 20}
                      ]
                    },
                    "featureSet": {"geometryType": "esriGeometryPoint", "features": []},
                    "popupInfo": {
                      \(popup)
                    }
                  }
                ]
              }
            }
          ],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """
    }
}
