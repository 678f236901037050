import WebMap

/// What the form/ rules share: which forms they look at and how they name them. The facts themselves (fields,
/// whether they allow edits, input-type fit, constant expressions) come from `FormBehavior`.

/// A form the app uses: that of a feature layer or table (service-backed or inline) with a `formInfo` object.
struct FormSubject {
    let layer: LayerBehavior
    let form: FormBehavior

    /// "layer 'Trees' (id Trees_1234)" or "table 'Inspections' (id Inspections_1)".
    var name: String { (layer.layer.isTable ? "table " : "layer ") + layer.layer.displayName }

    /// The expression an element's member names, when the form defines it (not for the system constants).
    func expression(named name: String) -> FormExpressionInfo? { form.form.expression(named: name) }

    /// Every form of the map, in map order (derived once per file).
    static func all(in context: MapContext) -> [FormSubject] {
        context.shared([FormSubject].self) {
            context.behavior.layers.compactMap { layer in
                guard layer.needsMetadata, let form = layer.form else { return nil }
                return FormSubject(layer: layer, form: form)
            }
        }
    }

    /// The fields a new feature must have a value for (non-nullable, no default, not maintained by the service,
    /// not the geometry, not the key of a many-to-one relationship the app fills by choosing the related
    /// record), on a form-enabled, service-backed layer that can add. Empty otherwise.
    func requiredNewFeatureFields(in context: MapContext) -> [FieldDefinition] {
        guard form.isEnabled, layer.isServiceBacked, layer.capabilities.canAdd, let table = layer.table else { return [] }
        let chosenKeys = context.behavior.relationships(of: layer)
            .filter { $0.kind == .manyToOne && $0.isUsed }
            .compactMap(\.relationship.keyField)
        return table.fields.filter { field in
            !field.nullable && field.defaultValue == nil && field.editable && field.type != .geometry
                && !table.isSystemMaintained(field) && !chosenKeys.contains { $0.equalsIgnoringCase(field.name) }
        }
    }

    /// Whether an element is never visible: its own or its group's visibility expression is constantly false.
    func isNeverVisible(_ element: FormFieldElement) -> Bool {
        form.constantValue(of: element.element.visibilityExpression) == false
            || form.constantValue(of: element.group?.visibilityExpression) == false
    }

    /// Whether a new feature can get a value in this element: the crew can edit it, or the app calculates it.
    func canGetValueOnInsert(_ element: FormFieldElement) -> Bool {
        guard element.allowsEditsOnInsert else { return false }
        let editable = form.constantValue(of: element.element.editableExpression)
        let hasValue = element.element.valueExpression != nil
        let canCalculate = hasValue && editable != true
        let canEdit = element.element.editable != false && editable != false && !(element.element.editableExpression == nil && hasValue)
        return canEdit || canCalculate
    }
}

/// Example maps for the form/ rules: the Trees layer with a form, and a snapshot whose Trees layer has fields
/// of several types.
enum FormExamples {
    /// A web map with the Trees layer whose `formInfo` has `elements` (JSON, comma-separated) and expression
    /// infos `expressions`; `formExtra` adds members to `formInfo`, `fieldInfos` are the pop-up's, `tables`
    /// the map's tables (JSON, comma-separated).
    static func map(elements: String, expressions: String = "", formExtra: String = "",
                    fieldInfos: String = #"{"fieldName": "Address", "label": "Address", "visible": true}"#, tables: String = "") -> String {
        """
        {
          "operationalLayers": [
            {
              "id": "Trees_1234",
              "title": "Trees",
              "layerType": "ArcGISFeatureLayer",
              "url": "\(Examples.treesURL)",
              "popupInfo": {"title": "{Address}", "fieldInfos": [\(fieldInfos)], "popupElements": [{"type": "fields"}, {"type": "attachments"}]},
              "formInfo": {
                "title": "Tree",\(formExtra.isEmpty ? "" : "\n        " + formExtra + ",")
                "expressionInfos": [\(expressions)],
                "formElements": [
                  \(elements)
                ]
              }
            }
          ],
          "tables": [\(tables)],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """
    }

    /// An expression info (JSON).
    static func expression(_ name: String, _ source: String, returnType: String? = "boolean") -> String {
        #"{"name": "\#(name)", "title": "\#(name)", "expression": \#(JSONText.string(source))\#(returnType.map { #", "returnType": "\#($0)""# } ?? "")}"#
    }

    /// The Trees layer's extra fields: DBH (Double), Planted (Date), Wires (String, 2 codes), Species_ID (Integer).
    static let extraFields = """
        {"name": "DBH", "type": "esriFieldTypeDouble", "alias": "DBH", "nullable": true, "editable": true},
              {"name": "Planted", "type": "esriFieldTypeDate", "alias": "Planted", "nullable": true, "editable": true},
              {"name": "Wires", "type": "esriFieldTypeString", "alias": "Wires", "nullable": true, "editable": true, "length": 1,
               "domain": {"type": "codedValue", "name": "YesNo", "codedValues": [{"name": "Yes", "code": "Y"}, {"name": "No", "code": "N"}]}},
              {"name": "Species_ID", "type": "esriFieldTypeInteger", "alias": "Species", "nullable": true, "editable": true},
              {"name": "created_user", "type": "esriFieldTypeString", "alias": "Created by", "nullable": true, "editable": false, "length": 255}
        """

    static let snapshot = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: extraFields)])

    /// Trees with a required `Species` field (non-nullable, no default).
    static let requiredSnapshot = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: extraFields + """
        ,
              {"name": "Species", "type": "esriFieldTypeString", "alias": "Species", "nullable": false, "editable": true, "length": 50}
        """)])

    /// Trees related to an Inspections table (id 2, one-to-many) and a Permits table (id 3, many-to-many).
    static let relatedSnapshot = Examples.snapshot([
        Examples.treesURL: Examples.treesLayer(extraFields: extraFields, extra: """
            "relationships": [{"id": 1, "name": "Trees_Inspections", "relatedTableId": 2, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": false},
                                  {"id": 2, "name": "Trees_Permits", "relatedTableId": 3, "cardinality": "esriRelCardinalityManyToMany", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": false}]
            """),
        inspectionsURL: """
            {"id": 2, "name": "Inspections", "type": "Table", "objectIdField": "OBJECTID", "capabilities": "Create,Query,Update,Delete,Editing",
             "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID", "nullable": false, "editable": false},
                        {"name": "Tree_GlobalID", "type": "esriFieldTypeGUID", "alias": "Tree", "nullable": true, "editable": true}],
             "relationships": [{"id": 1, "name": "Trees_Inspections", "relatedTableId": 0, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleDestination", "keyField": "Tree_GlobalID", "composite": false}]}
            """,
    ])

    static let inspectionsURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer/2"

    /// The Inspections table of `relatedSnapshot` in a map, pop-up enabled.
    static let inspectionsTable = #"{"id": "Inspections_1", "title": "Inspections", "url": "\#(inspectionsURL)", "popupInfo": {"title": "Inspection", "fieldInfos": [{"fieldName": "Tree_GlobalID", "label": "Tree", "visible": true}]}}"#
}
