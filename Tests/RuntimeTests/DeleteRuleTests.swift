import Foundation
import Runtime
import FeatureServiceModel
import Testing
import WebMap
import LocalFeatureService

/// runtime.md: the app's Delete is refused when the layer or table is not pop-up enabled, and for a one-to-many
/// child record while its parent is in a pop-up edit session. The rule is the runtime's: `FeatureTable.delete`
/// refuses as an edit script's `deleteFeature` step does, with the same identifier and message.
@Suite struct DeleteRuleTests {
    /// The TreesOfPortland web map's text with `disablePopup: true` on the layers and tables titled `titles`.
    static func mapText(disablingPopupsOf titles: Set<String>) throws -> String {
        let path = Samples.folder + "/TreesOfPortland/TreesOfPortland.json"
        var map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        for key in ["operationalLayers", "tables"] {
            map[key] = (map[key] as? [[String: Any]])?.map { entry in
                var entry = entry
                if let title = entry["title"] as? String, titles.contains(title) { entry["disablePopup"] = true }
                return entry
            }
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: map), as: UTF8.self)
    }

    static func geodatabase(disablingPopupsOf titles: Set<String>) async throws -> ServiceGeodatabase {
        try await Runtimes.geodatabase("TreesOfPortland", map: try Runtimes.webMap(text: try mapText(disablingPopupsOf: titles)))
    }

    @Test func aLayerThatIsNotPopupEnabledRefusesDeletesThroughTheTable() async throws {
        let geodatabase = try await Self.geodatabase(disablingPopupsOf: ["Trees"])
        let trees = try await geodatabase.table(layerID: 0)
        let tree = try await trees.feature(objectId: 3)
        #expect(await trees.canDelete(tree) == false)
        let error = await runtimeError { try await trees.delete(tree) }
        #expect(error?.identifier == RuntimeError.Identifier.notPopupEnabled)
        #expect(error?.message == "Deleting feature 3 of layer 'Trees' (id 0): the layer is not pop-up enabled.")
        #expect(error?.objectId == 3)
        #expect(await geodatabase.hasLocalEdits == false)
        // A table of the same map whose pop-up is enabled still deletes.
        let inspections = try await geodatabase.table(layerID: 3)
        let inspection = try #require(try await inspections.queryFeatures(FeatureQuery(limit: 1)).first)
        #expect(await inspections.canDelete(inspection))
        try await inspections.delete(inspection)
        #expect(await geodatabase.localEditCount == 1)
    }

    @Test func aChildRecordIsNotDeletedWhileItsParentIsBeingEdited() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let trees = try await geodatabase.table(layerID: 0)
        let inspections = try await geodatabase.table(layerID: 3)
        let inspection = try #require(try await inspections.queryFeatures(FeatureQuery(limit: 1)).first)
        let toTree = try #require(inspections.relationship(named: "Tree"))
        let tree = try #require(try await inspections.queryRelatedFeatures(for: inspection, relationship: toTree).first)
        let session = PopupEditSession(feature: tree, table: trees)
        try await session.startEditing()
        #expect(await inspections.canDelete(inspection) == false)
        let error = await runtimeError { try await inspections.delete(inspection) }
        #expect(error?.identifier == RuntimeError.Identifier.parentBeingEdited)
        #expect(error?.message.contains("its parent, feature \(tree.objectId ?? 0) of layer 'Trees' (id 0), is being edited") == true, "\(error?.message ?? "")")
        #expect(await geodatabase.hasLocalEdits == false)
        await session.cancel()
        #expect(await inspections.canDelete(inspection))
        try await inspections.delete(inspection)
        #expect(await geodatabase.localEditCount == 1)
    }

    @Test func theScriptStepAndTheTableRefuseAlike() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-delete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.mapText(disablingPopupsOf: ["Trees"]).write(to: folder.appendingPathComponent("map.json"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("TreesOfPortland-delete.yaml").path
        try "map: map.json\nsteps:\n  - deleteFeature: {layer: Trees, objectId: 3}\n".write(toFile: path, atomically: true, encoding: .utf8)
        let step = try #require(try await EditScriptTests.runInProcess(path).steps.first)

        let geodatabase = try await Self.geodatabase(disablingPopupsOf: ["Trees"])
        let trees = try await geodatabase.table(layerID: 0)
        let library = await runtimeError { try await trees.delete(try await trees.feature(objectId: 3)) }
        #expect(step.ok == false)
        #expect(step.error == library)
    }

    /// A behaviour's own edits skip the pop-up's conditions (runtime.md "Behaviours"), deletes included.
    @Test func aBehavioursDeleteSkipsThePopupConditions() async throws {
        let geodatabase = try await Self.geodatabase(disablingPopupsOf: ["Inspections"])
        await geodatabase.register(DeleteInspectionsOfUpdatedTrees())
        let trees = try await geodatabase.table(layerID: 0)
        let inspections = try await geodatabase.table(layerID: 3)
        let inspection = try #require(try await inspections.queryFeatures(FeatureQuery(limit: 1)).first)
        #expect(await runtimeError { try await inspections.delete(inspection) }?.identifier == RuntimeError.Identifier.notPopupEnabled)
        let toTree = try #require(inspections.relationship(named: "Tree"))
        var tree = try #require(try await inspections.queryRelatedFeatures(for: inspection, relationship: toTree).first)
        let before = try await inspections.count()
        tree["Notes"] = .string("inspections dropped by a behaviour")
        try await trees.update(tree)
        #expect(try await inspections.count() < before)
        #expect(try await inspections.count(FeatureQuery(objectIds: [inspection.objectId ?? 0])) == 0)
    }
}

/// Deletes the inspections of a tree when the tree is updated (a behaviour for the test above).
private struct DeleteInspectionsOfUpdatedTrees: EditBehaviour {
    var summary: String { "delete the inspections of an updated tree" }

    func afterLocalEdit(_ event: LocalEditEvent, in geodatabase: ServiceGeodatabase) async throws {
        guard event.kind == .update, event.tableID == 0 else { return }
        let trees = try await geodatabase.table(layerID: 0)
        let inspections = try await geodatabase.table(layerID: 3)
        guard let relationship = trees.relationship(named: "Inspections") else { return }
        for record in try await trees.queryRelatedFeatures(for: event.feature, relationship: relationship) {
            try await inspections.delete(record)
        }
    }
}
