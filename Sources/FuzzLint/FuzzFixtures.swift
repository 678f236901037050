/// Fixed service metadata the harness lints against: a trimmed copy of the Trees of Portland services snapshot
/// (service root, the Trees and Neighborhoods layers, the Species and Inspections tables; no drawing info,
/// extents, types or templates), so that inputs whose layers point at these URLs (the sample maps among the
/// seeds do) reach the rules that need metadata, and a fixed layer for standalone pop-up definitions.
/// Update it by hand from `Samples/TreesOfPortland/TreesOfPortland.services.json` if the samples' URLs change;
/// the harness stops at start-up if it no longer loads.
enum FuzzFixtures {
    /// URL of the layer a standalone pop-up definition is linted against (`--layer`).
    static let popupLayerURL = "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/0"

    static let servicesSnapshot = #"""
    {
      "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer": {
        "hasVersionedData": false,
        "syncEnabled": false,
        "maxRecordCount": 2000,
        "capabilities": "Create,Delete,Query,Update,Uploads,Editing",
        "supportsApplyEditsWithGlobalIds": true,
        "layers": [{"id": 0, "name": "Trees"}, {"id": 1, "name": "Neighborhoods"}],
        "tables": [{"id": 2, "name": "Species"}, {"id": 3, "name": "Inspections"}]
      },
      "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/0": {
        "id": 0,
        "name": "Trees",
        "type": "Feature Layer",
        "geometryType": "esriGeometryPoint",
        "minScale": 0,
        "maxScale": 0,
        "hasAttachments": true,
        "objectIdField": "OBJECTID",
        "globalIdField": "GlobalID",
        "displayField": "Address",
        "fields": [
          {"name": "OBJECTID", "type": "esriFieldTypeOID", "editable": false},
          {"name": "Address", "type": "esriFieldTypeString", "length": 100, "editable": true},
          {"name": "Neighborhood", "type": "esriFieldTypeString", "length": 50, "editable": true},
          {"name": "Site_Type", "type": "esriFieldTypeString", "length": 2, "editable": true, "domain": {"type": "codedValue", "name": "SiteType", "description": "", "codedValues": [{"name": "Tree lawn / parkway", "code": "TL"}, {"name": "Sidewalk cutout", "code": "SC"}, {"name": "Median", "code": "MD"}, {"name": "Yard", "code": "YD"}, {"name": "Park", "code": "PK"}, {"name": "Other", "code": "OT"}], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "Site_Width", "type": "esriFieldTypeDouble", "editable": true},
          {"name": "Wires", "type": "esriFieldTypeString", "length": 2, "editable": true, "domain": {"type": "codedValue", "name": "Wires", "description": "", "codedValues": [{"name": "High voltage", "code": "HV"}, {"name": "Low voltage", "code": "LV"}, {"name": "None", "code": "NO"}, {"name": "Unknown", "code": "UN"}], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "Species_ID", "type": "esriFieldTypeInteger", "editable": true},
          {"name": "Planted_By", "type": "esriFieldTypeString", "length": 50, "editable": true},
          {"name": "Planted_Date", "type": "esriFieldTypeDate", "editable": true},
          {"name": "Condition", "type": "esriFieldTypeString", "length": 10, "editable": true, "domain": {"type": "codedValue", "name": "TreeCondition", "description": "", "codedValues": [{"name": "Good", "code": "Good"}, {"name": "Fair", "code": "Fair"}, {"name": "Poor", "code": "Poor"}, {"name": "Dead", "code": "Dead"}], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "DBH", "type": "esriFieldTypeDouble", "editable": true, "domain": {"type": "range", "name": "DBH", "description": "", "range": [0, 120], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "Notes", "type": "esriFieldTypeString", "length": 255, "editable": true},
          {"name": "created_user", "type": "esriFieldTypeString", "length": 255, "editable": false},
          {"name": "created_date", "type": "esriFieldTypeDate", "editable": false},
          {"name": "last_edited_user", "type": "esriFieldTypeString", "length": 255, "editable": false},
          {"name": "last_edited_date", "type": "esriFieldTypeDate", "editable": false},
          {"name": "GlobalID", "type": "esriFieldTypeGlobalID", "length": 38, "editable": false}
        ],
        "relationships": [
          {"id": 0, "name": "Species", "relatedTableId": 2, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleDestination", "keyField": "Species_ID", "composite": false},
          {"id": 1, "name": "Inspections", "relatedTableId": 3, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": false}
        ],
        "capabilities": "Create,Delete,Query,Update,Uploads,Editing",
        "maxRecordCount": 2000,
        "isDataBranchVersioned": false,
        "supportsApplyEditsWithGlobalIds": true,
        "editFieldsInfo": {"creationDateField": "created_date", "creatorField": "created_user", "editDateField": "last_edited_date", "editorField": "last_edited_user"}
      },
      "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/1": {
        "id": 1,
        "name": "Neighborhoods",
        "type": "Feature Layer",
        "geometryType": "esriGeometryPolygon",
        "minScale": 0,
        "maxScale": 0,
        "hasAttachments": false,
        "objectIdField": "OBJECTID",
        "globalIdField": "GlobalID",
        "displayField": "NAME",
        "fields": [
          {"name": "OBJECTID", "type": "esriFieldTypeOID", "editable": false},
          {"name": "NAME", "type": "esriFieldTypeString", "length": 50, "editable": true},
          {"name": "Coalition", "type": "esriFieldTypeString", "length": 50, "editable": true},
          {"name": "GlobalID", "type": "esriFieldTypeGlobalID", "length": 38, "editable": false}
        ],
        "relationships": [],
        "capabilities": "Query",
        "maxRecordCount": 2000,
        "isDataBranchVersioned": false,
        "supportsApplyEditsWithGlobalIds": true,
        "editFieldsInfo": null
      },
      "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/2": {
        "id": 2,
        "name": "Species",
        "type": "Table",
        "minScale": 0,
        "maxScale": 0,
        "hasAttachments": false,
        "objectIdField": "OBJECTID",
        "globalIdField": "GlobalID",
        "displayField": "Common_Name",
        "fields": [
          {"name": "OBJECTID", "type": "esriFieldTypeOID", "editable": false},
          {"name": "Species_ID", "type": "esriFieldTypeInteger", "editable": true},
          {"name": "Common_Name", "type": "esriFieldTypeString", "length": 100, "editable": true},
          {"name": "Scientific_Name", "type": "esriFieldTypeString", "length": 100, "editable": true},
          {"name": "Functional_Type", "type": "esriFieldTypeString", "length": 2, "editable": true, "domain": {"type": "codedValue", "name": "FunctionalType", "description": "", "codedValues": [{"name": "Broadleaf deciduous", "code": "BD"}, {"name": "Broadleaf evergreen", "code": "BE"}, {"name": "Coniferous deciduous", "code": "CD"}, {"name": "Coniferous evergreen", "code": "CE"}], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "Family", "type": "esriFieldTypeString", "length": 50, "editable": true},
          {"name": "Genus", "type": "esriFieldTypeString", "length": 50, "editable": true},
          {"name": "Edible", "type": "esriFieldTypeString", "length": 1, "editable": true, "domain": {"type": "codedValue", "name": "YesNo", "description": "", "codedValues": [{"name": "Yes", "code": "Y"}, {"name": "No", "code": "N"}], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "GlobalID", "type": "esriFieldTypeGlobalID", "length": 38, "editable": false}
        ],
        "relationships": [
          {"id": 0, "name": "Trees", "relatedTableId": 0, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "Species_ID", "composite": false}
        ],
        "capabilities": "Query",
        "maxRecordCount": 2000,
        "isDataBranchVersioned": false,
        "supportsApplyEditsWithGlobalIds": true,
        "editFieldsInfo": null
      },
      "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/3": {
        "id": 3,
        "name": "Inspections",
        "type": "Table",
        "minScale": 0,
        "maxScale": 0,
        "hasAttachments": false,
        "objectIdField": "OBJECTID",
        "globalIdField": "GlobalID",
        "displayField": "Collected_Date",
        "fields": [
          {"name": "OBJECTID", "type": "esriFieldTypeOID", "editable": false},
          {"name": "Collected_Date", "type": "esriFieldTypeDate", "editable": true},
          {"name": "Condition", "type": "esriFieldTypeString", "length": 10, "editable": true, "domain": {"type": "codedValue", "name": "TreeCondition", "description": "", "codedValues": [{"name": "Good", "code": "Good"}, {"name": "Fair", "code": "Fair"}, {"name": "Poor", "code": "Poor"}, {"name": "Dead", "code": "Dead"}], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "DBH", "type": "esriFieldTypeDouble", "editable": true, "domain": {"type": "range", "name": "DBH", "description": "", "range": [0, 120], "mergePolicy": "esriMPTDefaultValue", "splitPolicy": "esriSPTDefaultValue"}},
          {"name": "Collected_By", "type": "esriFieldTypeString", "length": 50, "editable": true},
          {"name": "Notes", "type": "esriFieldTypeString", "length": 255, "editable": true},
          {"name": "Tree_GlobalID", "type": "esriFieldTypeGUID", "length": 38, "editable": true},
          {"name": "created_user", "type": "esriFieldTypeString", "length": 255, "editable": false},
          {"name": "created_date", "type": "esriFieldTypeDate", "editable": false},
          {"name": "last_edited_user", "type": "esriFieldTypeString", "length": 255, "editable": false},
          {"name": "last_edited_date", "type": "esriFieldTypeDate", "editable": false},
          {"name": "GlobalID", "type": "esriFieldTypeGlobalID", "length": 38, "editable": false}
        ],
        "relationships": [
          {"id": 1, "name": "Tree", "relatedTableId": 0, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleDestination", "keyField": "Tree_GlobalID", "composite": false}
        ],
        "capabilities": "Create,Query,Update,Delete,Editing",
        "maxRecordCount": 2000,
        "isDataBranchVersioned": false,
        "supportsApplyEditsWithGlobalIds": true,
        "editFieldsInfo": {"creationDateField": "created_date", "creatorField": "created_user", "editDateField": "last_edited_date", "editorField": "last_edited_user"}
      }
    }
    """#
}
