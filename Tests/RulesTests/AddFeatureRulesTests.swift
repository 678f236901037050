import Testing
import Rules
import WebMap

/// add-feature/ rules beyond their own examples: which layers count, positions, messages.
@Suite struct AddFeatureRulesTests {
    static let parksURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer/2"
    static let speciesURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer/1"
    static let inspectionsURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer/3"

    static func lint(_ map: String, services: String?, rule: String) -> [Diagnostic] {
        ExampleRunner.diagnostics(for: .document(map, services: services)).filter { $0.ruleId == rule }
    }

    /// `Examples.map` with more operational layers after Trees and optional tables.
    static func map(trees: String = Examples.map(), layers: [String] = [], tables: [String] = []) -> String {
        var text = trees
        if !layers.isEmpty {
            text = text.replacingOccurrences(of: "\n  ],\n  \"baseMap\"", with: ",\n" + layers.joined(separator: ",\n") + "\n  ],\n  \"baseMap\"")
        }
        if !tables.isEmpty {
            text = text.replacingOccurrences(of: "\"baseMap\":", with: "\"tables\": [" + tables.joined(separator: ", ") + "],\n  \"baseMap\":")
        }
        return text
    }

    static let parksLayer = """
        {"id": "Parks_9", "title": "Parks", "layerType": "ArcGISFeatureLayer", "url": "\(parksURL)",
         "popupInfo": {"title": "{Address}", "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]}}
        """

    static func inspectionsTable(popup: Bool = true) -> String {
        """
        {"id": "Inspections_3", "title": "Inspections", "url": "\(inspectionsURL)"\(popup ? #", "popupInfo": {"title": "{Notes}", "fieldInfos": [{"fieldName": "Notes", "label": "Notes", "visible": true, "isEditable": true}]}"# : "")}
        """
    }

    static let inspectionsMetadata = """
        {"id": 3, "name": "Inspections", "type": "Table", "objectIdField": "OBJECTID", "capabilities": "Create,Query,Update",
         "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "Notes", "type": "esriFieldTypeString"}]}
        """

    // MARK: none-eligible

    @Test func noneEligibleNamesEachEditableLayerAndItsFailures() throws {
        let services = Examples.snapshot([
            Examples.treesURL: Examples.treesLayer(capabilities: "Query,Update"),
            Self.parksURL: Examples.treesLayer(geometryType: "esriGeometryPolygon"),
        ])
        let map = Self.map(trees: Examples.map(layerExtra: #""disablePopup": true"#), layers: [Self.parksLayer])
        let found = Self.lint(map, services: services, rule: "add-feature/none-eligible")
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.pointer == "/operationalLayers")
        #expect(diagnostic.line == 2 && diagnostic.column == 24)
        #expect(diagnostic.layer == nil)
        #expect(diagnostic.severity == .info)
        #expect(diagnostic.message.contains(
            "layer 'Trees' (id Trees_1234): its capabilities do not include Create and it is not pop-up enabled"))
        #expect(diagnostic.message.contains("layer 'Parks' (id Parks_9): its geometry is not point"))
        #expect(diagnostic.message.contains("2 layers"))
    }

    @Test func noneEligibleIsQuietWhenOneLayerIsEligible() {
        let services = Examples.snapshot([
            Examples.treesURL: Examples.treesLayer(),
            Self.parksURL: Examples.treesLayer(geometryType: "esriGeometryPolygon"),
        ])
        #expect(Self.lint(Self.map(layers: [Self.parksLayer]), services: services, rule: "add-feature/none-eligible").isEmpty)
    }

    @Test func tablesDoNotCountAsEditableLayers() {
        let services = Examples.snapshot([
            Examples.treesURL: Examples.treesLayer(capabilities: "Query"),
            Self.inspectionsURL: Self.inspectionsMetadata,
        ])
        let map = Self.map(tables: [Self.inspectionsTable()])
        #expect(Self.lint(map, services: services, rule: "add-feature/none-eligible").isEmpty)
    }

    @Test func layersWithoutMetadataAreNotEditableLayers() {
        #expect(Self.lint(Examples.map(layerExtra: #""disablePopup": true"#), services: nil, rule: "add-feature/none-eligible").isEmpty)
    }

    @Test func noneEligibleUsesTheItemWrapperPointer() {
        let map = "{\"item\": {\"title\": \"Trees\", \"id\": \"abc\"}, \"itemData\": "
            + Examples.map(layerExtra: #""disablePopup": true"#) + "}"
        let found = Self.lint(map, services: Examples.treesSnapshot, rule: "add-feature/none-eligible")
        #expect(found.map(\.pointer) == ["/itemData/operationalLayers"])
    }

    // MARK: popup-disabled

    @Test func popupDisabledIsReportedAtDisablePopup() throws {
        let found = Self.lint(Examples.map(layerExtra: #""disablePopup": true"#), services: Examples.treesSnapshot,
                              rule: "add-feature/popup-disabled")
        let diagnostic = try #require(found.first)
        #expect(diagnostic.pointer == "/operationalLayers/0/disablePopup")
        #expect(diagnostic.line == 8 && diagnostic.column == 23)
        #expect(diagnostic.message.contains("'Trees' (id Trees_1234)"))
    }

    @Test func missingPopupIsReportedAtTheLayer() throws {
        let map = """
            {"operationalLayers": [{"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "url": "\(Examples.treesURL)"}],
             "baseMap": {"title": "Topographic", "baseMapLayers": []}}
            """
        let found = Self.lint(map, services: Examples.treesSnapshot, rule: "add-feature/popup-disabled")
        let diagnostic = try #require(found.first)
        #expect(diagnostic.pointer == "/operationalLayers/0")
        #expect(diagnostic.message.contains("no `popupInfo`"))
    }

    @Test func popupDisabledNeedsEveryOtherCondition() {
        let polygon = Examples.snapshot([Examples.treesURL: Examples.treesLayer(geometryType: "esriGeometryPolygon")])
        #expect(Self.lint(Examples.map(layerExtra: #""disablePopup": true"#), services: polygon, rule: "add-feature/popup-disabled").isEmpty)
        let inline = """
            {"operationalLayers": [{"id": "Sketch_1", "title": "Sketch", "layerType": "ArcGISFeatureLayer", "disablePopup": true,
              "featureCollection": {"layers": [{"layerDefinition": {"type": "Feature Layer", "geometryType": "esriGeometryPoint",
                "capabilities": "Create,Query,Update,Editing", "fields": []}, "popupInfo": {"title": "x"}}]}}],
             "baseMap": {"title": "Topographic", "baseMapLayers": []}}
            """
        #expect(Self.lint(inline, services: nil, rule: "add-feature/popup-disabled").isEmpty)
        #expect(Self.lint(inline, services: nil, rule: "add-feature/none-eligible").isEmpty)
    }

    // MARK: not-point

    @Test func notPointNamesTheGeometryAtTheLayer() throws {
        let services = Examples.snapshot([Examples.treesURL: Examples.treesLayer(geometryType: "esriGeometryPolyline")])
        let diagnostic = try #require(Self.lint(Examples.map(), services: services, rule: "add-feature/not-point").first)
        #expect(diagnostic.pointer == "/operationalLayers/0")
        #expect(diagnostic.message.contains("polyline"))
    }

    @Test func notPointNeedsAKnownGeometryAndAnEnabledPopup() {
        let unknown = Examples.snapshot([Examples.treesURL: Examples.treesLayer(geometryType: "esriGeometryCircle")])
        #expect(Self.lint(Examples.map(), services: unknown, rule: "add-feature/not-point").isEmpty)
        let polygon = Examples.snapshot([Examples.treesURL: Examples.treesLayer(geometryType: "esriGeometryPolygon")])
        #expect(Self.lint(Examples.map(layerExtra: #""disablePopup": true"#), services: polygon, rule: "add-feature/not-point").isEmpty)
    }

    // MARK: required-field-not-editable

    static func trees(requiredField: String, extra: String = "") -> String {
        Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: requiredField, extra: extra)])
    }

    static let species = #"{"name": "Species", "type": "esriFieldTypeString", "alias": "Tree species", "nullable": false, "editable": true}"#

    @Test func requiredFieldShownButNotEditable() throws {
        let map = Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                      {"fieldName": "SPECIES", "label": "Species", "visible": true, "isEditable": false}
            """)
        let found = Self.lint(map, services: Self.trees(requiredField: Self.species), rule: "add-feature/required-field-not-editable")
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.pointer == "/operationalLayers/0/popupInfo/fieldInfos/1/fieldName")
        #expect(diagnostic.message.contains("'Species' (alias 'Tree species')"))
        #expect(diagnostic.message.contains("not editable"))
        #expect(diagnostic.message.contains("a new feature can never be saved"))
        #expect(diagnostic.severity == .error)
    }

    @Test func requiredFieldListedCaseInsensitivelyAndEditableIsFine() {
        let map = Examples.map(fieldInfos: #"{"fieldName": "species", "label": "Species", "visible": true, "isEditable": true}"#)
        #expect(Self.lint(map, services: Self.trees(requiredField: Self.species), rule: "add-feature/required-field-not-editable").isEmpty)
    }

    @Test func requiredFieldReasonPrefersTheVisibleEntry() throws {
        let map = Examples.map(fieldInfos: """
            {"fieldName": "Species", "label": "Species", "visible": false, "isEditable": false},
                      {"fieldName": "Species", "label": "Species", "visible": true, "isEditable": false}
            """)
        let found = Self.lint(map, services: Self.trees(requiredField: Self.species), rule: "add-feature/required-field-not-editable")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/fieldInfos/1/fieldName"])
    }

    @Test func requiredFieldOfAnUneditableTypeIsReported() throws {
        let key = #"{"name": "TreeKey", "type": "esriFieldTypeGUID", "alias": "Tree key", "nullable": false, "editable": true}"#
        let map = Examples.map(fieldInfos: #"{"fieldName": "TreeKey", "label": "Key", "visible": true, "isEditable": true}"#)
        let found = Self.lint(map, services: Self.trees(requiredField: key), rule: "add-feature/required-field-not-editable")
        #expect(try #require(found.first).message.contains("cannot edit GUID fields"))
    }

    @Test func systemMaintainedAndDefaultedFieldsAreExempt() {
        let fields = """
            {"name": "Creator", "type": "esriFieldTypeString", "nullable": false, "editable": true},
                  {"name": "Planted", "type": "esriFieldTypeDate", "nullable": false, "editable": true, "defaultValue": 0},
                  {"name": "Ward", "type": "esriFieldTypeString", "nullable": false, "editable": false},
                  {"name": "Shape", "type": "esriFieldTypeGeometry", "nullable": false, "editable": true}
            """
        let services = Self.trees(requiredField: fields, extra: #""editFieldsInfo": {"creatorField": "creator"}"#)
        #expect(Self.lint(Examples.map(), services: services, rule: "add-feature/required-field-not-editable").isEmpty)
    }

    @Test func requiredFieldsOnlyMatterOnEligibleLayers() {
        let services = Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Query,Update", extraFields: Self.species)])
        #expect(Self.lint(Examples.map(), services: services, rule: "add-feature/required-field-not-editable").isEmpty)
        #expect(Self.lint(Examples.map(layerExtra: #""disablePopup": true"#), services: Self.trees(requiredField: Self.species),
                          rule: "add-feature/required-field-not-editable").isEmpty)
    }

    @Test func keyOfAUsedManyToOneRelationshipIsSetByChoosingTheRecord() {
        let key = #"{"name": "Species_ID", "type": "esriFieldTypeInteger", "nullable": false, "editable": true}"#
        let relationship = """
            "relationships": [{"id": 0, "name": "Species", "relatedTableId": 1, "cardinality": "esriRelCardinalityOneToMany",
                               "role": "esriRelRoleDestination", "keyField": "Species_ID", "composite": true}]
            """
        let speciesTable = """
            {"id": 1, "name": "Species", "type": "Table", "objectIdField": "OBJECTID", "capabilities": "Query",
             "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "Species_ID", "type": "esriFieldTypeInteger"}]}
            """
        let services = Examples.snapshot([
            Examples.treesURL: Examples.treesLayer(extraFields: key, extra: relationship),
            Self.speciesURL: speciesTable,
        ])
        let withTable = Self.map(tables: [#"{"id": "Species_1", "title": "Species", "url": "\#(Self.speciesURL)", "popupInfo": {"title": "{Species_ID}", "fieldInfos": [{"fieldName": "Species_ID", "label": "Id", "visible": true}]}}"#])
        #expect(Self.lint(withTable, services: services, rule: "add-feature/required-field-not-editable").isEmpty)
        let found = Self.lint(Examples.map(), services: services, rule: "add-feature/required-field-not-editable")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/fieldInfos"])
        #expect(found.first?.message.contains("does not list it") == true)
    }
}
