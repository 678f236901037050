import Foundation
import Testing
import Rules
import WebMap

/// The related/ rules beyond their examples: which table counts as the related one, which finding wins,
/// and exactly where and how each is reported.
@Suite struct RelatedRulesTests {
    typealias E = RelatedExamples

    static let relatedIds = RuleCatalog.allIds.filter { $0.hasPrefix("related/") }

    func lint(_ map: String, services: String = E.snapshot()) -> [Diagnostic] {
        ExampleRunner.diagnostics(for: .document(map, services: services))
    }

    func findings(_ id: String, _ map: String, services: String = E.snapshot()) -> [Diagnostic] {
        lint(map, services: services).filter { $0.ruleId == id }
    }

    func related(_ diagnostics: [Diagnostic]) -> [Diagnostic] { diagnostics.filter { $0.ruleId.hasPrefix("related/") } }

    static func treesMetadata(_ relationships: String...) -> String { E.treesMetadata(relationships: relationships) }

    // MARK: The examples themselves

    @Test(arguments: RuleCatalog.allIds.filter { $0.hasPrefix("related/") || $0.hasPrefix("attachments/") })
    func examplesParseAndResolve(id: String) throws {
        let rule = try #require(RuleCatalog.rule(id: id))
        for example in rule.description.triggeringExamples + rule.description.nonTriggeringExamples {
            let found = ExampleRunner.diagnostics(for: example)
                .filter { $0.ruleId.hasPrefix("json/") || $0.ruleId.hasPrefix("schema/") || $0.ruleId == "map/unresolved-layer" }
            #expect(found.isEmpty, "\(id): \(found.map(\.message))")
        }
    }

    @Test func theReferenceMapIsClean() {
        #expect(related(lint(E.map())).isEmpty)
    }

    // MARK: related/table-missing

    @Test func missingTableIsReportedAtTheLayerNamingRelationshipAndURL() throws {
        let found = findings("related/table-missing", E.map(tables: [E.speciesTable()]))
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.pointer == "/operationalLayers/0")
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.layer?.id == "Trees_1234")
        #expect(diagnostic.message.contains("Layer 'Trees' (id Trees_1234)"))
        #expect(diagnostic.message.contains("one-to-many relationship 'Trees_Inspections' (id 1)"))
        #expect(diagnostic.message.contains("\(E.serviceURL)/3"))
    }

    @Test func tableOfAnotherServiceWithTheSameLayerIdCountsAsMissing() throws {
        let parksInspections = "https://example.com/arcgis/rest/services/Parks/FeatureServer/3"
        let services = Examples.snapshot([E.treesURL: E.treesMetadata(), E.speciesURL: E.speciesMetadata(),
                                          parksInspections: E.inspectionsMetadata()])
        let found = findings("related/table-missing", E.map(tables: [E.speciesTable(), E.inspectionsTable(url: parksInspections)]),
                             services: services)
        // Trees' inspections are missing, and so is the Parks table's own tree (Parks layer 0).
        #expect(found.map(\.pointer) == ["/operationalLayers/0", "/tables/1"])
        #expect(found.first?.message.contains("'Trees_Inspections'") == true)
        #expect(found.first?.message.contains("\(E.serviceURL)/3") == true)
        #expect(found.last?.message.contains("https://example.com/arcgis/rest/services/Parks/FeatureServer/0") == true)
    }

    @Test func serviceURLsCompareWithoutRegardToHostCaseOrTrailingSlash() {
        let url = "https://EXAMPLE.com/arcgis/rest/services/Trees/FeatureServer/3/"
        let services = Examples.snapshot([E.treesURL: E.treesMetadata(), E.speciesURL: E.speciesMetadata(), url: E.inspectionsMetadata()])
        #expect(related(lint(E.map(tables: [E.speciesTable(), E.inspectionsTable(url: url)]), services: services)).isEmpty)
    }

    @Test func relatedTableMayBeAnOperationalLayer() {
        // The related table listed among operational layers rather than `tables` still counts.
        let map = E.map(trees: E.treesLayer() + ",\n    " + E.inspectionsTable(), tables: [E.speciesTable()])
        #expect(related(lint(map)).isEmpty)
    }

    @Test func inlineCollectionWithTheRelatedURLIsNotTheRelatedTable() {
        let inline = #"""
            {"id": "Inspections_copy", "title": "Inspections (copy)", "layerType": "ArcGISFeatureLayer", "url": "\#(E.inspectionsURL)",
             "featureCollection": {"layers": [{"layerDefinition": {"name": "Inspections", "type": "Table", "objectIdField": "OBJECTID",
               "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "Condition", "type": "esriFieldTypeString"}]},
               "featureSet": {"features": []},
               "popupInfo": {"title": "{Condition}", "fieldInfos": [{"fieldName": "Condition", "label": "Condition", "visible": true}]}}]}}
            """#
        let found = findings("related/table-missing", E.map(trees: E.treesLayer() + ",\n    " + inline, tables: [E.speciesTable()]))
        #expect(found.count == 1)
    }

    @Test func unresolvedPlaceholderURLMayBeTheRelatedTable() {
        let map = E.map(tables: [E.speciesTable(), E.inspectionsTable(url: "https://{{ host }}/arcgis/rest/services/Trees/FeatureServer/3")])
        #expect(findings("related/table-missing", map).isEmpty)
    }

    @Test func relatedRecordsInfoIsTheMoreSpecificPlace() {
        let trees = E.treesLayer(extraPopup: #""relatedRecordsInfo": {"showRelatedRecords": true}"#)
        let found = findings("related/table-missing", E.map(trees: trees, tables: [E.speciesTable()]))
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/relatedRecordsInfo"])
    }

    @Test func layersThatAreNotPopupEnabledAreNotChecked() {
        let noPopup = E.map(trees: E.treesLayer(popup: false), tables: [])
        let disabled = E.map(trees: E.treesLayer(layerExtra: #""disablePopup": true"#), tables: [])
        let composite = Self.treesMetadata(E.speciesRelationship(composite: true), E.inspectionsRelationship)
        #expect(related(lint(noPopup, services: E.snapshot(trees: composite))).isEmpty)
        #expect(related(lint(disabled, services: E.snapshot(trees: composite))).isEmpty)
    }

    @Test func unresolvedLayerHasNoRelationships() {
        #expect(related(lint(E.map(tables: []), services: E.snapshot(trees: nil))).isEmpty)
    }

    // MARK: related/table-popup-disabled

    @Test func popupDisabledTableSaysWhy() throws {
        let noPopup = try #require(findings("related/table-popup-disabled", E.map(tables: [E.speciesTable(), E.inspectionsTable(popup: false)])).first)
        #expect(noPopup.message.contains("table 'Inspections' (id Inspections_3456)"))
        #expect(noPopup.message.contains("no popupInfo"))
        #expect(noPopup.pointer == "/operationalLayers/0")
        let disabled = findings("related/table-popup-disabled",
                                E.map(tables: [E.speciesTable(layerExtra: #""disablePopup": true"#), E.inspectionsTable()]))
        #expect(disabled.count == 1)
        #expect(disabled.first?.message.contains("many-to-one relationship 'Species_Trees' (id 0)") == true)
        #expect(disabled.first?.message.contains("disablePopup is true") == true)
    }

    @Test func aPopupEnabledCopyOfTheTableIsEnough() {
        // The first copy has no pop-up, the second has one: the relationship is used.
        let map = E.map(tables: [E.speciesTable(), E.inspectionsTable(popup: false), E.inspectionsTable()])
        #expect(findings("related/table-popup-disabled", map).isEmpty)
    }

    // MARK: related/unsupported-cardinality

    @Test func manyToManyIsInfoAndNotAlsoMissing() throws {
        let permits = #"{"id": 2, "name": "Trees_Permits", "relatedTableId": 4, "cardinality": "esriRelCardinalityManyToMany", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": false}"#
        let found = related(lint(E.map(), services: E.snapshot(trees: Self.treesMetadata(E.speciesRelationship(), E.inspectionsRelationship, permits))))
        let diagnostic = try #require(found.first)
        #expect(found.map(\.ruleId) == ["related/unsupported-cardinality"])
        #expect(diagnostic.severity == .info)
        #expect(diagnostic.message.contains("relationship 'Trees_Permits' (id 2)"))
        #expect(diagnostic.message.contains("many-to-many"))
    }

    // MARK: related/composite-unselectable

    @Test func compositeManyToOneToADisabledTableIsOneError() throws {
        let services = E.snapshot(trees: Self.treesMetadata(E.speciesRelationship(composite: true), E.inspectionsRelationship))
        let map = E.map(tables: [E.speciesTable(layerExtra: #""disablePopup": true"#), E.inspectionsTable()])
        let found = related(lint(map, services: services))
        let diagnostic = try #require(found.first)
        #expect(found.map(\.ruleId) == ["related/composite-unselectable"])
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.pointer == "/operationalLayers/0")
        #expect(diagnostic.message.contains("composite many-to-one relationship 'Species_Trees' (id 0)"))
        #expect(diagnostic.message.contains("table 'Species' (id Species_2345)"))
        #expect(diagnostic.message.contains("disablePopup is true"))
    }

    @Test func compositeManyToOneToAMissingTableReplacesTableMissing() {
        let services = E.snapshot(trees: Self.treesMetadata(E.speciesRelationship(composite: true), E.inspectionsRelationship))
        let found = related(lint(E.map(tables: [E.inspectionsTable()]), services: services))
        #expect(found.map(\.ruleId) == ["related/composite-unselectable"])
        #expect(found.first?.message.contains("\(E.serviceURL)/2") == true)
    }

    @Test func compositeOneToManyIsNotUnselectable() {
        // Seen from the origin, a composite relationship asks nothing of a new record.
        let composite = #"{"id": 1, "name": "Trees_Inspections", "relatedTableId": 3, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": true}"#
        let found = related(lint(E.map(tables: [E.speciesTable()]), services: E.snapshot(trees: Self.treesMetadata(E.speciesRelationship(), composite))))
        #expect(found.map(\.ruleId) == ["related/table-missing"])
    }

    // MARK: related/unsortable-key

    static let guidFirst = """
        {"fieldName": "TreeGlobalID", "label": "Tree", "visible": true}, \
        {"fieldName": "CollectedDate", "label": "Collected", "visible": true, "isEditable": true}
        """

    @Test func unsortableKeyIsAtTheRelatedTablesFieldName() throws {
        let found = findings("related/unsortable-key", E.map(tables: [E.speciesTable(), E.inspectionsTable(fieldInfos: Self.guidFirst)]))
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.pointer == "/tables/1/popupInfo/fieldInfos/0/fieldName")
        #expect(diagnostic.layer?.id == "Inspections_3456")
        #expect(diagnostic.message.contains("Table 'Inspections' (id Inspections_3456)"))
        #expect(diagnostic.message.contains("'Trees' (id Trees_1234)"))
        #expect(diagnostic.message.contains("'TreeGlobalID' (alias 'Tree'), a GUID field"))
        #expect(diagnostic.message.contains("such as 'CollectedDate' (alias 'Collected Date')"))
    }

    @Test(arguments: [("esriFieldTypeBigInteger", true), ("esriFieldTypeDateOnly", true), ("esriFieldTypeTimestampOffset", true),
                      ("esriFieldTypeOID", true), ("esriFieldTypeSmallInteger", false), ("esriFieldTypeInteger", false),
                      ("esriFieldTypeSingle", false), ("esriFieldTypeDouble", false), ("esriFieldTypeString", false),
                      ("esriFieldTypeDate", false)])
    func sortableTypes(type: String, fires: Bool) {
        let inspections = E.inspectionsMetadata().replacingOccurrences(
            of: #""name": "DBH", "type": "esriFieldTypeDouble""#, with: #""name": "DBH", "type": "\#(type)""#)
        let map = E.map(tables: [E.speciesTable(), E.inspectionsTable(fieldInfos: #"{"fieldName": "DBH", "label": "DBH", "visible": true}"#)])
        #expect(findings("related/unsortable-key", map, services: E.snapshot(inspections: inspections)).isEmpty != fires)
    }

    @Test func expressionFirstIsUnsortable() throws {
        let fieldInfos = #"{"fieldName": "expression/age", "label": "Age", "visible": true}, "# + E.defaultInspectionFieldInfos
        let table = E.inspectionsTable(fieldInfos: fieldInfos).replacingOccurrences(
            of: #""fieldInfos""#, with: #""expressionInfos": [{"name": "age", "expression": "DateDiff(Now(), $feature.CollectedDate, 'days')"}], "fieldInfos""#)
        let diagnostic = try #require(findings("related/unsortable-key", E.map(tables: [E.speciesTable(), table])).first)
        #expect(diagnostic.message.contains("expression 'age'"))
    }

    @Test func manyToOneTablesAreNotSorted() {
        // Species is a many-to-one record of Trees: shown alone, never sorted.
        let species = E.speciesTable().replacingOccurrences(of: #""fieldName": "CommonName""#, with: #""fieldName": "OBJECTID""#)
        #expect(findings("related/unsortable-key", E.map(tables: [species, E.inspectionsTable()])).isEmpty)
    }

    @Test func unsortableKeyIsReportedOncePerTable() throws {
        let streetTrees = E.treesLayer().replacingOccurrences(of: "Trees_1234", with: "StreetTrees_9")
            .replacingOccurrences(of: #""title": "Trees""#, with: #""title": "Street trees""#)
        let map = E.map(trees: E.treesLayer() + ",\n    " + streetTrees, tables: [E.speciesTable(), E.inspectionsTable(fieldInfos: Self.guidFirst)])
        let found = findings("related/unsortable-key", map)
        #expect(found.count == 1)
        #expect(found.first?.message.contains("layer 'Trees' (id Trees_1234) through relationship 'Trees_Inspections' (id 1)") == true)
        #expect(found.first?.message.contains("'Street trees' (id StreetTrees_9)") == true)
    }

    @Test func relatedTableWithoutMetadataIsNotGuessed() {
        let map = E.map(tables: [E.speciesTable(), E.inspectionsTable(fieldInfos: Self.guidFirst)])
        let found = related(lint(map, services: E.snapshot(inspections: nil)))
        #expect(found.isEmpty)
    }

    // MARK: related/add-not-allowed

    @Test func addNotAllowedNamesTheCapabilities() throws {
        let map = E.map(tables: [E.speciesTable(), E.inspectionsTable(layerExtra: #""layerDefinition": {"capabilities": "Query,Update"}"#)])
        let diagnostic = try #require(findings("related/add-not-allowed", map).first)
        #expect(diagnostic.severity == .info)
        #expect(diagnostic.pointer == "/operationalLayers/0")
        #expect(diagnostic.message.contains("table 'Inspections' (id Inspections_3456)"))
        #expect(diagnostic.message.contains("'Trees_Inspections' (id 1)"))
        #expect(diagnostic.message.contains("capabilities 'Query,Update'"))
    }

    @Test func editingAloneCanAdd() {
        #expect(findings("related/add-not-allowed", E.map(), services: E.snapshot(inspections: E.inspectionsMetadata(capabilities: "Query,Editing"))).isEmpty)
    }

    @Test func manyToOneReadOnlyTableIsFine() {
        // Species (Query only) is many-to-one from a tree: no "Add" row is expected there.
        #expect(findings("related/add-not-allowed", E.map()).isEmpty)
    }

    // MARK: Definitions

    @Test func relatedIndexPrefersAPopupEnabledCopyAndSkipsInlineCollections() throws {
        let text = E.map(tables: [E.speciesTable(), E.inspectionsTable(popup: false), E.inspectionsTable()])
        let root = try JSONParser.parse(text).root
        let document = try #require(WebMapDocument(root: root, source: SourceText(string: text)))
        let trees = LayerMetadata(try JSONParser.parse(E.treesMetadata()).root)
        let behavior = MapBehavior(document: document) { layer in
            layer.url == E.treesURL ? ResolvedMetadata(metadata: trees, source: .snapshot) : nil
        }
        let uses = behavior.relationships(of: behavior.layers[0])
        #expect(uses.map(\.kind) == [.manyToOne, .oneToMany])
        #expect(uses.map(\.relatedIndex) == [1, 3])
        #expect(uses.allSatisfy { $0.isUsed })
    }

    // MARK: Standalone pop-up files

    @Test func standalonePopupReportsNothingAboutTheMap() throws {
        var options = LintOptions()
        options.configuration = .default
        options.useDefaultSnapshots = false
        options.popupLayer = LayerMetadata(try JSONParser.parse(E.treesMetadata()).root)
        let popup = #"{"title": "{Address}", "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]}"#
        let report = try Linter(options: options).lint(path: "/example/popup.json", text: SourceText(string: popup), isExplicit: true)
        let diagnostics = try #require(report).diagnostics
        #expect(related(diagnostics).isEmpty)
    }
}
