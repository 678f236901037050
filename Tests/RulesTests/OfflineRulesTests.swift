import Foundation
import Testing
import Rules
import WebMap

/// The offline/ rules beyond their examples: when they apply (keyword, applicationProperties.offline,
/// configuration, --offline), connectedOnlineLayers, the plan `maprules inspect` shows, and the layer checks the
/// runtime runs.
@Suite struct OfflineRulesTests {
    static let url = "https://example.com/arcgis/rest/services/Trees/FeatureServer/0"

    static func trees(capabilities: String = "Create,Query,Update,Delete,Editing,Sync", globalIds: Bool = true, extra: String = "") -> String {
        """
        {"id": 0, "name": "Trees", "type": "Feature Layer", "geometryType": "esriGeometryPoint", "objectIdField": "OBJECTID",
         \(globalIds ? #""globalIdField": "GlobalID","# : "") "capabilities": "\(capabilities)", "hasAttachments": true\(extra.isEmpty ? "" : ", " + extra),
         "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"},\(globalIds ? #" {"name": "GlobalID", "type": "esriFieldTypeGlobalID"},"# : "")
                    {"name": "Address", "type": "esriFieldTypeString", "length": 100}]}
        """
    }

    static func snapshot(_ layer: String) -> String { #"{"\#(url)": \#(layer)}"# }

    static let treesLayer = #"{"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "url": "\#(url)", "popupInfo": {"title": "{Address}", "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true}]}}"#

    static func map(layers: String = treesLayer, applicationProperties: String? = nil) -> String {
        """
        {"operationalLayers": [\(layers)], "baseMap": {"title": "Basemap", "baseMapLayers": []},\(applicationProperties.map { " \"applicationProperties\": \($0)," } ?? "") "version": "2.28"}
        """
    }

    func offlineFindings(_ map: String, services: String, offline: Bool = false, configuration: RuleConfiguration = .default) throws -> [Diagnostic] {
        var options = LintOptions()
        var configuration = configuration
        configuration.baseDirectory = "/example"
        options.configuration = configuration
        options.useDefaultSnapshots = false
        options.offline = offline
        options.snapshots = [try ServicesSnapshot(path: "s.json", root: try JSONParser.parse(services).root)]
        let report = try Linter(options: options).lint(path: "/example/map.json", displayPath: "map.json", text: SourceText(string: map), isExplicit: true)
        return (report?.diagnostics ?? []).filter { $0.ruleId.hasPrefix("offline/") }
    }

    @Test func aMapNotMeantForOfflineIsNotCheckedUnlessAsked() throws {
        let noSync = Self.snapshot(Self.trees(capabilities: "Create,Query,Update,Delete,Editing"))
        #expect(try offlineFindings(Self.map(), services: noSync).isEmpty)
        let asked = try offlineFindings(Self.map(), services: noSync, offline: true)
        #expect(asked.map(\.ruleId) == ["offline/sync-disabled"])
        #expect(asked.first?.message.contains("'Trees' (id Trees_1234)") == true)
        #expect(asked.first?.pointer == "/operationalLayers/0")
        var configured = RuleConfiguration()
        configured.offline = true
        #expect(try offlineFindings(Self.map(), services: noSync, configuration: configured).map(\.ruleId) == ["offline/sync-disabled"])
        let marked = try offlineFindings(Self.map(applicationProperties: #"{"offline": {"editableLayers": {"download": "features"}}}"#), services: noSync)
        #expect(marked.map(\.ruleId) == ["offline/sync-disabled"])
    }

    @Test func theItemKeywordMakesAMapOneForOfflineUse() throws {
        let wrapped = #"{"item": {"title": "Trees", "typeKeywords": ["Web Map", "Offline"]}, "itemData": \#(Self.map())}"#
        let noSync = Self.snapshot(Self.trees(capabilities: "Query,Editing"))
        let found = try offlineFindings(wrapped, services: noSync)
        #expect(found.map(\.ruleId) == ["offline/sync-disabled"])
        #expect(found.first?.pointer == "/itemData/operationalLayers/0")
        let withoutKeyword = #"{"item": {"title": "Trees", "typeKeywords": ["Web Map"]}, "itemData": \#(Self.map())}"#
        #expect(try offlineFindings(withoutKeyword, services: noSync).isEmpty)
    }

    @Test func connectedOnlineLayersAreSkipped() throws {
        let wms = #"{"id": "Radar", "title": "Radar", "layerType": "WMS", "url": "https://example.com/wms"}"#
        let services = Self.snapshot(Self.trees(capabilities: "Query,Editing", globalIds: false))
        let all = try offlineFindings(Self.map(layers: Self.treesLayer + "," + wms), services: services, offline: true)
        #expect(Set(all.map(\.ruleId)) == ["offline/sync-disabled", "offline/no-global-ids", "offline/attachments-without-global-ids",
                                           "offline/layer-stays-online"])
        let kept = try offlineFindings(Self.map(layers: Self.treesLayer + "," + wms,
                                                applicationProperties: #"{"offline": {"connectedOnlineLayers": [{"id": "Trees_1234"}, {"id": "Radar"}]}}"#),
                                       services: services)
        #expect(kept.isEmpty, "\(kept)")
    }

    @Test func aReadOnlyLayerWithoutSyncIsNotAnErrorButTheRelationshipKeyIs() throws {
        let readOnly = try offlineFindings(Self.map(), services: Self.snapshot(Self.trees(capabilities: "Query")), offline: true)
        #expect(readOnly.isEmpty)
        let keyed = #""relationships": [{"id": 3, "name": "Inspections", "relatedTableId": 1, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "objectid"}]"#
        let found = try offlineFindings(Self.map(), services: Self.snapshot(Self.trees(extra: keyed)), offline: true)
        #expect(found.map(\.ruleId) == ["offline/relationship-key-not-global-id"])
        #expect(found.first?.severity == .warning)
        #expect(found.first?.message.contains("'Inspections'") == true)
    }

    @Test func thePlanSaysWhatEachLayerDoesOffline() throws {
        let wms = #"{"id": "Radar", "title": "Radar", "layerType": "WMS", "url": "https://example.com/wms"}"#
        let other = #"{"id": "Parks", "title": "Parks", "layerType": "ArcGISFeatureLayer", "url": "https://example.com/arcgis/rest/services/Parks/FeatureServer/0"}"#
        let kept = #"{"id": "Kept", "title": "Kept", "layerType": "ArcGISFeatureLayer", "url": "\#(Self.url)"}"#
        let text = Self.map(layers: [Self.treesLayer, wms, other, kept].joined(separator: ","),
                            applicationProperties: #"{"offline": {"connectedOnlineLayers": [{"id": "Kept"}]}}"#)
        let root = try JSONParser.parse(text).root
        let document = try #require(WebMapDocument(root: root, source: SourceText(string: text)))
        let snapshot = try ServicesSnapshot(path: "s.json", root: try JSONParser.parse(Self.snapshot(Self.trees(capabilities: "Create,Editing"))).root)
        let behavior = MapBehavior(document: document) { MetadataResolver(snapshots: [snapshot]).resolve($0) }
        let plan = OfflinePlan(document: document, behavior: behavior, offlineRequested: false)
        #expect(plan.isChecked)
        #expect(plan.entries.map(\.status.name) == ["cannot", "cannot", "unknown", "stays-online"])
        #expect(plan.entries[0].status.text == "cannot (its capabilities lack Sync)")
        #expect(plan.entries[1].status.reasons.first?.contains("WMS") == true)
    }

    @Test func theRuntimeRunsTheSameLayerRules() throws {
        let table = LayerMetadata(try JSONParser.parse(Self.trees(capabilities: "Create,Update,Editing", globalIds: false)).root)
        let problems = OfflineReadiness.problems(of: [OfflineLayer(serviceLayer: table, id: 0)])
        #expect(problems.map(\.ruleId) == ["offline/sync-disabled", "offline/no-global-ids", "offline/attachments-without-global-ids"])
        #expect(problems.allSatisfy { $0.message.contains("'Trees' (layer 0)") })
        let fine = LayerMetadata(try JSONParser.parse(Self.trees()).root)
        #expect(OfflineReadiness.problems(of: [OfflineLayer(serviceLayer: fine, id: 0)]).isEmpty)
    }
}
