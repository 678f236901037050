import Testing
import Rules
import WebMap

/// Lints `text` as an explicitly named map with the default configuration, the given snapshot and variables.
private func diagnostics(_ text: String, services: String? = nil, variables: [String: String] = [:]) throws -> [Diagnostic] {
    var options = LintOptions()
    options.configuration = .default
    options.useDefaultSnapshots = false
    options.variables = variables
    if let services {
        options.snapshots = [try ServicesSnapshot(path: "/tmp/x.services.json", root: JSONParser.parse(services).root)]
    }
    let report = try Linter(options: options).lint(path: "/tmp/x.json", text: SourceText(string: text), isExplicit: true)
    return report?.diagnostics ?? []
}

private func map(layers: String, tables: String = "[]") -> String {
    """
    {
      "operationalLayers": \(layers),
      "tables": \(tables),
      "baseMap": {"title": "Topographic", "baseMapLayers": []},
      "version": "2.28"
    }
    """
}

private func layer(id: String, url: String, extra: String = "") -> String {
    #"{"id": "\#(id)", "title": "\#(id)", "layerType": "ArcGISFeatureLayer", "url": "\#(url)"\#(extra)}"#
}

@Suite struct MapRulesTests {
    // MARK: map/template-placeholder

    @Test func onePlaceholderDiagnosticPerNameAtFirstUse() throws {
        let text = map(layers: "[" + [
            layer(id: "Trees_1", url: "{{ portal }}/arcgis/rest/services/Trees/FeatureServer/0"),
            layer(id: "Trees_2", url: "{{portal}}/arcgis/rest/services/Trees/FeatureServer/1"),
            layer(id: "Trees_3", url: "{{ host }}/arcgis/rest/services/Trees/FeatureServer/2"),
        ].joined(separator: ",\n    ") + "]")
        let found = try diagnostics(text).filter { $0.ruleId == "map/template-placeholder" }
        #expect(found.map(\.pointer) == ["/operationalLayers/0/url", "/operationalLayers/2/url"])
        #expect(found.first?.line == 2)
        #expect(found.first?.layer?.id == "Trees_1")
        #expect(found.first?.message.contains("--var portal=") == true)
        #expect(found.first?.message.contains("used 2 times") == true)
        // A URL holding a placeholder gets neither bad-layer-url nor unresolved-layer.
        let all = try diagnostics(text)
        #expect(!all.contains { $0.ruleId == "map/bad-layer-url" || $0.ruleId == "map/unresolved-layer" })
    }

    @Test func variablesSuppressPlaceholdersAndYieldRealURLs() throws {
        let text = Examples.map(url: "{{ portal }}/arcgis/rest/services/Trees/FeatureServer/0")
        let resolved = try diagnostics(text, services: Examples.treesSnapshot, variables: ["portal": "https://example.com"])
        #expect(!resolved.contains { $0.ruleId.hasPrefix("map/") })
        // Resolved but not found in a snapshot: the real URL is checked like any other.
        let unresolved = try diagnostics(text, variables: ["portal": "https://example.com"])
        #expect(unresolved.map(\.ruleId) == ["map/unresolved-layer"])
        // Resolved to something that is not a layer URL.
        let bad = try diagnostics(text, variables: ["portal": "example.com"])
        #expect(bad.map(\.ruleId) == ["map/bad-layer-url"])
        #expect(bad.first?.message.contains("example.com/arcgis/rest/services/Trees/FeatureServer/0") == true)
    }

    @Test func placeholdersOutsideLayersHaveNoLayer() throws {
        let text = #"{"operationalLayers": [], "baseMap": {"title": "{{ basemap }}"}}"#
        let found = try diagnostics(text).filter { $0.ruleId == "map/template-placeholder" }
        #expect(found.count == 1)
        #expect(found.first?.layer == nil)
        #expect(found.first?.column == 48)
    }

    // MARK: map/unresolved-layer

    @Test func unresolvedLayerIsReportedAtItsURL() throws {
        let found = try diagnostics(Examples.map()).filter { $0.ruleId == "map/unresolved-layer" }
        #expect(found.count == 1)
        #expect(found.first?.pointer == "/operationalLayers/0/url")
        #expect(found.first.map { ($0.line, $0.column) } ?? (0, 0) == (7, 14))
        #expect(found.first?.message.contains("x.services.json") == true)
        #expect(found.first?.message.contains("--fetch") == true)
    }

    @Test func inlineCollectionWithoutLayerDefinitionIsUnresolved() throws {
        let inline = #"""
            [{"id": "Notes_1", "title": "Notes", "layerType": "ArcGISFeatureLayer",
              "featureCollection": {"layers": [{"featureSet": {"features": []}}]}}]
            """#
        let found = try diagnostics(map(layers: inline))
        #expect(found.map(\.ruleId) == ["map/unresolved-layer"])
        #expect(found.first?.pointer == "/operationalLayers/0/featureCollection")
        let defined = #"""
            [{"id": "Notes_1", "title": "Notes", "layerType": "ArcGISFeatureLayer",
              "featureCollection": {"layers": [{"layerDefinition": {"geometryType": "esriGeometryPoint", "fields": []}}]}}]
            """#
        #expect(try diagnostics(map(layers: defined)).filter { $0.ruleId.hasPrefix("map/") }.isEmpty)
    }

    @Test func nonFeatureLayersNeedNoMetadata() throws {
        let tiles = #"[{"id": "Hillshade", "layerType": "ArcGISTiledMapServiceLayer", "url": "https://example.com/arcgis/rest/services/Hillshade/MapServer"}]"#
        #expect(try diagnostics(map(layers: tiles)).isEmpty)
    }

    @Test func unresolvedTable() throws {
        let found = try diagnostics(map(layers: "[]", tables: "[" + layer(id: "Species_1", url: "https://example.com/arcgis/rest/services/Trees/FeatureServer/1") + "]"))
        #expect(found.contains { $0.ruleId == "map/unresolved-layer" && $0.pointer == "/tables/0/url" && $0.message.hasPrefix("No service metadata was found for table") })
    }

    // MARK: map/bad-layer-url

    @Test(arguments: [
        ("https://example.com/arcgis/rest/services/Trees/FeatureServer", "names the whole service"),
        ("https://example.com/arcgis/rest/services/Trees/FeatureServer/abc", "layer number"),
        ("ftp://example.com/arcgis/rest/services/Trees/FeatureServer/0", "not an http(s) URL"),
        ("https://example.com/arcgis/rest/services/Trees/ImageServer", "ImageServer"),
        ("", "is empty"),
    ])
    func badURLsSayWhy(url: String, reason: String) throws {
        let found = try diagnostics(Examples.map(url: url)).filter { $0.ruleId == "map/bad-layer-url" }
        #expect(found.count == 1)
        #expect(found.first?.pointer == "/operationalLayers/0/url")
        #expect(found.first?.message.contains(reason) == true, "\(found.first?.message ?? "")")
    }

    /// A service-root URL is answered by the snapshot's service-root entry, which is not the layer's metadata:
    /// the layer resolves to none, so the pop-up rules that need metadata are skipped (no false unknown fields).
    @Test func aServiceRootURLResolvesToNoMetadata() throws {
        let service = "https://example.com/arcgis/rest/services/Trees/FeatureServer"
        let snapshot = Examples.snapshot([
            service: #"{"layers": [{"id": 0, "name": "Trees"}], "tables": [], "capabilities": "Query"}"#,
            service + "/0": Examples.treesLayer(),
        ])
        let found = try diagnostics(Examples.map(url: service), services: snapshot)
        #expect(found.map(\.ruleId) == ["map/bad-layer-url"], "\(found.map(\.message))")
        let document = try #require(WebMapDocument(root: JSONParser.parse(Examples.map(url: service)).root, source: SourceText(string: "")))
        let resolver = MetadataResolver(snapshots: [try ServicesSnapshot(path: "x.services.json", root: JSONParser.parse(snapshot).root)])
        #expect(resolver.resolve(document.layers[0]) == nil)
        #expect(resolver.resolve(document.layers[0], url: service + "/0") != nil)
    }

    @Test func featureLayerWithoutURLIsBad() throws {
        // The schema also requires one of url / featureCollection / itemId (schema/invalid); this test is about
        // the map/ rule.
        let found = try diagnostics(map(layers: #"[{"id": "Trees_1", "layerType": "ArcGISFeatureLayer"}]"#))
            .filter { $0.ruleId != "schema/invalid" }
        #expect(found.map(\.ruleId) == ["map/bad-layer-url"])
        // Reported at the layer object, the nearest existing parent of the missing `url`.
        #expect(found.first?.pointer == "/operationalLayers/0")
        #expect(found.first.map { ($0.line, $0.column) } ?? (0, 0) == (2, 25))
    }

    // MARK: map/insecure-url and map/token-in-url

    @Test func urlRulesCoverTablesAndBasemapLayers() throws {
        let text = """
            {
              "operationalLayers": [\(layer(id: "Trees_1", url: "https://example.com/arcgis/rest/services/Trees/FeatureServer/0"))],
              "tables": [\(layer(id: "Species_1", url: "http://example.com/arcgis/rest/services/Trees/FeatureServer/1?token=abc"))],
              "baseMap": {"baseMapLayers": [{"id": "Topo", "layerType": "ArcGISTiledMapServiceLayer", "url": "https://example.com/arcgis/rest/services/Topo/MapServer?key=xyz"}]}
            }
            """
        let found = try diagnostics(text)
        #expect(found.filter { $0.ruleId == "map/insecure-url" }.map(\.pointer) == ["/tables/0/url"])
        #expect(found.filter { $0.ruleId == "map/token-in-url" }.map(\.pointer) == ["/tables/0/url", "/baseMap/baseMapLayers/0/url"])
        #expect(found.first { $0.ruleId == "map/token-in-url" }?.layer?.id == "Species_1")
        #expect(found.first { $0.ruleId == "map/token-in-url" }?.severity == .error)
    }

    // MARK: map/title-too-long

    @Test func titleLengthCountsCharacters() throws {
        func wrapped(_ title: String) -> String {
            #"{"item": {"title": "\#(title)"}, "itemData": {"operationalLayers": []}}"#
        }
        // 40 flags are 40 characters (80 scalars).
        let flags = String(repeating: "🇨🇦", count: 40)
        #expect(try !diagnostics(wrapped(flags)).contains { $0.ruleId == "map/title-too-long" })
        let long = try diagnostics(wrapped(flags + "!")).filter { $0.ruleId == "map/title-too-long" }
        #expect(long.map(\.pointer) == ["/item/title"])
        #expect(long.first?.severity == .info)
        #expect(long.first?.message.contains("41 characters") == true)
        // A bare map has no title to check.
        #expect(try !diagnostics(map(layers: "[]")).contains { $0.ruleId == "map/title-too-long" })
    }

    // MARK: map/no-operational-layers

    @Test func missingOperationalLayersInWrapperIsReportedAtItemData() throws {
        let found = try diagnostics("{\"item\": {\"title\": \"Trees\"},\n \"itemData\": {\"baseMap\": {}}}")
            .filter { $0.ruleId == "map/no-operational-layers" }
        // At `itemData`, the object that lacks `operationalLayers` (a pointer to the absent member would not resolve).
        #expect(found.map(\.pointer) == ["/itemData"])
        #expect(found.first.map { ($0.line, $0.column) } ?? (0, 0) == (2, 14))
    }

    // MARK: map/duplicate-layer-id

    @Test func duplicateIdsAreReportedAtSecondAndLaterOccurrences() throws {
        let url = Examples.treesURL
        let group = #"{"id": "Group_1", "layerType": "GroupLayer", "layers": [\#(layer(id: "A", url: url))]}"#
        let text = map(layers: "[" + [layer(id: "A", url: url), group, layer(id: "B", url: url)].joined(separator: ", ") + "]",
                       tables: "[" + layer(id: "A", url: url) + "]")
        let found = try diagnostics(text, services: Examples.treesSnapshot).filter { $0.ruleId == "map/duplicate-layer-id" }
        #expect(found.map(\.pointer) == ["/operationalLayers/1/layers/0/id", "/tables/0/id"])
        #expect(found.allSatisfy { $0.severity == .error && $0.message.contains("line 2") })
    }

    @Test func numericAndTextIdsAreTheSameId() throws {
        let text = map(layers: #"[{"id": 7, "layerType": "VectorTileLayer"}, {"id": "7", "layerType": "VectorTileLayer"}]"#)
        #expect(try diagnostics(text).filter { $0.ruleId == "map/duplicate-layer-id" }.count == 1)
    }

    // MARK: pop-up definition files

    @Test func popupDefinitionFilesGetNoMapDiagnosticsButUnresolved() throws {
        let found = try diagnostics(#"{"title": "{Address}", "fieldInfos": [{"fieldName": "Address", "visible": true}]}"#)
        #expect(found.filter { $0.ruleId.hasPrefix("map/") || $0.ruleId.hasPrefix("layer/") }.map(\.ruleId) == ["map/unresolved-layer"])
        #expect(found.first?.message.contains("--layer") == true)
    }
}
