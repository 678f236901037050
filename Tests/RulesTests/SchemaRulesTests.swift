import Testing
import Rules
import WebMap

/// Lints `text` as an explicitly named file with the default configuration (and `rules` from the command line).
private func diagnostics(_ text: String, rules: [String: RuleSetting] = [:]) throws -> [Diagnostic] {
    var options = LintOptions()
    options.configuration = .default
    options.useDefaultSnapshots = false
    options.commandLineRules = rules
    let report = try Linter(options: options).lint(path: "/tmp/x.json", text: SourceText(string: text), isExplicit: true)
    return (report?.diagnostics ?? []).filter { $0.ruleId == "schema/invalid" }
}

@Suite struct SchemaRulesTests {
    static let typo = """
        {
          "operationalLayers": [
            {"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeaturelayer",
             "url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/0"}
          ],
          "baseMap": {"title": "Topographic", "baseMapLayers": []}
        }
        """

    @Test func aMisspelledLayerTypeIsReportedWhereItIsWithASuggestion() throws {
        let found = try diagnostics(Self.typo)
        #expect(found.count == 1)
        let diagnostic = try #require(found.first)
        #expect(diagnostic.pointer == "/operationalLayers/0/layerType")
        #expect((diagnostic.line, diagnostic.column) == (3, 57))
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.contains("layerType must be one of ArcGISFeatureLayer, GroupLayer"))
        #expect(diagnostic.message.contains("found 'ArcGISFeaturelayer'. Did you mean 'ArcGISFeatureLayer'?"))
        #expect(diagnostic.message.hasSuffix("(enum)"))
        #expect(diagnostic.layer == LayerReference(id: "Trees_1234", title: "Trees"))
    }

    @Test func eachViolationIsOneDiagnostic() throws {
        let text = """
            {"operationalLayers": [
              {"id": "a", "layerType": "ArcGISFeatureLayer", "url": "https://h/arcgis/rest/services/A/FeatureServer/0", "visibility": "yes"},
              {"id": "b", "layerType": "ArcGISFeatureLayer", "url": "https://h/arcgis/rest/services/A/FeatureServer/1", "opacity": 2}
            ], "baseMap": {"baseMapLayers": []}}
            """
        let found = try diagnostics(text)
        #expect(found.map(\.pointer) == ["/operationalLayers/0/visibility", "/operationalLayers/1/opacity"])
        #expect(found.map(\.layer?.id) == ["a", "b"])
    }

    @Test func inlineFeaturesAreCheckedToo() throws {
        // The same violations `maprules validate` finds: lint keeps inline feature sets of ordinary files.
        let text = """
            {"operationalLayers": [
              {"id": "inline", "layerType": "ArcGISFeatureLayer", "featureCollection": {"layers": [
                {"layerDefinition": {"geometryType": "esriGeometryPoint", "fields": []},
                 "featureSet": {"geometryType": "esriGeometryPoint", "features": [
                   {"attributes": {"a": 1}, "geometry": {"x": 1.5, "y": -2.25}},
                   {"attributes": "none", "geometry": 5}
                 ]}}]}}
            ], "baseMap": {"baseMapLayers": []}}
            """
        let found = try diagnostics(text)
        let features = "/operationalLayers/0/featureCollection/layers/0/featureSet/features/1"
        #expect(found.map(\.pointer) == [features + "/attributes", features + "/geometry"])
        #expect(found.first?.line == 6 && found.first?.column == 23)
    }

    @Test func theItemWrapperKeepsFilePointers() throws {
        let text = #"{"item": {"id": "8d1a", "title": "Trees"}, "itemData": \#(Self.typo)}"#
        let found = try diagnostics(text)
        #expect(found.map(\.pointer) == ["/itemData/operationalLayers/0/layerType"])
    }

    @Test func popupDefinitionFilesAreCheckedAgainstThePopupSchema() throws {
        let text = #"{"title": "{Address}", "fieldInfos": [{"fieldName": "Address", "visible": "true"}], "popupElements": [{"type": "feilds"}]}"#
        let found = try diagnostics(text)
        #expect(found.map(\.pointer) == ["/fieldInfos/0/visible", "/popupElements/0/type"])
        #expect(found.last?.message.contains("Did you mean 'fields'?") == true)
    }

    @Test func theRuleCanBeTurnedOff() throws {
        #expect(try diagnostics(Self.typo, rules: ["schema/invalid": .off]).isEmpty)
        #expect(try diagnostics(Self.typo, rules: ["schema/invalid": .severity(.warning)]).map(\.severity) == [.warning])
    }

    @Test func cleanMapsHaveNoSchemaDiagnostics() throws {
        #expect(try diagnostics(Examples.map()).isEmpty)
    }
}
