import Foundation

/// Building blocks for the related/ and attachments/ examples: the Trees service with layer 0 `Trees`,
/// table 2 `Species` (Species 1:M Trees: from a tree, a many-to-one record) and table 3 `Inspections`
/// (Trees 1:M Inspections: from a tree, one-to-many records), and a map listing Trees as an operational layer
/// and the tables in `tables`.
public enum RelatedExamples {
    public static let serviceURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer"
    public static let treesURL = Examples.treesURL
    public static let speciesURL = serviceURL + "/2"
    public static let inspectionsURL = serviceURL + "/3"

    // MARK: Maps

    /// A web map with the Trees layer and `tables` (JSON objects, see `speciesTable` and `inspectionsTable`).
    public static func map(trees: String = treesLayer(), tables: [String] = [speciesTable(), inspectionsTable()]) -> String {
        """
        {
          "operationalLayers": [
            \(trees)
          ],
          "tables": [\(tables.isEmpty ? "" : "\n    " + tables.joined(separator: ",\n    ") + "\n  ")],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """
    }

    /// The Trees operational layer. `popup: false` leaves out its `popupInfo`; `extraPopup` and `layerExtra`
    /// add members to the pop-up and the layer.
    public static func treesLayer(popup: Bool = true, extraPopup: String? = nil, layerExtra: String? = nil,
                                  popupElements: String = #"{"type": "fields"}, {"type": "attachments"}"#) -> String {
        let popupInfo = popup ? """
            ,
                  "popupInfo": {
                    "title": "{Address}",
                    "fieldInfos": [
                      {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                      {"fieldName": "Condition", "label": "Condition", "visible": true, "isEditable": true}
                    ],\(extraPopup.map { "\n            " + $0 + "," } ?? "")
                    "popupElements": [\(popupElements)]
                  }
            """ : ""
        return """
            {
                  "id": "Trees_1234",
                  "title": "Trees",
                  "layerType": "ArcGISFeatureLayer",
                  "url": "\(treesURL)"\(layerExtra.map { ",\n      " + $0 } ?? "")\(popupInfo)
                }
            """
    }

    /// The Species table of the map. `popup: false` leaves out its `popupInfo`.
    public static func speciesTable(popup: Bool = true, layerExtra: String? = nil, url: String = speciesURL) -> String {
        let popupInfo = popup ? """
            , "popupInfo": {"title": "{CommonName}", "fieldInfos": [\
            {"fieldName": "CommonName", "label": "Common name", "visible": true}, \
            {"fieldName": "ScientificName", "label": "Scientific name", "visible": true}]}
            """ : ""
        return #"{"id": "Species_2345", "title": "Species", "url": "\#(url)"\#(layerExtra.map { ", " + $0 } ?? "")\#(popupInfo)}"#
    }

    /// The Inspections table of the map, its pop-up showing `fieldInfos` (comma-separated JSON objects).
    public static func inspectionsTable(fieldInfos: String = defaultInspectionFieldInfos, popup: Bool = true,
                                        layerExtra: String? = nil, url: String = inspectionsURL) -> String {
        let popupInfo = popup ? """
            , "popupInfo": {"title": "{CollectedDate}", "fieldInfos": [\(fieldInfos)]}
            """ : ""
        return #"{"id": "Inspections_3456", "title": "Inspections", "url": "\#(url)"\#(layerExtra.map { ", " + $0 } ?? "")\#(popupInfo)}"#
    }

    public static let defaultInspectionFieldInfos = """
        {"fieldName": "CollectedDate", "label": "Collected", "visible": true, "isEditable": true}, \
        {"fieldName": "Condition", "label": "Condition", "visible": true, "isEditable": true}
        """

    // MARK: Service metadata

    /// Species 1:M Trees, from the tree's side (destination): a tree's species, many-to-one.
    public static func speciesRelationship(composite: Bool = false) -> String {
        #"{"id": 0, "name": "Species_Trees", "relatedTableId": 2, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleDestination", "keyField": "SpeciesID", "composite": \#(composite)}"#
    }

    /// Trees 1:M Inspections, from the tree's side (origin): a tree's inspections, one-to-many.
    public static let inspectionsRelationship =
        #"{"id": 1, "name": "Trees_Inspections", "relatedTableId": 3, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": false}"#

    /// The Trees layer's metadata with `relationships` (JSON objects).
    public static func treesMetadata(relationships: [String] = [speciesRelationship(), inspectionsRelationship],
                                     hasAttachments: Bool = true) -> String {
        let layer = Examples.treesLayer(
            extraFields: #"{"name": "SpeciesID", "type": "esriFieldTypeString", "alias": "Species", "nullable": true, "editable": true, "length": 10}"#,
            extra: #""relationships": [\#(relationships.joined(separator: ", "))]"#)
        return hasAttachments ? layer : layer.replacingOccurrences(of: #""hasAttachments": true"#, with: #""hasAttachments": false"#)
    }

    /// The Species table's metadata (read-only lookup table).
    public static func speciesMetadata(capabilities: String = "Query") -> String {
        """
        {
            "id": 2, "name": "Species", "type": "Table", "objectIdField": "OBJECTID", "capabilities": "\(capabilities)",
            "hasAttachments": false,
            "relationships": [{"id": 0, "name": "Species_Trees", "relatedTableId": 0, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "SpeciesID", "composite": false}],
            "fields": [
              {"name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID", "nullable": false, "editable": false},
              {"name": "SpeciesID", "type": "esriFieldTypeString", "alias": "Species", "nullable": false, "editable": true, "length": 10},
              {"name": "CommonName", "type": "esriFieldTypeString", "alias": "Common Name", "nullable": true, "editable": true, "length": 100},
              {"name": "ScientificName", "type": "esriFieldTypeString", "alias": "Scientific Name", "nullable": true, "editable": true, "length": 100}
            ]
        }
        """
    }

    /// The Inspections table's metadata.
    public static func inspectionsMetadata(capabilities: String = "Create,Delete,Query,Update,Editing") -> String {
        """
        {
            "id": 3, "name": "Inspections", "type": "Table", "objectIdField": "OBJECTID", "globalIdField": "GlobalID",
            "capabilities": "\(capabilities)", "hasAttachments": false,
            "relationships": [{"id": 1, "name": "Trees_Inspections", "relatedTableId": 0, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleDestination", "keyField": "TreeGlobalID", "composite": false}],
            "fields": [
              {"name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID", "nullable": false, "editable": false},
              {"name": "GlobalID", "type": "esriFieldTypeGlobalID", "alias": "GlobalID", "nullable": false, "editable": false, "length": 38},
              {"name": "TreeGlobalID", "type": "esriFieldTypeGUID", "alias": "Tree", "nullable": true, "editable": true, "length": 38},
              {"name": "CollectedDate", "type": "esriFieldTypeDate", "alias": "Collected Date", "nullable": true, "editable": true, "length": 8},
              {"name": "Condition", "type": "esriFieldTypeString", "alias": "Condition", "nullable": true, "editable": true, "length": 20},
              {"name": "DBH", "type": "esriFieldTypeDouble", "alias": "DBH", "nullable": true, "editable": true}
            ]
        }
        """
    }

    /// A services snapshot with Trees, Species and Inspections (nil leaves one out).
    public static func snapshot(trees: String? = treesMetadata(), species: String? = speciesMetadata(),
                                inspections: String? = inspectionsMetadata()) -> String {
        var layers: [String: String] = [:]
        layers[treesURL] = trees
        layers[speciesURL] = species
        layers[inspectionsURL] = inspections
        return Examples.snapshot(layers)
    }
}
