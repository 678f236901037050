import Testing
import Rules
import WebMap

/// The attachments/ rules beyond their examples: exact places, inline collections, and what is not checked.
@Suite struct AttachmentsRulesTests {
    typealias E = RelatedExamples

    static let withAttachments = Examples.treesSnapshot
    static let withoutAttachments = Examples.snapshot([Examples.treesURL: E.treesMetadata(relationships: [], hasAttachments: false)])

    func findings(_ map: String, services: String) -> [Diagnostic] {
        ExampleRunner.diagnostics(for: .document(map, services: services)).filter { $0.ruleId.hasPrefix("attachments/") }
    }

    static func trees(popupElements: String = #"{"type": "fields"}"#, extraPopup: String? = nil, layerExtra: String? = nil) -> String {
        E.map(trees: E.treesLayer(extraPopup: extraPopup, layerExtra: layerExtra, popupElements: popupElements), tables: [])
    }

    /// An inline feature collection of field notes whose pop-up shows attachments when asked.
    static func inlineNotes(hasAttachments: Bool, showAttachments: Bool) -> String {
        #"""
        {
          "operationalLayers": [
            {"id": "Notes_1", "title": "Field notes", "layerType": "ArcGISFeatureLayer",
             "featureCollection": {"layers": [{
               "layerDefinition": {"name": "Notes", "type": "Feature Layer", "geometryType": "esriGeometryPoint",
                 "objectIdField": "OBJECTID", "hasAttachments": \#(hasAttachments),
                 "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "Note", "type": "esriFieldTypeString"}]},
               "featureSet": {"geometryType": "esriGeometryPoint", "features": []},
               "popupInfo": {"title": "{Note}", "fieldInfos": [{"fieldName": "Note", "label": "Note", "visible": true}],
                 "showAttachments": \#(showAttachments)}}]}}
          ],
          "baseMap": {"title": "Topographic", "baseMapLayers": []},
          "version": "2.28"
        }
        """#
    }

    // MARK: attachments/not-enabled

    @Test func notEnabledIsAtTheAttachmentsElement() throws {
        let found = findings(Examples.map(), services: Self.withoutAttachments)
        let diagnostic = try #require(found.first)
        #expect(found.map(\.ruleId) == ["attachments/not-enabled"])
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.pointer == "/operationalLayers/0/popupInfo/popupElements/1")
        #expect(diagnostic.message.contains("layer 'Trees' (id Trees_1234)"))
        #expect(diagnostic.message.contains("Enable attachments on the service layer"))
    }

    @Test func notEnabledIsAtShowAttachmentsWhenItIsTrue() {
        let map = Examples.map(extraPopup: #""showAttachments": true"#)
        #expect(findings(map, services: Self.withoutAttachments).map(\.pointer) == ["/operationalLayers/0/popupInfo/showAttachments"])
    }

    @Test func showAttachmentsFalseWithoutElementShowsNothing() {
        let map = Self.trees(extraPopup: #""showAttachments": false"#)
        #expect(findings(map, services: Self.withoutAttachments).isEmpty)
    }

    @Test func inlineCollectionCannotHoldAttachments() throws {
        let found = findings(Self.inlineNotes(hasAttachments: false, showAttachments: true), services: "{}")
        let diagnostic = try #require(found.first)
        #expect(found.map(\.ruleId) == ["attachments/not-enabled"])
        #expect(diagnostic.pointer == "/operationalLayers/0/featureCollection/layers/0/popupInfo/showAttachments")
        #expect(diagnostic.message.contains("inline feature collection cannot hold attachments"))
    }

    // MARK: attachments/hidden

    @Test func hiddenIsAtThePopupInfo() throws {
        let found = findings(Self.trees(), services: Self.withAttachments)
        let diagnostic = try #require(found.first)
        #expect(found.map(\.ruleId) == ["attachments/hidden"])
        #expect(diagnostic.severity == .info)
        #expect(diagnostic.pointer == "/operationalLayers/0/popupInfo")
        #expect(diagnostic.message.contains("Layer 'Trees' (id Trees_1234) has attachments"))
    }

    @Test func hiddenIsAtShowAttachmentsWhenItIsFalse() {
        let map = Self.trees(extraPopup: #""showAttachments": false"#)
        #expect(findings(map, services: Self.withAttachments).map(\.pointer) == ["/operationalLayers/0/popupInfo/showAttachments"])
    }

    @Test func showAttachmentsAloneShows() {
        #expect(findings(Self.trees(extraPopup: #""showAttachments": true"#), services: Self.withAttachments).isEmpty)
    }

    @Test func inlineCollectionsAreNeverHidden() {
        #expect(findings(Self.inlineNotes(hasAttachments: true, showAttachments: false), services: "{}").isEmpty)
    }

    @Test func tablesAreChecked() throws {
        let services = E.snapshot(inspections: E.inspectionsMetadata().replacingOccurrences(
            of: #""hasAttachments": false"#, with: #""hasAttachments": true"#))
        let found = findings(E.map(), services: services)
        #expect(found.map(\.ruleId) == ["attachments/hidden"])
        #expect(found.first?.pointer == "/tables/1/popupInfo")
        #expect(found.first?.message.contains("Table 'Inspections' (id Inspections_3456)") == true)
    }

    // MARK: Not checked

    @Test func popupsThatAreNeverShownAreNotChecked() {
        let disabled = Self.trees(layerExtra: #""disablePopup": true"#)
        #expect(findings(disabled, services: Self.withAttachments).isEmpty)
        let disabledShowing = E.map(trees: E.treesLayer(layerExtra: #""disablePopup": true"#), tables: [])
        #expect(findings(disabledShowing, services: Self.withoutAttachments).isEmpty)
        #expect(findings(E.map(trees: E.treesLayer(popup: false), tables: []), services: Self.withAttachments).isEmpty)
    }

    @Test func unresolvedMetadataIsNotGuessed() {
        #expect(findings(Examples.map(), services: "{}").isEmpty)
        #expect(findings(Self.trees(), services: "{}").isEmpty)
    }
}
