import Testing
import Rules
import WebMap

private func diagnostics(_ text: String, services: String? = nil) throws -> [Diagnostic] {
    var options = LintOptions()
    options.configuration = .default
    options.useDefaultSnapshots = false
    if let services {
        options.snapshots = [try ServicesSnapshot(path: "/tmp/x.services.json", root: JSONParser.parse(services).root)]
    }
    let report = try Linter(options: options).lint(path: "/tmp/x.json", text: SourceText(string: text), isExplicit: true)
    return report?.diagnostics ?? []
}

private func snapshot(layerExtra: String) -> String {
    Examples.snapshot([Examples.treesURL: Examples.treesLayer(extra: layerExtra)])
}

@Suite struct LayerRulesTests {
    // MARK: layer/never-visible

    @Test func serviceRangeIsUsedWhenTheMapSetsNone() throws {
        let found = try diagnostics(Examples.map(), services: snapshot(layerExtra: #""minScale": 1000, "maxScale": 2000"#))
            .filter { $0.ruleId == "layer/never-visible" }
        #expect(found.map(\.pointer) == ["/operationalLayers/0"])
        #expect(found.first?.message.contains("1:1,000") == true)
        #expect(found.first?.message.contains("1:2,000") == true)
    }

    @Test func mapOverrideIsReportedAtTheValueThatSetsIt() throws {
        // Only maxScale comes from the map: that is the value to change.
        let found = try diagnostics(Examples.map(layerExtra: #""layerDefinition": {"maxScale": 100000}"#),
                                    services: snapshot(layerExtra: #""minScale": 50000, "maxScale": 0"#))
            .filter { $0.ruleId == "layer/never-visible" }
        #expect(found.map(\.pointer) == ["/operationalLayers/0/layerDefinition/maxScale"])
        #expect(found.first.map { ($0.line, $0.column) } ?? (0, 0) == (8, 39))
    }

    @Test func layerLevelScalesWinAndApplyWithoutMetadata() throws {
        let tiles = """
            {"operationalLayers": [
              {"id": "Hillshade", "layerType": "ArcGISTiledMapServiceLayer", "minScale": 10, "maxScale": 20,
               "url": "https://example.com/arcgis/rest/services/Hillshade/MapServer"}
            ], "baseMap": {}}
            """
        #expect(try diagnostics(tiles).filter { $0.ruleId == "layer/never-visible" }.map(\.pointer) == ["/operationalLayers/0/minScale"])
        let repaired = try diagnostics(Examples.map(layerExtra: #""minScale": 0"#), services: snapshot(layerExtra: #""minScale": 1000, "maxScale": 2000"#))
        #expect(!repaired.contains { $0.ruleId == "layer/never-visible" })
    }

    // MARK: layer/hidden

    @Test func hiddenAppliesToLayersInGroupsButNotToTables() throws {
        let text = """
            {
              "operationalLayers": [
                {"id": "Group_1", "layerType": "GroupLayer", "layers": [
                  {"id": "Hillshade", "layerType": "ArcGISTiledMapServiceLayer", "visibility": false}
                ]}
              ],
              "tables": [{"id": "Species_1", "url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/1", "visibility": false}],
              "baseMap": {}
            }
            """
        let found = try diagnostics(text).filter { $0.ruleId == "layer/hidden" }
        #expect(found.map(\.pointer) == ["/operationalLayers/0/layers/0/visibility"])
        #expect(found.first.map { ($0.line, $0.column, $0.severity) } ?? (0, 0, .error) == (4, 84, .info))
        #expect(found.first?.layer?.id == "Hillshade")
    }

    // MARK: layer/editable-popup-disabled

    @Test func skippedWithoutMetadataAndForReadOnlyOrInlineLayers() throws {
        let disabled = #""disablePopup": true"#
        #expect(try !diagnostics(Examples.map(layerExtra: disabled)).contains { $0.ruleId == "layer/editable-popup-disabled" })
        #expect(try !diagnostics(Examples.map(layerExtra: disabled), services: Examples.snapshot([
            Examples.treesURL: Examples.treesLayer(capabilities: "Query"),
        ])).contains { $0.ruleId == "layer/editable-popup-disabled" })
        let inline = #"""
            {"operationalLayers": [{"id": "Notes_1", "layerType": "ArcGISFeatureLayer", "disablePopup": true,
              "featureCollection": {"layers": [{"layerDefinition": {"geometryType": "esriGeometryPoint", "capabilities": "Create,Update", "fields": []}}]}}],
             "baseMap": {}}
            """#
        #expect(try !diagnostics(inline).contains { $0.ruleId == "layer/editable-popup-disabled" })
    }

    @Test func editableTableWithoutPopup() throws {
        let speciesURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer/1"
        let text = #"{"operationalLayers": [], "tables": [{"id": "Species_1", "title": "Species", "url": "\#(speciesURL)"}], "baseMap": {}}"#
        let services = Examples.snapshot([speciesURL: #"{"id": 1, "name": "Species", "type": "Table", "capabilities": "Query,Update", "fields": []}"#])
        let found = try diagnostics(text, services: services).filter { $0.ruleId == "layer/editable-popup-disabled" }
        #expect(found.map(\.pointer) == ["/tables/0"])
        #expect(found.first?.message.hasPrefix("Table 'Species' (id Species_1) is editable (capabilities Query, Update)") == true)
        #expect(found.first?.metadataSource == .snapshot)
    }
}
