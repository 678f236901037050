import Testing
import Rules
import WebMap

/// popup/ rules beyond their own examples: case-insensitivity, inline collections, positions, messages.
@Suite struct PopupRulesTests {
    static let speciesURL = "https://example.com/arcgis/rest/services/Trees/FeatureServer/1"

    static func lint(_ map: String, services: String? = Examples.treesSnapshot) -> [Diagnostic] {
        ExampleRunner.diagnostics(for: .document(map, services: services))
    }

    static func lint(_ map: String, services: String? = Examples.treesSnapshot, rule: String) -> [Diagnostic] {
        lint(map, services: services).filter { $0.ruleId == rule }
    }

    /// Trees with extra fields in its metadata.
    static func trees(capabilities: String = "Create,Delete,Query,Update,Editing", fields: String) -> String {
        Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: capabilities, extraFields: fields)])
    }

    /// A map with one inline feature collection layer whose pop-up has `popup` members.
    static func inlineMap(popup: String) -> String {
        """
        {
          "operationalLayers": [{
            "id": "Sketch_1", "title": "Survey sketch", "layerType": "ArcGISFeatureLayer",
            "featureCollection": {"layers": [{
              "layerDefinition": {
                "name": "Sketch", "type": "Feature Layer", "geometryType": "esriGeometryPoint",
                "objectIdField": "FID", "capabilities": "Create,Query,Update,Editing",
                "fields": [
                  {"name": "FID", "type": "esriFieldTypeOID", "alias": "FID", "editable": false},
                  {"name": "Address", "type": "esriFieldTypeString", "alias": "Address", "length": 100},
                  {"name": "Ward", "type": "esriFieldTypeString", "alias": "Ward", "editable": false},
                  {"name": "Photo", "type": "esriFieldTypeBlob", "alias": "Photo"},
                  {"name": "Wires", "type": "esriFieldTypeString", "alias": "Wires", "nullable": false,
                   "domain": {"type": "codedValue", "name": "Wires", "codedValues": []}}
                ]
              },
              "featureSet": {"geometryType": "esriGeometryPoint", "features": []},
              "popupInfo": {\(popup)}
            }]}
          }],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """
    }

    // MARK: Titles and expressions

    @Test func titlePlaceholdersCompareCaseInsensitively() {
        #expect(Self.lint(Examples.map(title: "{address} / {CONDITION}"), rule: "popup/title-unknown-field").isEmpty)
    }

    @Test func titleReportsEachBadPlaceholderAtTheTitle() throws {
        let found = Self.lint(Examples.map(title: "{Adress} at {Conditon} {Adress}"), rule: "popup/title-unknown-field")
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.pointer == "/operationalLayers/0/popupInfo/title" })
        let first = try #require(found.first { $0.message.contains("{Adress}") })
        #expect(first.message.contains("'Trees' (id Trees_1234)"))
        #expect(first.message.contains("Did you mean {Address}?"))
        // Line 9 of the map; the title value starts after `"title": `.
        #expect(first.line == 9 && first.column == 18)
        #expect(first.metadataSource == .snapshot)
        #expect(first.layer == LayerReference(id: "Trees_1234", title: "Trees"))
    }

    @Test func titleSuggestsTheFieldWhoseAliasWasUsed() throws {
        let services = Self.trees(fields: #"{"name": "DBH", "type": "esriFieldTypeDouble", "alias": "Trunk diameter"}"#)
        let found = Self.lint(Examples.map(title: "{Trunk diameter}"), services: services, rule: "popup/title-unknown-field")
        #expect(try #require(found.first).message.contains("Did you mean {DBH}?"))
    }

    @Test func titleIsSkippedWithoutMetadata() {
        #expect(Self.lint(Examples.map(title: "{Adress}"), services: nil, rule: "popup/title-unknown-field").isEmpty)
    }

    @Test func titleExpressionIsReportedOnlyAsUnknownExpression() {
        let found = Self.lint(Examples.map(title: "{Address} {expression/age}"))
        #expect(found.filter { $0.ruleId == "popup/title-unknown-field" }.isEmpty)
        let expression = found.filter { $0.ruleId == "popup/unknown-expression" }
        #expect(expression.count == 1)
        #expect(expression.first?.pointer == "/operationalLayers/0/popupInfo/title")
    }

    @Test func relationshipAndTemplatePlaceholdersAreNotFields() {
        let found = Self.lint(Examples.map(title: "{Address} {relationships/0/COUNT} {{ DISTRICT }}"))
        #expect(found.filter { $0.ruleId == "popup/title-unknown-field" || $0.ruleId == "popup/unknown-expression" }.isEmpty)
    }

    @Test func unknownExpressionInDescriptionIsReportedAtTheDescription() {
        let map = Self.popupMap("""
            "title": "{Address}", "description": "Age: {expression/age}, ward: {expression/ward}",
            "expressionInfos": [{"name": "age", "expression": "1"}],
            "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]
            """)
        let found = Self.lint(map, rule: "popup/unknown-expression")
        #expect(found.count == 1)
        #expect(found.first?.pointer == "/operationalLayers/0/popupInfo/description")
        #expect(found.first?.message.contains("'ward'") == true)
    }

    @Test func expressionNamesCompareExactly() {
        let map = Examples.map(fieldInfos: #"{"fieldName": "expression/Age", "label": "Age", "visible": true}"#,
                               extraPopup: #""expressionInfos": [{"name": "age", "expression": "1"}]"#)
        let found = Self.lint(map, rule: "popup/unknown-expression")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/fieldInfos/0/fieldName"])
        #expect(found.first?.message.contains("Did you mean 'age'?") == true)
    }

    @Test func emptyTitleChecksDisabledPopupsToo() {
        let found = Self.lint(Examples.map(layerExtra: #""disablePopup": true"#, title: ""), rule: "popup/empty-title")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/title"])
    }

    // MARK: Content

    @Test func noDisplayFieldsNeedsMetadataAndAnEnabledPopup() {
        let hidden = Examples.map(fieldInfos: #"{"fieldName": "Address", "label": "Address", "visible": false}"#)
        #expect(Self.lint(hidden, rule: "popup/no-display-fields").map(\.pointer) == ["/operationalLayers/0/popupInfo/fieldInfos"])
        #expect(Self.lint(hidden, services: nil, rule: "popup/no-display-fields").isEmpty)
        let unknown = Examples.map(fieldInfos: #"{"fieldName": "Adress", "label": "Address", "visible": true}"#)
        #expect(Self.lint(unknown, rule: "popup/no-display-fields").count == 1)
        let expression = Examples.map(fieldInfos: #"{"fieldName": "expression/age", "label": "Age", "visible": true}"#,
                                      extraPopup: #""expressionInfos": [{"name": "age", "expression": "1"}]"#)
        #expect(Self.lint(expression, rule: "popup/no-display-fields").isEmpty)
    }

    @Test func notFieldListCases() {
        let emptyElements = Self.popupMap("""
            "title": "{Address}", "description": "<b>{Address}</b>", "popupElements": [],
            "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]
            """)
        #expect(Self.lint(emptyElements, rule: "popup/not-field-list").map(\.pointer) == ["/operationalLayers/0/popupInfo/description"])
        let withFields = Self.popupMap("""
            "title": "{Address}", "description": "<b>{Address}</b>",
            "popupElements": [{"type": "text", "text": "Tree"}, {"type": "fields"}],
            "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]
            """)
        #expect(Self.lint(withFields, rule: "popup/not-field-list").isEmpty)
        let blank = Self.popupMap("""
            "title": "{Address}", "description": "  ",
            "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]
            """)
        #expect(Self.lint(blank, rule: "popup/not-field-list").isEmpty)
        let media = Self.popupMap("""
            "title": "{Address}", "popupElements": [{"type": "media"}, {"type": "attachments"}],
            "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]
            """)
        let found = Self.lint(media, rule: "popup/not-field-list")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/popupElements"])
        #expect(found.first?.message.contains("(media, attachments)") == true)
    }

    @Test func duplicatesAreCaseInsensitiveAndReportedAfterTheFirst() {
        let map = Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": "Address", "visible": true},
                      {"fieldName": "Condition", "label": "Condition", "visible": true},
                      {"fieldName": "ADDRESS", "label": "Address", "visible": false},
                      {"fieldName": "address", "label": "Address", "visible": true}
            """)
        let found = Self.lint(map, rule: "popup/duplicate-field")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/fieldInfos/2/fieldName",
                                         "/operationalLayers/0/popupInfo/fieldInfos/3/fieldName"])
        #expect(found.allSatisfy { $0.message.contains("/operationalLayers/0/popupInfo/fieldInfos/0") })
    }

    @Test func missingLabelCases() {
        let map = Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": " ", "visible": true},
                      {"fieldName": "expression/age", "visible": true},
                      {"fieldName": "expression/ward", "visible": true}
            """, extraPopup: #""expressionInfos": [{"name": "age", "title": "Age", "expression": "1"}, {"name": "ward", "expression": "2"}]"#)
        let found = Self.lint(map, rule: "popup/missing-label")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/fieldInfos/0/label",
                                         "/operationalLayers/0/popupInfo/fieldInfos/2/fieldName"])
        #expect(found.allSatisfy { $0.severity == .info })
    }

    @Test func missingLabelSuggestsTheAlias() {
        let services = Self.trees(fields: #"{"name": "SITE_W", "type": "esriFieldTypeDouble", "alias": "Site width"}"#)
        let found = Self.lint(Examples.map(fieldInfos: #"{"fieldName": "SITE_W", "visible": true}"#), services: services,
                              rule: "popup/missing-label")
        #expect(found.first?.message.contains("alias is 'Site width'") == true)
    }

    // MARK: Editable flags

    @Test func eachEditableFlagGetsOneDiagnostic() {
        let services = Self.trees(fields: """
            {"name": "Photo", "type": "esriFieldTypeBlob", "alias": "Photo", "editable": true},
                  {"name": "Ward", "type": "esriFieldTypeString", "alias": "City ward", "editable": false},
                  {"name": "TreeKey", "type": "esriFieldTypeGUID", "alias": "Tree key", "editable": true}
            """)
        let map = Examples.map(fieldInfos: """
            {"fieldName": "OBJECTID", "label": "Id", "visible": true, "isEditable": true},
                      {"fieldName": "photo", "label": "Photo", "visible": false, "isEditable": true},
                      {"fieldName": "Ward", "label": "Ward", "visible": false, "isEditable": true},
                      {"fieldName": "TreeKey", "label": "Key", "visible": true, "isEditable": true},
                      {"fieldName": "Address", "label": "Address", "visible": false, "isEditable": true},
                      {"fieldName": "Condition", "label": "Condition", "visible": true, "isEditable": true}
            """)
        let found = Self.lint(map, services: services).filter { $0.ruleId.hasPrefix("popup/editable") }
        let byPointer = Dictionary(grouping: found, by: \.pointer).mapValues { $0.map(\.ruleId) }
        let base = "/operationalLayers/0/popupInfo/fieldInfos/"
        #expect(byPointer == [
            base + "0/isEditable": ["popup/editable-readonly-type"],
            base + "1/isEditable": ["popup/editable-unsupported-type"],
            base + "2/isEditable": ["popup/editable-but-service-readonly"],
            base + "3/isEditable": ["popup/editable-readonly-type"],
            base + "4/isEditable": ["popup/editable-but-hidden"],
        ])
        let ward = found.first { $0.ruleId == "popup/editable-but-service-readonly" }
        #expect(ward?.message.contains("'Ward' (alias 'City ward')") == true)
        #expect(ward?.message.contains("'Trees' (id Trees_1234)") == true)
    }

    @Test func readOnlyLayerReportsOnlyVisibleOtherwiseEditableFields() {
        let map = Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                      {"fieldName": "Condition", "label": "Condition", "visible": false, "isEditable": true},
                      {"fieldName": "GlobalID", "label": "Id", "visible": true, "isEditable": true}
            """)
        let services = Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Query,Delete")])
        let found = Self.lint(map, services: services)
        #expect(found.filter { $0.ruleId == "popup/editable-on-readonly-layer" }.map(\.pointer)
                == ["/operationalLayers/0/popupInfo/fieldInfos/0/isEditable"])
        #expect(found.contains { $0.ruleId == "popup/editable-but-hidden" })
        #expect(found.contains { $0.ruleId == "popup/editable-readonly-type" })
        #expect(found.first { $0.ruleId == "popup/editable-on-readonly-layer" }?.message.contains("(Query,Delete)") == true)
    }

    @Test func canAddAloneIsNotReadOnly() {
        let services = Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Query,Create")])
        #expect(Self.lint(Examples.map(), services: services, rule: "popup/editable-on-readonly-layer").isEmpty)
    }

    @Test func emptyCodedDomainOncePerField() {
        let services = Self.trees(fields: """
            {"name": "Wires", "type": "esriFieldTypeString", "alias": "Overhead wires", "nullable": false,
                   "domain": {"type": "codedValue", "name": "WiresDomain", "codedValues": []}}
            """)
        let map = Examples.map(fieldInfos: """
            {"fieldName": "Wires", "label": "Wires", "visible": false, "isEditable": true},
                      {"fieldName": "wires", "label": "Wires", "visible": true, "isEditable": true}
            """)
        let found = Self.lint(map, services: services, rule: "popup/empty-coded-domain")
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo/fieldInfos/0/fieldName"])
        let message = found.first?.message ?? ""
        #expect(message.contains("'Wires' (alias 'Overhead wires')") && message.contains("'WiresDomain'")
                && message.contains("required"))
    }

    @Test func emptyCodedDomainIgnoresFieldsNotEditable() {
        let services = Self.trees(fields: """
            {"name": "Wires", "type": "esriFieldTypeString", "editable": false,
                   "domain": {"type": "codedValue", "name": "WiresDomain", "codedValues": []}}
            """)
        let map = Examples.map(fieldInfos: #"{"fieldName": "Wires", "label": "Wires", "visible": true, "isEditable": true}"#)
        #expect(Self.lint(map, services: services, rule: "popup/empty-coded-domain").isEmpty)
    }

    // MARK: Scope

    @Test func inlineCollectionsGetContentRulesButNoEditingRules() {
        let map = Self.inlineMap(popup: """
            "title": "{Adress} {expression/nope}",
                    "fieldInfos": [
                      {"fieldName": "Address", "visible": true, "isEditable": true},
                      {"fieldName": "address", "label": "Address", "visible": true},
                      {"fieldName": "Conditon", "label": "Condition", "visible": true},
                      {"fieldName": "FID", "label": "Id", "visible": true, "isEditable": true},
                      {"fieldName": "Ward", "label": "Ward", "visible": true, "isEditable": true},
                      {"fieldName": "Photo", "label": "Photo", "visible": false, "isEditable": true},
                      {"fieldName": "Wires", "label": "Wires", "visible": true, "isEditable": true}
                    ],
                    "popupElements": [{"type": "text", "text": "A sketch"}]
            """)
        let found = Self.lint(map, services: nil)
        let ids = Set(found.map(\.ruleId))
        for id in ["popup/unknown-field", "popup/unknown-expression", "popup/title-unknown-field", "popup/duplicate-field",
                   "popup/missing-label", "popup/not-field-list"] {
            #expect(ids.contains(id), "\(id) should fire on an inline collection")
        }
        #expect(!ids.contains { $0.hasPrefix("popup/editable") || $0.hasPrefix("add-feature/") || $0 == "popup/empty-coded-domain" },
                "\(ids.sorted())")
        let title = found.first { $0.ruleId == "popup/title-unknown-field" }
        #expect(title?.pointer == "/operationalLayers/0/featureCollection/layers/0/popupInfo/title")
        #expect(title?.metadataSource == .inline)
        #expect(title?.message.contains("'Survey sketch' (id Sketch_1)") == true)
    }

    @Test func tablesAreCheckedAndNamedAsTables() {
        let table = """
            {"id": 1, "name": "Species", "type": "Table", "objectIdField": "OBJECTID", "capabilities": "Query",
             "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "CommonName", "type": "esriFieldTypeString"}]}
            """
        let services = Examples.snapshot([Examples.treesURL: Examples.treesLayer(), Self.speciesURL: table])
        let map = Examples.map().replacingOccurrences(of: #""baseMap":"#, with: """
            "tables": [{"id": "Species_1", "title": "Species", "url": "\(Self.speciesURL)",
                        "popupInfo": {"title": "{Common_Name}", "fieldInfos": [{"fieldName": "CommonName", "visible": true, "isEditable": true}]}}],
              "baseMap":
            """)
        let found = Self.lint(map, services: services).filter { $0.pointer.hasPrefix("/tables/0") }
        #expect(Set(found.map(\.ruleId)) == ["popup/title-unknown-field", "popup/missing-label", "popup/editable-on-readonly-layer"])
        #expect(found.allSatisfy { $0.message.contains("table 'Species' (id Species_1)") })
    }

    @Test func layersThatAreNotFeatureLayersAreNotChecked() {
        let map = """
            {"operationalLayers": [{"id": "csv_1", "title": "Sightings", "layerType": "CSV", "url": "https://example.com/s.csv",
              "popupInfo": {"title": "", "fieldInfos": [{"fieldName": "a", "visible": true}, {"fieldName": "a", "visible": true}]}}],
             "baseMap": {"title": "Topographic", "baseMapLayers": []}}
            """
        #expect(Self.lint(map, services: nil).filter { $0.ruleId.hasPrefix("popup/") }.isEmpty)
    }

    @Test func standalonePopupDefinitionsAreChecked() throws {
        var options = LintOptions()
        options.configuration = .default
        options.useDefaultSnapshots = false
        let layer = try JSONParser.parse(Examples.treesLayer(capabilities: "Query")).root
        options.popupLayer = LayerMetadata(layer)
        let popup = #"{"title": "{Adress}", "fieldInfos": [{"fieldName": "Address", "visible": true, "isEditable": true}]}"#
        let report = try Linter(options: options).lint(path: "/example/popup.json", text: SourceText(string: popup), isExplicit: true)
        // The Trees layer has attachments that this pop-up does not show: attachments/hidden is right too.
        let found = try #require(report).diagnostics.filter { $0.ruleId.hasPrefix("popup/") }
        #expect(Set(found.map(\.ruleId)) == ["popup/title-unknown-field", "popup/missing-label", "popup/editable-on-readonly-layer"])
        #expect(found.first { $0.ruleId == "popup/title-unknown-field" }?.pointer == "/title")
    }

    /// The Trees layer with a pop-up made of `popup` members (no `popupElements` unless given).
    static func popupMap(_ popup: String) -> String {
        """
        {
          "operationalLayers": [
            {
              "id": "Trees_1234",
              "title": "Trees",
              "layerType": "ArcGISFeatureLayer",
              "url": "\(Examples.treesURL)",
              "popupInfo": {
                \(popup)
              }
            }
          ],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """
    }
}
