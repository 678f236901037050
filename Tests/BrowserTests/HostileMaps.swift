import Foundation

/// A web map whose titles, labels, field names and expression text are markup, with a services snapshot whose
/// alias and domain values are markup too: every page must show them as text.
enum HostileMaps {
    static let image = "<img src=x onerror=alert(1)>"
    static let script = "\"><script>alert(1)</script>"

    /// Writes `hostile.json` and `hostile.services.json` into `folder`; returns the map's path.
    static func write(into folder: URL) throws -> URL {
        let url = "https://example.com/arcgis/rest/services/Hostile/FeatureServer/0"
        // The portal's item wrapper, so that the map has a title (`item.title`).
        let map: [String: Any] = ["item": ["id": "hostile", "title": "Map \(image)"], "itemData": [
            "version": "2.31",
            "operationalLayers": [[
                "id": "hostile-1", "title": "Layer \(script)", "url": url, "layerType": "ArcGISFeatureLayer", "visibility": true,
                "popupInfo": [
                    "title": "{Name} \(image)",
                    "fieldInfos": [
                        ["fieldName": "Name", "label": "Name \(image)", "visible": true, "isEditable": true],
                        ["fieldName": "Kind", "label": "Kind \(script)", "visible": true, "isEditable": true],
                        ["fieldName": "Missing\(image)", "label": "Missing", "visible": true, "isEditable": true],
                    ],
                ],
            ]],
        ]]
        let layer: [String: Any] = [
            "id": 0, "name": "Hostile \(image)", "type": "Feature Layer", "geometryType": "esriGeometryPoint",
            "capabilities": "Create,Query,Update,Delete,Editing", "objectIdField": "OBJECTID",
            "fields": [
                ["name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID", "nullable": false, "editable": false],
                ["name": "Name", "type": "esriFieldTypeString", "alias": "Alias \(image)", "nullable": true, "editable": true, "length": 50],
                ["name": "Kind", "type": "esriFieldTypeString", "alias": "Kind", "nullable": true, "editable": true, "length": 20,
                 "domain": ["type": "codedValue", "name": "Kinds \(script)",
                            "codedValues": [["name": "Choice \(image)", "code": "a"], ["name": "Choice \(script)", "code": "b"]]]],
            ],
        ]
        let mapURL = folder.appendingPathComponent("hostile.json")
        try JSONSerialization.data(withJSONObject: map, options: [.prettyPrinted, .sortedKeys]).write(to: mapURL)
        try JSONSerialization.data(withJSONObject: [url: layer], options: [.prettyPrinted, .sortedKeys])
            .write(to: folder.appendingPathComponent("hostile.services.json"))
        return mapURL
    }
}
