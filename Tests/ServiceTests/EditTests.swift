import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

@Suite struct EditTests {
    static func inspection(_ extra: [(String, AttributeValue)] = []) -> EditFeature {
        var attributes = Attributes([("Collected_Date", .int(1_700_000_000_000)), ("Condition", .string("Good")), ("DBH", .double(12.5))])
        for (name, value) in extra { attributes[name] = value }
        return EditFeature(attributes: attributes)
    }

    static func tree(x: Double = -122.65, y: Double = 45.525, _ extra: [(String, AttributeValue)] = []) -> EditFeature {
        var attributes = Attributes([("Address", .string("1 Test St")), ("Site_Type", .string("TL"))])
        for (name, value) in extra { attributes[name] = value }
        return EditFeature(attributes: attributes, geometry: .point(Point(x: x, y: y)), spatialReference: .wgs84)
    }

    @Test func addUpdateDeleteWithEditorTracking() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let before = try await core.count("TreesOfPortland", 0)
        let added = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(adds: [Self.tree()]),
                                              options: EditOptions(returnEditMoment: true), as: who.editor01)
        let result = try #require(added.addResults.first)
        #expect(result.success)
        #expect(result.globalId?.hasPrefix("{") == true)
        #expect(added.editMoment != nil)
        let id = try #require(result.objectId)
        #expect(id > Int64(before))
        let feature = try #require(try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: [id], outSR: .wgs84), as: .anonymous).featureSet?.features.first)
        #expect(feature.attributes["created_user"] == .string("editor01"))
        #expect(feature.attributes["last_edited_user"] == .string("editor01"))
        #expect(feature.attributes["Site_Type"] == .string("TL"))
        if case .point(let p)? = feature.geometry { #expect(abs(p.x + 122.65) < 1e-9) } else { Issue.record("no point") }

        let updated = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(updates: [
            EditFeature(attributes: Attributes([("OBJECTID", .int(id)), ("Notes", .string("leaning")), ("created_user", .string("ignored"))])),
        ]), as: who.editor02)
        #expect(updated.succeeded)
        let after = try #require(try await core.features("TreesOfPortland", 0, where: "OBJECTID = \(id)").first)
        #expect(after.attributes["Notes"] == .string("leaning"))
        #expect(after.attributes["created_user"] == .string("editor01"))
        #expect(after.attributes["last_edited_user"] == .string("editor02"))

        let deleted = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(deletes: [id]), as: who.editor02)
        #expect(deleted.succeeded)
        #expect(try await core.count("TreesOfPortland", 0) == before)
        let again = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(deletes: [id]), as: who.editor02)
        #expect(again.deleteResults.first?.error?.code == 1011)
    }

    @Test func refusalsCarryTheirCodes() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let options = EditOptions(rollbackOnFailure: false)
        func code(_ edits: LayerEdits, layer: Int = 3) async throws -> Int? {
            let r = try await core.applyEdits(service: "TreesOfPortland", layer: layer, edits, options: options, as: who.editor01)
            return r.allResults.first?.error?.code
        }
        // 1001: a non-nullable field left null (Condition) or set to null.
        #expect(try await code(LayerEdits(adds: [EditFeature(attributes: Attributes([("Collected_Date", .int(1))]))])) == 1001)
        #expect(try await code(LayerEdits(updates: [EditFeature(attributes: Attributes([("OBJECTID", .int(1)), ("Condition", .null)]))])) == 1001)
        // 1023: a value for a non-editable field that is not system-maintained.
        let folder = try SampleCopy.make(from: Fixtures.trees, settings: "{}")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 1016: types, lengths, coded values, ranges.
        #expect(try await code(LayerEdits(adds: [Self.inspection([("DBH", .string("thick"))])])) == 1016)
        #expect(try await code(LayerEdits(adds: [Self.inspection([("Condition", .string("Splendid"))])])) == 1016)
        #expect(try await code(LayerEdits(adds: [Self.inspection([("DBH", .double(500))])])) == 1016)
        #expect(try await code(LayerEdits(adds: [Self.inspection([("Notes", .string(String(repeating: "x", count: 256)))])])) == 1016)
        #expect(try await code(LayerEdits(adds: [Self.inspection([("Tree_GlobalID", .string("not-a-guid"))])])) == 1016)
        #expect(try await code(LayerEdits(adds: [Self.inspection([("Collected_Date", .string("yesterday"))])])) == 1016)
        // A date beyond Int64's milliseconds is refused, not trapped on (it stopped the server).
        for huge in [1e300, -1e300, 9.3e18] {
            #expect(try await code(LayerEdits(adds: [Self.inspection([("Collected_Date", .double(huge))])])) != nil)
        }
        // 1015: wrong geometry type.
        var polygonTree = Self.tree()
        polygonTree.geometry = .polygon([[Point(x: 0, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 1), Point(x: 0, y: 0)]])
        #expect(try await code(LayerEdits(adds: [polygonTree]), layer: 0) == 1015)
        // Coordinates that are not finite, or leave the world once stored in WGS84, are refused (in-process
        // callers hand geometries over as values; they once landed and broke every later query).
        #expect(try await code(LayerEdits(adds: [Self.tree(x: .infinity)]), layer: 0) == 1015)
        #expect(try await code(LayerEdits(adds: [Self.tree(y: 100)]), layer: 0) == 1015)
        // 1011: missing object.
        #expect(try await code(LayerEdits(updates: [EditFeature(attributes: Attributes([("OBJECTID", .int(99_999)), ("Notes", .string("x"))]))])) == 1011)
        #expect(try await code(LayerEdits(deletes: [99_999])) == 1011)
        // Valid values pass.
        #expect(try await code(LayerEdits(adds: [Self.inspection([("Tree_GlobalID", .string("ed881bc9-049e-43f2-a301-9f26837e55b9"))])])) == nil)
        // Capabilities: Neighborhoods is Query only.
        await expectServiceError(400) {
            _ = try await core.applyEdits(service: "TreesOfPortland", layer: 1, LayerEdits(deletes: [1]), as: who.editor01)
        }
        // Anonymous edits need a token when a users file is in force.
        await expectServiceError(499) {
            _ = try await core.applyEdits(service: "TreesOfPortland", layer: 3, LayerEdits(adds: [Self.inspection()]), as: .anonymous)
        }
    }

    @Test func notEditableGeometryUpdatesAndOwnership() async throws {
        // A copy of Trees whose layer 3 has a non-editable Notes field, no geometry updates on layer 0, and
        // ownership-based access control.
        let folder = try SampleCopy.make(from: Fixtures.trees, settings: "{}")
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let snapshotPath = folder + "/TreesOfPortland.services.json"
        var snapshot = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: snapshotPath))) as? [String: Any])
        let key = try #require(snapshot.keys.first { $0.hasSuffix("FeatureServer/0") })
        var trees = try #require(snapshot[key] as? [String: Any])
        trees["allowGeometryUpdates"] = false
        trees["ownershipBasedAccessControlForFeatures"] = ["allowOthersToQuery": true, "allowOthersToUpdate": false, "allowOthersToDelete": false]
        trees["fields"] = (trees["fields"] as? [[String: Any]] ?? []).map { field in
            var copy = field
            if copy["name"] as? String == "Notes" { copy["editable"] = false }
            return copy
        }
        snapshot[key] = trees
        try JSONSerialization.data(withJSONObject: snapshot).write(to: URL(fileURLWithPath: snapshotPath))
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [folder], usersFile: Fixtures.usersFile)))
        let who = try await Callers.signIn(core)
        let layer0 = try core.service("TreesOfPortland").layer(0)
        #expect(layer0.ownership != nil)
        #expect(!layer0.allowGeometryUpdates)

        let notes = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(adds: [Self.tree([("Notes", .string("x"))])]), as: who.editor01)
        #expect(notes.addResults.first?.error?.code == 1023)

        let added = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(adds: [Self.tree()]), as: who.editor01)
        let id = try #require(added.addResults.first?.objectId)
        let moved = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(updates: [
            EditFeature(attributes: Attributes([("OBJECTID", .int(id))]), geometry: .point(Point(x: -122.66, y: 45.52)), spatialReference: .wgs84),
        ]), as: who.editor01)
        #expect(moved.updateResults.first?.error?.code == 1004)

        let byOther = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(updates: [
            EditFeature(attributes: Attributes([("OBJECTID", .int(id)), ("Planted_By", .string("someone"))])),
        ]), as: who.editor02)
        #expect(byOther.updateResults.first?.error?.code == 1007)
        let deleteByOther = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(deletes: [id]), as: who.editor02)
        #expect(deleteByOther.deleteResults.first?.error?.code == 1007)
        let byCreator = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(updates: [
            EditFeature(attributes: Attributes([("OBJECTID", .int(id)), ("Planted_By", .string("me"))])),
        ]), as: who.editor01)
        #expect(byCreator.succeeded)
        let byAdmin = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(deletes: [id]), as: who.admin)
        #expect(byAdmin.succeeded)
    }

    @Test func serviceLevelApplyEditsIsAtomic() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let trees = try await core.count("TreesOfPortland", 0)
        let inspections = try await core.count("TreesOfPortland", 3)
        let edits = [
            LayerEdits(id: 0, adds: [Self.tree()]),
            LayerEdits(id: 3, adds: [Self.inspection(), Self.inspection([("Condition", .string("Splendid"))])]),
        ]
        let rolledBack = try await core.applyEdits(service: "TreesOfPortland", edits, as: who.editor01)
        #expect(rolledBack[0].addResults[0].error?.code == 1003)
        #expect(rolledBack[1].addResults[0].error?.code == 1003)
        #expect(rolledBack[1].addResults[1].error?.code == 1016)
        #expect(try await core.count("TreesOfPortland", 0) == trees)
        #expect(try await core.count("TreesOfPortland", 3) == inspections)

        let partial = try await core.applyEdits(service: "TreesOfPortland", edits, options: EditOptions(rollbackOnFailure: false), as: who.editor01)
        #expect(partial[0].addResults[0].success && partial[1].addResults[0].success && !partial[1].addResults[1].success)
        #expect(try await core.count("TreesOfPortland", 0) == trees + 1)
        #expect(try await core.count("TreesOfPortland", 3) == inspections + 1)
        // Object ids are never reused, even after a rollback consumed some.
        let ids = partial.flatMap { $0.addResults.compactMap(\.objectId) }
        #expect(ids.allSatisfy { $0 > 0 })
    }

    @Test func globalIdsAndAttachmentsInApplyEdits() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let gid = "{11111111-2222-3333-4444-555555555555}"
        let add = try await core.applyEdits(service: "TreesOfPortland", layer: 0,
            LayerEdits(adds: [Self.tree([("GlobalID", .string(gid.lowercased()))])],
                       attachments: AttachmentEdits(adds: [AttachmentUpload(parentGlobalId: gid, name: "photo.jpg", contentType: "image/jpeg", data: Data([1, 2, 3]))])),
            options: EditOptions(useGlobalIds: true), as: who.editor01)
        #expect(add.succeeded)
        #expect(add.addResults.first?.globalId == gid)
        let duplicate = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(adds: [Self.tree([("GlobalID", .string(gid))])]),
                                                  options: EditOptions(useGlobalIds: true), as: who.editor01)
        #expect(duplicate.addResults.first?.error?.code == 1022)
        let oid = try #require(add.addResults.first?.objectId)
        let attachments = try await core.attachments(service: "TreesOfPortland", layer: 0, objectId: oid, as: .anonymous)
        #expect(attachments.attachmentInfos.map(\.name) == ["photo.jpg"])
        let attachmentGid = try #require(attachments.attachmentInfos.first?.globalId)
        let update = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(updates: [
            EditFeature(attributes: Attributes([("GlobalID", .string(gid)), ("Notes", .string("by global id"))])),
        ], attachments: AttachmentEdits(deletes: [attachmentGid])), options: EditOptions(useGlobalIds: true), as: who.editor01)
        #expect(update.succeeded)
        #expect(try await core.attachments(service: "TreesOfPortland", layer: 0, objectId: oid, as: .anonymous).attachmentInfos.isEmpty)
        let delete = try await core.applyEdits(service: "TreesOfPortland", layer: 0, LayerEdits(deleteGlobalIds: [gid]),
                                               options: EditOptions(useGlobalIds: true), as: who.editor01)
        #expect(delete.succeeded)
    }
}
