import Foundation
import Runtime
import Rules
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

@Suite struct PopupEditSessionTests {
    private func damageSession() async throws -> (ServiceGeodatabase, FeatureTable, PopupEditSession) {
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment")
        let version = try await geodatabase.createVersion(name: "Popup")
        try await geodatabase.switchVersion(to: version.versionName)
        let table = try await geodatabase.table(layerID: 0)
        let session = PopupEditSession(feature: try await table.feature(objectId: 1), table: table)
        return (geodatabase, table, session)
    }

    @Test func whatThePopupShowsComesFromTheRuleCatalogue() async throws {
        let (_, table, session) = try await damageSession()
        #expect(session.displayFields.compactMap { $0.field?.name }.prefix(3) == ["typdamage", "placename", "fulladdr"])
        let editors = Dictionary(uniqueKeysWithValues: session.editableDisplayFields.map { ($0.field.name, $0.editor) })
        #expect(editors["typdamage"] == .choiceList)
        #expect(editors["numstories"] == .number)
        #expect(editors["inspdate"] == .dateTime)
        #expect(editors["objectid"] == nil)
        #expect(session.title == "Minor: Riverwalk Bakery")
        #expect(session.canDelete == table.popup.canDelete)
        #expect(await session.canEdit())
    }

    @Test func everyValueIsValidatedAtOnceWithTheAppsCodes() async throws {
        let (_, _, session) = try await damageSession()
        try await session.startEditing()
        #expect(try await session.setValue(.string("abc"), for: "numstories")?.identifier == "11004")
        #expect(try await session.setValue(.int(70_000), for: "numstories")?.identifier == "11005")
        #expect(try await session.setValue(.int(-70_000), for: "numstories")?.identifier == "11006")
        #expect(try await session.setValue(.string("61"), for: "numstories")?.identifier == "11002")
        #expect(try await session.setValue(.string("Catastrophic"), for: "typdamage")?.identifier == "11007")
        #expect(try await session.setValue(.string(String(repeating: "x", count: 5000)), for: "notes")?.identifier == "11003")
        #expect(try await session.setValue(.string("1e39"), for: "estloss") == nil)
        #expect(try await session.setValue(.string("2026-05-01"), for: "inspdate") == nil)
        #expect(try await session.setValue(.string("Major"), for: "typdamage") == nil)
        let refused = await runtimeError { try await session.setValue(.string("x"), for: "created_user") }
        #expect(refused?.identifier == RuntimeError.Identifier.fieldNotEditable)
        let unknown = await runtimeError { try await session.setValue(.string("x"), for: "typdamag") }
        #expect(unknown?.identifier == RuntimeError.Identifier.unknownField)
        let errors = await session.fieldErrors
        #expect(Set(errors.keys) == ["numstories", "notes"])
        let finish = await runtimeError { try await session.finish() }
        #expect(finish?.problems.map(\.identifier).sorted() == ["11002", "11003"])
        #expect(await session.table.geodatabase.hasLocalEdits == false)
        _ = try await session.setValue(.int(2), for: "numstories")
        _ = try await session.setValue(.string("short"), for: "notes")
        let saved = try await session.finish()
        #expect(saved["typdamage"] == .string("Major"))
        #expect(saved["numstories"] == .int(2))
    }

    @Test func singleFloatsAndIntegersHaveTheirTypesLimits() async throws {
        let folder = try Runtimes.modifiedSample("DamageAssessment") { json in
            let key = "https://maprules.example.com/arcgis/rest/services/DamageAssessment/FeatureServer/0"
            var layer = json[key] as! [String: Any]
            var fields = layer["fields"] as! [[String: Any]]
            for index in fields.indices where fields[index]["name"] as? String == "estloss" { fields[index]["type"] = "esriFieldTypeSingle" }
            for index in fields.indices where fields[index]["name"] as? String == "numstories" { fields[index]["type"] = "esriFieldTypeInteger"; fields[index]["domain"] = NSNull() }
            layer["fields"] = fields
            json[key] = layer
        }
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment", folder: folder)
        let version = try await geodatabase.createVersion(name: "Limits")
        try await geodatabase.switchVersion(to: version.versionName)
        let table = try await geodatabase.table(layerID: 0)
        let session = PopupEditSession(feature: try await table.feature(objectId: 1), table: table)
        #expect(try await session.setValue(.string("1e39"), for: "estloss")?.identifier == "11005")
        #expect(try await session.setValue(.string("-1e39"), for: "estloss")?.identifier == "11006")
        #expect(try await session.setValue(.int(3_000_000_000), for: "numstories")?.identifier == "11005")
        #expect(try await session.setValue(.int(70_000), for: "numstories") == nil)
        await session.cancel()
    }

    @Test func aNewFeatureIsAddedOnlyByFinishAndGoneAfterCancel() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let trees = try await geodatabase.table(layerID: 0)
        #expect(try await geodatabase.eligibleLayers().map(\.name) == ["Trees"])
        let session = try await geodatabase.addFeature(to: trees, at: point(-122.65, 45.525), spatialReference: .wgs84)
        #expect(session.isNewFeature)
        _ = try await session.setValue(.string("3 Test St"), for: "Address")
        await session.cancel()
        #expect(await geodatabase.hasLocalEdits == false)

        let second = try await geodatabase.addFeature(to: trees, at: point(-122.65, 45.525), spatialReference: .wgs84)
        // The template fills Site_Type; Address is required and left empty: 11001 when saving.
        #expect(second.original["Site_Type"] == .string("TL"))
        let missing = await runtimeError { try await second.finish() }
        #expect(missing?.identifier == "11001")
        #expect(missing?.field == "Address")
        _ = try await second.setValue(.string("3 Test St"), for: "Address")
        #expect(try await second.setValue(.null, for: "Address")?.identifier == "11001")
        _ = try await second.setValue(.string("3 Test St"), for: "Address")
        _ = try await second.setValue(.string("Median"), for: "Site_Type")  // a choice typed by its name
        let added = try await second.finish()
        #expect(added["Site_Type"] == .string("MD"))
        #expect((added.objectId ?? 0) < 0)
    }

    @Test func addFeatureRefusesIneligibleLayersInTheSpecsOrder() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let neighborhoods = try await geodatabase.table(layerID: 1)
        let species = try await geodatabase.table(layerID: 2)
        let cannotAdd = await runtimeError { _ = try await geodatabase.addFeature(to: neighborhoods, at: point(0, 0)) }
        #expect(cannotAdd?.identifier == RuntimeError.Identifier.cannotAdd)
        #expect(cannotAdd?.message.contains("its geometry is not point") == true)
        #expect(await runtimeError { _ = try await geodatabase.addFeature(to: species, at: nil) }?.identifier == RuntimeError.Identifier.notALayer)
    }

    @Test func anEditablePolygonLayerIsNotPoint() async throws {
        let folder = try Runtimes.modifiedSample("TreesOfPortland") { json in
            let key = Runtimes.treesLayer.replacingOccurrences(of: "/0", with: "/1")
            var layer = json[key] as! [String: Any]
            layer["capabilities"] = "Create,Query,Update,Delete,Editing"
            json[key] = layer
        }
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland", folder: folder)
        let neighborhoods = try await geodatabase.table(layerID: 1)
        let ring = [Point(x: -122.66, y: 45.52), Point(x: -122.65, y: 45.52), Point(x: -122.65, y: 45.53), Point(x: -122.66, y: 45.52)]
        let error = await runtimeError { _ = try await geodatabase.addFeature(to: neighborhoods, at: .polygon([ring]), spatialReference: .wgs84) }
        #expect(error?.identifier == "add-feature/not-point")
        // The table itself still takes polygons outside the add-feature flow.
        let added = try await neighborhoods.add(await neighborhoods.createFeature(attributes: attrs(["NAME": .string("New Town")]), geometry: .polygon([ring]), spatialReference: .wgs84))
        #expect((added.objectId ?? 0) < 0)
    }

    @Test func mapsDecidePopupsAndAddFeatureConditions() async throws {
        var text = try String(contentsOfFile: Samples.folder + "/TreesOfPortland/TreesOfPortland.json", encoding: .utf8)
        // Trees' pop-up disabled; an inline feature collection beside it.
        text = text.replacingOccurrences(of: "\"url\": \"\(Runtimes.treesLayer)\"", with: "\"url\": \"\(Runtimes.treesLayer)\", \"disablePopup\": true")
        text = text.replacingOccurrences(of: "\"operationalLayers\": [", with: """
            "operationalLayers": [{"id": "sketch", "title": "Sketch", "layerType": "ArcGISFeatureLayer", "featureCollection": {"layers": [{"layerDefinition": {"geometryType": "esriGeometryPoint", "fields": [], "capabilities": "Create,Query,Update,Delete,Editing"}, "popupInfo": {"title": "x"}, "featureSet": {"features": []}}]}},
            """)
        let map = try Runtimes.webMap(text: text)
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland", map: map)
        let trees = try await geodatabase.table(layerID: 0)
        #expect(try await geodatabase.eligibleLayers().isEmpty)
        let disabled = await runtimeError { _ = try await geodatabase.addFeature(to: trees, at: point(-122.65, 45.525), spatialReference: .wgs84) }
        #expect(disabled?.identifier == "add-feature/popup-disabled")
        let sketch = await runtimeError { try await geodatabase.requireEligibleMapLayer(named: "Sketch") }
        #expect(sketch?.identifier == RuntimeError.Identifier.notServiceBacked)
        let session = PopupEditSession(feature: try await trees.feature(objectId: 1), table: trees)
        let notEnabled = await runtimeError { try await session.startEditing() }
        #expect(notEnabled?.identifier == RuntimeError.Identifier.notPopupEnabled)
    }

    @Test func withoutAMapEveryLayerGetsTheDefaultPopup() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland", withMap: false)
        let trees = try await geodatabase.table(layerID: 0)
        #expect(trees.popup.isPopupEnabled)
        #expect(trees.popup.displayFields.compactMap { $0.field?.name } == trees.fields.map(\.name))
        let editable = PopupEditSession(feature: try await trees.feature(objectId: 1), table: trees).editableDisplayFields.map(\.field.name)
        #expect(editable.contains("Neighborhood") && editable.contains("Condition"))
        #expect(!editable.contains("OBJECTID") && !editable.contains("created_user") && !editable.contains("GlobalID"))
        #expect(try await geodatabase.eligibleLayers().map(\.name) == ["Trees"])
    }

    @Test func relatedSectionsAndTheirRules() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let trees = try await geodatabase.table(layerID: 0)
        let tree = try await trees.feature(objectId: 1)
        let session = PopupEditSession(feature: tree, table: trees)
        let sections = try await session.relatedSections()
        #expect(sections.map(\.kind) == [.manyToOne, .oneToMany])
        #expect(sections.map(\.relatedTableName) == ["Species", "Inspections"])
        let choices = try await session.choices(for: "Species")
        let names = choices.compactMap { $0["Common_Name"]?.string }
        let speciesCount = try await geodatabase.table(layerID: 2).count()
        #expect(names == names.sorted() && names.count == speciesCount)
        let children = try await session.relatedRecords(for: "Inspections")
        let dates = children.compactMap { $0["Collected_Date"]?.double }
        #expect(!dates.isEmpty && dates == dates.sorted(by: >))
        try await session.startEditing()
        // While the tree is being edited its inspections may not be.
        let blocked = await runtimeError { _ = try await geodatabase.addRelatedRecord(to: tree, relationship: "Inspections", attributes: attrs(["Collected_Date": .string("2026-01-01"), "Condition": .string("Good")])) }
        #expect(blocked?.identifier == RuntimeError.Identifier.parentBeingEdited)
        let inspections = try await geodatabase.table(layerID: 3)
        let relation = try #require(trees.relationship(named: "Inspections"))
        let child = try #require(try await trees.queryRelatedFeatures(for: tree, relationship: relation).first)
        let childSession = PopupEditSession(feature: child, table: inspections)
        #expect(await runtimeError { try await childSession.startEditing() }?.identifier == RuntimeError.Identifier.parentBeingEdited)
        // Many-to-one: point the tree at another species.
        let species = try await geodatabase.table(layerID: 2)
        let other = try #require(try await species.queryFeatures(FeatureQuery(where: "Species_ID <> \(tree["Species_ID"]!.description)")).first)
        try await session.setRelated(other, relationship: "Species")
        let saved = try await session.finish()
        #expect(saved["Species_ID"] == other["Species_ID"])
        let third = PopupEditSession(feature: tree, table: trees)
        #expect(await runtimeError { try await third.setRelated(other, relationship: "Nope") }?.identifier == RuntimeError.Identifier.relationshipNotFound)
        await third.cancel()
        let record = try await geodatabase.addRelatedRecord(to: tree, relationship: "Inspections",
                                                            attributes: attrs(["Collected_Date": .string("2026-01-01"), "Condition": .string("Good")]))
        #expect(record["Tree_GlobalID"] == tree["GlobalID"])
    }

    @Test func aCompositeManyToOneNeedsARecordBeforeSaving() async throws {
        let folder = try Runtimes.modifiedSample("TreesOfPortland") { json in
            for key in [Runtimes.treesLayer, Runtimes.treesLayer.replacingOccurrences(of: "/0", with: "/2")] {
                var layer = json[key] as! [String: Any]
                layer["relationships"] = (layer["relationships"] as! [[String: Any]]).map { relation in
                    var copy = relation
                    if copy["relatedTableId"] as? Int == 2 || copy["relatedTableId"] as? Int == 0 { copy["composite"] = true }
                    return copy
                }
                json[key] = layer
            }
        }
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland", folder: folder)
        let trees = try await geodatabase.table(layerID: 0)
        let session = try await geodatabase.addFeature(to: trees, at: point(-122.65, 45.525), spatialReference: .wgs84)
        _ = try await session.setValue(.string("4 Test St"), for: "Address")
        _ = try await session.setValue(.string("TL"), for: "Site_Type")
        let error = await runtimeError { try await session.finish() }
        #expect(error?.identifier == RuntimeError.Identifier.compositeRelatedRequired)
        let species = try await geodatabase.table(layerID: 2)
        try await session.setRelated(try #require(try await species.queryFeatures(FeatureQuery(limit: 1)).first), relationship: "Species")
        #expect(try await session.finish().objectId ?? 0 < 0)
    }
}
