import Foundation
import Testing
import WebMap

@Suite struct WebMapDocumentTests {
    func document(_ text: String) throws -> WebMapDocument {
        let source = SourceText(string: text)
        return try #require(WebMapDocument(root: try JSONParser.parse(source).root, source: source))
    }

    @Test func flattensGroupsThenTables() throws {
        let map = try document("""
            {"operationalLayers": [
              {"id": "g", "title": "Group", "layerType": "GroupLayer", "layers": [
                {"id": "a", "layerType": "ArcGISFeatureLayer", "url": "https://h/arcgis/rest/services/S/FeatureServer/0"}]},
              {"id": "b", "layerType": "VectorTileLayer"}],
             "tables": [{"id": "t", "url": "https://h/arcgis/rest/services/S/FeatureServer/3"}]}
            """)
        #expect(map.layers.map(\.id) == ["g", "a", "b", "t"])
        #expect(map.layers[1].pointer.description == "/operationalLayers/0/layers/0")
        #expect(map.layers[1].groupTitles == ["Group"])
        #expect(map.layers.map(\.isServiceBacked) == [false, true, false, true])
        #expect(map.tables.map(\.id) == ["t"])
    }

    @Test func readsTheItemWrapper() throws {
        let map = try document(#"{"item": {"title": "Street trees", "id": "abc"}, "itemData": {"operationalLayers": []}}"#)
        #expect(map.title == "Street trees")
        #expect(map.itemId == "abc")
        #expect(map.mapPointer.description == "/itemData")
    }

    @Test func refusesWhatIsNotAMap() throws {
        for text in ["[]", "{}", #"{"layers": []}"#, "3"] {
            let source = SourceText(string: text)
            #expect(WebMapDocument(root: try JSONParser.parse(source).root, source: source) == nil, "\(text)")
        }
    }

    @Test func normalisesServiceURLs() {
        #expect(ServiceURL.normalize("HTTPS://Services.Example.COM/arcgis/rest/services/A/FeatureServer/0/?token=x")
                == "https://services.example.com/arcgis/rest/services/A/FeatureServer/0")
        #expect(ServiceURL.layerComponents("https://h/x/FeatureServer/12")?.layerId == 12)
        #expect(ServiceURL.isLayerURL("https://h/x/MapServer/0"))
        #expect(!ServiceURL.isLayerURL("https://h/x/FeatureServer"))
        #expect(!ServiceURL.isLayerURL("ftp://h/x/FeatureServer/0"))
        #expect(ServiceURL.carriesSecret("https://h/x/FeatureServer/0?token=abc"))
        #expect(!ServiceURL.carriesSecret("https://h/x/FeatureServer/0?f=json"))
    }

    @Test func substitutesPlaceholdersKeepingOffsets() throws {
        let source = SourceText(string: #"{"url": "{{ portal }}/FeatureServer/0", "other": "{{missing}}"}"#)
        let root = try JSONParser.parse(source).root
        let (result, unresolved) = TemplatePlaceholders.substitute(root, variables: ["portal": "https://h"])
        #expect(result["url"]?.string == "https://h/FeatureServer/0")
        #expect(result["url"]?.offset == root["url"]?.offset)
        #expect(unresolved.map(\.name) == ["missing"])
        #expect(unresolved.first?.pointer.description == "/other")
    }

    @Test func readsServiceMetadata() throws {
        let node = try JSONParser.parse(#"""
            {"id": 0, "type": "Feature Layer", "geometryType": "esriGeometryPoint", "capabilities": "Query, Create",
             "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"},
                        {"name": "Kind", "type": "esriFieldTypeString", "nullable": false,
                         "domain": {"type": "codedValue", "codedValues": [{"name": "A", "code": "a"}]}}],
             "relationships": [{"id": 1, "relatedTableId": 3, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin"}]}
            """#).root
        let layer = LayerMetadata(node)
        #expect(layer.geometryType == .point)
        #expect(layer.capabilities.contains("create"))
        #expect(layer.field(named: "kind")?.nullable == false)
        #expect(layer.objectIdField == "OBJECTID")
        #expect(layer.relationships.first?.cardinality == .oneToMany)
        if case .codedValue(_, let values)? = layer.field(named: "Kind")?.domain { #expect(values.count == 1) } else { Issue.record("no domain") }
    }
}
