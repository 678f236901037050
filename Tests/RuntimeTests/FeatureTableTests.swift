import Foundation
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

@Suite struct FeatureTableTests {
    @Test func localEditsOverlayQueriesUntilApplied() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let trees = try await geodatabase.table(layerID: 0)
        let before = try await trees.count()
        let new = await trees.createFeature(attributes: attrs(["Address": .string("1 Test St"), "Site_Type": .string("TL")]),
                                            geometry: point(-122.65, 45.525), spatialReference: .wgs84)
        #expect(new.objectId == nil)
        let added = try await trees.add(new)
        #expect((added.objectId ?? 0) < 0)
        var second = try await trees.feature(objectId: 2)
        second["Notes"] = .string("updated locally")
        try await trees.update(second)
        try await trees.delete(try await trees.feature(objectId: 3))

        #expect(try await trees.count() == before)
        let all = try await trees.queryFeatures()
        #expect(all.contains { $0.objectId == added.objectId })
        #expect(all.contains { $0.objectId == 3 } == false)
        #expect(all.first { $0.objectId == 2 }?["Notes"] == .string("updated locally"))
        #expect(try await trees.queryFeatures(FeatureQuery(where: "Notes = 'updated locally'")).map(\.objectId) == [2])
        #expect(try await trees.queryFeatures(FeatureQuery(where: "Address LIKE '1 test%'")).map(\.objectId) == [added.objectId])
        #expect(try await trees.count(FeatureQuery(objectIds: [3])) == 0)
        // Paging happens after the overlay: every feature once.
        var paged: [Int64] = []
        for offset in stride(from: 0, to: before + 2, by: 7) {
            paged += try await trees.queryFeatures(FeatureQuery(orderBy: "OBJECTID", offset: offset, limit: 7)).compactMap(\.objectId)
        }
        #expect(Set(paged).count == paged.count && paged.count == before)

        let results = try await geodatabase.applyEdits()
        #expect(await geodatabase.hasLocalEdits == false)
        let addResult = try #require(results.first { $0.tableID == 0 }?.adds.first)
        #expect(addResult.localObjectId == added.objectId)
        let realId = try #require(addResult.objectId)
        #expect(realId > 0)
        #expect(try await trees.feature(objectId: realId)["Address"] == .string("1 Test St"))
        // The temporary id stays usable after the apply.
        #expect(try await trees.feature(objectId: added.objectId!).objectId == realId)
        #expect(try await trees.count() == before)
    }

    @Test func pagesBeyondTheServicesRecordLimitSeeTheLocalEdits() async throws {
        // A service that answers at most 5 features a request: a page at offset 12 needs several requests.
        let folder = try Runtimes.modifiedSample("TreesOfPortland") { json in
            let key = "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer"
            var root = json[key] as! [String: Any]
            root["maxRecordCount"] = 5
            json[key] = root
        }
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland", folder: folder)
        let trees = try await geodatabase.table(layerID: 0)
        let all = try await trees.queryFeatures(FeatureQuery(orderBy: "OBJECTID"))
        #expect(all.count == 24)
        var tree = try await trees.feature(objectId: 1)
        tree["Notes"] = .string("local")
        try await trees.update(tree)
        let page = try await trees.queryFeatures(FeatureQuery(orderBy: "OBJECTID", offset: 12, limit: 5))
        #expect(page.compactMap(\.objectId) == Array(all[12..<17]).compactMap(\.objectId))
        #expect(try await trees.count() == 24)
    }

    @Test func aRefusedApplyKeepsEveryLocalEditAndARetrySucceeds() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let service = geodatabase.service as! InProcessFeatureService
        let trees = try await geodatabase.table(layerID: 0)
        let inspections = try await geodatabase.table(layerID: 3)
        try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string("2 Test St"), "Site_Type": .string("SC")]),
                                                      geometry: point(-122.65, 45.525), spatialReference: .wgs84))
        var inspection = try await inspections.feature(objectId: 1)
        inspection["Notes"] = .string("changed")
        try await inspections.update(inspection)
        // Meanwhile another crew deletes that inspection on the service.
        let other = try await service.core.signIn(username: "editor02", password: "sample-editor02")
        _ = try await service.core.applyEdits(service: service.serviceName, layer: 3, LayerEdits(deletes: [1]), as: other)
        let error = await runtimeError { try await geodatabase.applyEdits() }
        #expect(error?.identifier == RuntimeError.Identifier.serviceError)
        #expect(error?.serviceCode == 1011)
        #expect(await geodatabase.localEditCount == 2)
        #expect(try await trees.count(FeatureQuery(where: "Address = '2 Test St'")) == 1)
        // Nothing landed: the add is still only local.
        #expect(try await service.queryCount(layer: 0, QueryParameters(where: "Address = '2 Test St'")) == 0)
        // The crew drops the stale update and applies again.
        await geodatabase.undoLocalEdits()
        try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string("2 Test St"), "Site_Type": .string("SC")]),
                                                      geometry: point(-122.65, 45.525), spatialReference: .wgs84))
        try await geodatabase.applyEdits()
        #expect(try await service.queryCount(layer: 0, QueryParameters(where: "Address = '2 Test St'")) == 1)
    }

    @Test func refusalsCarryTheirIdentifiers() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let trees = try await geodatabase.table(layerID: 0)
        // Species allows only Query; Neighborhoods allows Update (boundaries may be corrected) but not Create or Delete.
        let species = try await geodatabase.table(layerID: 2)
        let first = try await species.feature(objectId: 1)
        var renamed = first
        renamed["Common_Name"] = .string("Renamed")
        #expect(await runtimeError { try await species.update(renamed) }?.identifier == RuntimeError.Identifier.cannotUpdate)
        let neighborhoods = try await geodatabase.table(layerID: 1)
        let kerns = try await neighborhoods.feature(objectId: 1)
        #expect(await runtimeError { try await neighborhoods.delete(kerns) }?.identifier == RuntimeError.Identifier.cannotDelete)
        #expect(await runtimeError { try await neighborhoods.add(kerns) }?.identifier == RuntimeError.Identifier.cannotAdd)
        #expect(await runtimeError { _ = try await trees.feature(objectId: 99_999) }?.identifier == RuntimeError.Identifier.featureNotFound)
        let unknown = await runtimeError {
            try await trees.add(await trees.createFeature(attributes: attrs(["Adress": .string("x"), "Site_Type": .string("TL"), "Address": .string("x")]),
                                                          geometry: point(-122.65, 45.525), spatialReference: .wgs84))
        }
        #expect(unknown?.identifier == RuntimeError.Identifier.unknownField)
        #expect(unknown?.message.contains("Did you mean 'Address'?") == true)
        let line = await runtimeError {
            try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string("x"), "Site_Type": .string("TL")]),
                                                          geometry: .polyline([[Point(x: 0, y: 0), Point(x: 1, y: 1)]]), spatialReference: .wgs84))
        }
        #expect(line?.identifier == RuntimeError.Identifier.invalidGeometry)
        var tree = try await trees.feature(objectId: 1)
        tree["created_user"] = .string("someone else")
        tree["GlobalID"] = .string("{00000000-0000-0000-0000-000000000000}")
        // System-maintained fields are ignored, as the service ignores them.
        try await trees.update(tree)
        let stored = try await trees.feature(objectId: 1)
        #expect(stored["created_user"] != .string("someone else"))
        #expect(await runtimeError { _ = try await trees.queryFeatures(FeatureQuery(where: "NoSuchField = 1")) }?.identifier == RuntimeError.Identifier.serviceError)
    }

    @Test func relatedRecordsAndAttachmentsAreLocalUntilApplied() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let trees = try await geodatabase.table(layerID: 0)
        let tree = try await trees.feature(objectId: 1)
        let inspections = try await trees.queryRelatedFeatures(for: tree, relationship: try #require(trees.relationship(named: "Inspections")))
        #expect(!inspections.isEmpty)
        #expect(inspections.allSatisfy { $0["Tree_GlobalID"] == tree["GlobalID"] })
        let species = try await trees.queryRelatedFeatures(for: tree, relationship: try #require(trees.relationship(named: "Species")))
        #expect(species.count == 1 && species.first?["Species_ID"] == tree["Species_ID"])

        let before = try await trees.attachments(of: tree).count
        let staged = try await trees.addAttachment(to: tree, name: "photo.txt", contentType: "text/plain", data: Data("leaf".utf8))
        #expect(staged < 0)
        #expect(try await trees.attachments(of: tree).count == before + 1)
        #expect(try await trees.attachmentData(of: tree, attachmentId: staged) == Data("leaf".utf8))
        try await geodatabase.applyEdits()
        let after = try await trees.attachments(of: tree)
        #expect(after.count == before + 1)
        let saved = try #require(after.first { $0.name == "photo.txt" })
        #expect(saved.id > 0)
        #expect(try await trees.attachmentData(of: tree, attachmentId: saved.id) == Data("leaf".utf8))
        try await trees.deleteAttachment(of: tree, attachmentId: saved.id)
        #expect(try await trees.attachments(of: tree).count == before)
        try await geodatabase.applyEdits()
        #expect(try await trees.attachments(of: tree).count == before)
    }
}
