import Foundation
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

@Suite struct BehaviourTests {
    private func treesWithBehaviours() async throws -> ServiceGeodatabase {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        for behaviour in BehaviourConfiguration.treesOfPortland { await geodatabase.register(behaviour) }
        return geodatabase
    }

    @Test func aNewTreeTakesTheNameOfItsNeighborhoodAndAMovedOneTheNewName() async throws {
        let geodatabase = try await treesWithBehaviours()
        let trees = try await geodatabase.table(layerID: 0)
        let session = try await geodatabase.addFeature(to: trees, at: point(-122.65, 45.525), spatialReference: .wgs84)
        _ = try await session.setValue(.string("5 Test St"), for: "Address")
        _ = try await session.setValue(.string("TL"), for: "Site_Type")
        let tree = try await session.finish()
        #expect(tree["Neighborhood"] == .string("Kerns"))
        var moved = tree
        moved.geometry = point(-122.655, 45.51)
        moved.spatialReference = .wgs84
        try await trees.update(moved)
        #expect(try await trees.feature(objectId: tree.objectId!)["Neighborhood"] == .string("Buckman"))
        moved.geometry = point(-100, 10)
        try await trees.update(moved)
        #expect(try await trees.feature(objectId: tree.objectId!)["Neighborhood"] == .null)
        // Its changes are local edits, applied with the rest.
        try await geodatabase.applyEdits()
        let service = geodatabase.service
        let applied = try await service.queryFeatures(layer: 0, QueryParameters(where: "Address = '5 Test St'"))
        #expect(applied.features.first?.attributes["Neighborhood"] == .null)
    }

    @Test func theNewestInspectionFillsConditionAndDBH() async throws {
        let geodatabase = try await treesWithBehaviours()
        let trees = try await geodatabase.table(layerID: 0)
        let inspections = try await geodatabase.table(layerID: 3)
        let tree = try await trees.feature(objectId: 1)
        let newer = try await geodatabase.addRelatedRecord(to: tree, relationship: "Inspections",
                                                           attributes: attrs(["Collected_Date": .string("2030-01-01"), "Condition": .string("Poor"), "DBH": .double(9.5)]))
        #expect(try await trees.feature(objectId: 1)["Condition"] == .string("Poor"))
        #expect(try await trees.feature(objectId: 1)["DBH"] == .double(9.5))
        _ = try await geodatabase.addRelatedRecord(to: tree, relationship: "Inspections",
                                                   attributes: attrs(["Collected_Date": .string("2001-01-01"), "Condition": .string("Dead"), "DBH": .double(1)]))
        #expect(try await trees.feature(objectId: 1)["Condition"] == .string("Poor"))
        // Deleting the newest brings back the one before it.
        try await inspections.delete(newer)
        let previous = try await trees.queryRelatedFeatures(for: tree, relationship: try #require(trees.relationship(named: "Inspections")))
            .filter { $0["Collected_Date"] != .int(978_307_200_000) }
            .max { ($0["Collected_Date"]?.double ?? 0) < ($1["Collected_Date"]?.double ?? 0) }
        #expect(try await trees.feature(objectId: 1)["Condition"] == previous?["Condition"])
        try await geodatabase.applyEdits()
        #expect(await geodatabase.hasLocalEdits == false)
    }

    @Test func aBehaviourNeverFiresForItsOwnEdits() async throws {
        final class Calls: @unchecked Sendable { var count = 0 }
        struct Stamping: EditBehaviour {
            let calls: Calls
            var summary: String { "stamps Notes on every edit of Trees" }
            func afterLocalEdit(_ event: LocalEditEvent, in geodatabase: ServiceGeodatabase) async throws {
                calls.count += 1
                guard event.tableID == 0, let id = event.feature.objectId, event.kind != .delete else { return }
                try await geodatabase.behaviourUpdate(tableID: 0, objectId: id, attributes: attrs(["Notes": .string("stamped \(calls.count)")]))
            }
        }
        let calls = Calls()
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        await geodatabase.register(Stamping(calls: calls))
        let trees = try await geodatabase.table(layerID: 0)
        var tree = try await trees.feature(objectId: 2)
        tree["Site_Width"] = .double(3)
        try await trees.update(tree)
        #expect(calls.count == 1)
        #expect(try await trees.feature(objectId: 2)["Notes"] == .string("stamped 1"))
    }

    @Test func aFailingBehaviourUndoesTheEditThatFiredIt() async throws {
        struct Failing: EditBehaviour {
            var summary: String { "fails" }
            func afterLocalEdit(_ event: LocalEditEvent, in geodatabase: ServiceGeodatabase) async throws {
                throw RuntimeError(RuntimeError.Identifier.serviceError, "the behaviour failed")
            }
        }
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        await geodatabase.register(Failing())
        let trees = try await geodatabase.table(layerID: 0)
        var tree = try await trees.feature(objectId: 2)
        tree["Notes"] = .string("x")
        #expect(await runtimeError { try await trees.update(tree) }?.message == "the behaviour failed")
        #expect(await geodatabase.hasLocalEdits == false)
    }
}
