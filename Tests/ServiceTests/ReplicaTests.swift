import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// Replicas (service.md, "Replicas (offline sync)"): createReplica, synchronizeReplica, unRegisterReplica,
/// replicas, in the service core.
@Suite struct ReplicaTests {
    static let trees = "TreesOfPortland"

    /// The tree with `objectId` as the core answers it (layer 0, in the layer's spatial reference).
    static func tree(_ core: ServiceCore, _ objectId: Int64, version: String? = nil, service: String = trees, as caller: Caller = .anonymous) async throws -> Feature? {
        try await core.query(service: service, layer: 0, QueryParameters(objectIds: [objectId], gdbVersion: version), as: caller)
            .featureSet?.features.first
    }

    static func globalId(_ feature: Feature?, field: String = "GlobalID") -> String { feature?.attributes[field]?.string ?? "" }

    /// A replica feature updating `globalId` with `attributes` (and the given edit moment).
    static func update(_ globalId: String, _ attributes: [(String, AttributeValue)], at moment: Int64? = nil, field: String = "GlobalID") -> ReplicaFeature {
        ReplicaFeature(attributes: Attributes([(name: field, value: .string(globalId))] + attributes.map { (name: $0.0, value: $0.1) }), editMoment: moment)
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    // MARK: createReplica

    @Test func createAllLayersWithEveryFieldInTheLayersSpatialReference() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(replicaName: "all"), as: who.editor01)
        #expect(package.replicaName == "all")
        #expect(GUIDText.normalize(package.replicaID) == package.replicaID)
        #expect(package.layers.map(\.id) == [0, 1, 2, 3])
        #expect(package.layerServerGens == nil && package.syncModel == .perReplica && package.syncDirection == .bidirectional)
        for layer in package.layers {
            #expect(layer.features.count == (try await core.count(Self.trees, layer.id)), "layer \(layer.id)")
        }
        let trees = try #require(package.layers.first)
        let first = try #require(trees.features.first)
        let queried = try #require(try await Self.tree(core, 1))
        #expect(first.attributes["OBJECTID"] == .int(1))
        #expect(first.attributes["GlobalID"]?.string == Self.globalId(queried))
        #expect(first.attributes.names.count == 18, "every field: \(first.attributes.names)")  // 18 since the Trees form's Irrigated field
        #expect(first.attributes["Condition"] == queried.attributes["Condition"])
        // Web Mercator (the layer's), as the query answers it.
        #expect(first.geometry == queried.geometry)
        if case .point(let p)? = first.geometry { #expect(abs(p.x) > 1000) } else { Issue.record("no point") }
        #expect(package.serverGen > 0)
        #expect(trees.attachments.isEmpty)
    }

    @Test func createWithWhereExtentAttachmentsAndPerLayerGenerations() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        // A where clause.
        let good = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], layerQueries: [0: ReplicaLayerQuery(whereClause: "Condition = 'Good'")]),
                                                as: who.editor01)
        #expect(good.layers.count == 1)
        #expect(good.layers[0].features.count == 15)
        #expect(good.layers[0].features.allSatisfy { $0.attributes["Condition"] == .string("Good") })
        // queryOption all ignores the where; none takes nothing.
        let all = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], layerQueries: [0: ReplicaLayerQuery(queryOption: .all, whereClause: "Condition = 'Good'")]),
                                               as: who.editor01)
        #expect(all.layers[0].features.count == 24)
        let none = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], layerQueries: [0: ReplicaLayerQuery(queryOption: .none)]), as: who.editor01)
        #expect(none.layers[0].features.isEmpty)

        // An extent around two trees, in Web Mercator: only the trees inside.
        guard case .point(let a)? = try await Self.tree(core, 1)?.geometry, case .point(let b)? = try await Self.tree(core, 2)?.geometry else {
            Issue.record("no tree points"); return
        }
        let box = Geometry.envelope(Envelope(xmin: min(a.x, b.x) - 1, ymin: min(a.y, b.y) - 1, xmax: max(a.x, b.x) + 1, ymax: max(a.y, b.y) + 1))
        let expected = try await core.query(service: Self.trees, layer: 0, QueryParameters(geometry: box, inSR: .webMercator, returnIdsOnly: true), as: .anonymous).objectIds ?? []
        let area = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0, 1], geometry: box, inSpatialReference: .webMercator), as: who.editor01)
        let ids = area.layers[0].features.compactMap { $0.attributes["OBJECTID"].flatMap { if case .int(let i) = $0 { i } else { nil } } }
        #expect(ids == expected.sorted())
        #expect(ids.contains(1) && ids.contains(2) && ids.count < 24)
        // The same area in WGS84 takes the same trees.
        let wgs = Projection.project(box, from: .webMercator, to: .wgs84)
        let area84 = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], geometry: wgs, inSpatialReference: .wgs84), as: who.editor01)
        #expect(area84.layers[0].features.count == ids.count)

        // Attachments, included or not.
        let photo = Data("bark".utf8)
        _ = try await core.addAttachment(service: Self.trees, layer: 0, objectId: 2, name: "bark.txt", contentType: "text/plain", data: photo, as: who.editor01)
        let with = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], returnAttachments: true), as: who.editor01)
        #expect(with.layers[0].attachments.map(\.data) == [photo])
        #expect(with.layers[0].attachments.first?.parentGlobalId == Self.globalId(try await Self.tree(core, 2)))
        let without = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], returnAttachments: false), as: who.editor01)
        #expect(without.layers[0].attachments.isEmpty)

        // Per-layer generations.
        let perLayer = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0, 3], syncModel: .perLayer), as: who.editor01)
        #expect(perLayer.layerServerGens?.map(\.id) == [0, 3])
        #expect(perLayer.layerServerGens?.allSatisfy { $0.serverGen == perLayer.serverGen } == true)
        #expect(perLayer.serverGen >= with.serverGen)
    }

    @Test func refusals() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        await expectServiceError(499) { _ = try await core.createReplica(service: Self.trees, ReplicaRequest(), as: .anonymous) }
        await expectServiceError(404) { _ = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [9]), as: who.editor01) }
        await expectServiceError(400) { _ = try await core.createReplica(service: Self.trees, ReplicaRequest(syncModel: .none), as: who.editor01) }
        await expectServiceError(400) {
            _ = try await core.createReplica(service: Self.trees, ReplicaRequest(layerQueries: [0: ReplicaLayerQuery(whereClause: "Condition = ")]), as: who.editor01)
        }
    }

    // MARK: synchronizeReplica

    @Test func downloadsAnotherUsersEditsSinceTheGeneration() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0]), as: who.editor01)
        let three = Self.globalId(try await Self.tree(core, 3))
        let four = Self.globalId(try await Self.tree(core, 4))
        let edits = try await core.applyEdits(service: Self.trees, layer: 0, LayerEdits(
            adds: [EditFeature(attributes: Attributes([("Address", .string("1 New St")), ("Site_Type", .string("PK"))]), geometry: .point(Point(x: -13652000, y: 5704000)))],
            updates: [EditFeature(attributes: Attributes([("OBJECTID", .int(3)), ("Notes", .string("pruned by editor02"))]))],
            deletes: [4]), as: who.editor02)
        #expect(edits.succeeded)

        let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, replicaServerGen: package.serverGen, syncDirection: .download),
                                                       as: who.editor01)
        #expect(answer.replicaServerGen > package.serverGen)
        #expect(answer.editResults.isEmpty && answer.conflicts.isEmpty)
        let layer = try #require(answer.edits.first)
        #expect(layer.id == 0)
        #expect(layer.adds.map { $0.attributes["Address"] } == [.string("1 New St")])
        #expect(layer.adds.first?.attributes["GlobalID"]?.string == edits.addResults.first?.globalId)
        #expect(layer.updates.map { $0.attributes["GlobalID"]?.string } == [three])
        #expect(layer.updates.first?.attributes["Notes"] == .string("pruned by editor02"))
        #expect(layer.updates.first?.attributes["Address"] != nil, "the whole feature, not only the changed field")
        #expect(layer.deleteIds == [four])

        // Nothing new since the new generation.
        let again = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, replicaServerGen: answer.replicaServerGen, syncDirection: .download),
                                                      as: who.editor01)
        #expect(again.edits.isEmpty)
        #expect(try await core.replica(service: Self.trees, id: package.replicaID, as: who.editor01).serverGen == again.replicaServerGen)
    }

    @Test func uploadsAddsUpdatesAndDeletesByGlobalId() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0, 3]), as: who.editor01)
        let five = Self.globalId(try await Self.tree(core, 5))
        let six = Self.globalId(try await Self.tree(core, 6))
        let newId = "{6A0F8D2E-1B7C-4E55-9D3A-2F4B6C8E0A11}"
        let added = ReplicaFeature(attributes: Attributes([("GlobalID", .string(newId.lowercased())), ("OBJECTID", .int(-1)),
                                                          ("Address", .string("9 Offline Ave")), ("Site_Type", .string("TL"))]),
                                   geometry: .point(Point(x: -13652100, y: 5704100)))
        let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(
            replicaID: package.replicaID, replicaServerGen: package.serverGen,
            edits: [ReplicaLayerEdits(id: 0, adds: [added], updates: [Self.update(five, [("Condition", .string("Poor"))])], deleteIds: [six])]),
            as: who.editor01)
        let results = try #require(answer.editResults.first)
        #expect(results.succeeded, "\(results)")
        #expect(results.addResults.first?.globalId == newId)
        #expect(results.updateResults.first?.globalId == five)
        #expect(results.deleteResults.first?.globalId == six)
        #expect(answer.edits.isEmpty, "the upload is not downloaded back: \(answer.edits)")
        #expect(answer.conflicts.isEmpty)
        #expect(answer.replicaServerGen > package.serverGen)

        let stored = try await core.features(Self.trees, 0, where: "GlobalID = '\(newId)'")
        #expect(stored.first?.attributes["Address"] == .string("9 Offline Ave"))
        #expect(stored.first?.attributes["created_user"] == .string("editor01"))
        #expect(try await Self.tree(core, 5)?.attributes["Condition"] == .string("Poor"))
        #expect(try await Self.tree(core, 6) == nil)

        // The same add again (a sync repeated after its answer was lost) lands nothing twice: one feature, its values.
        let again = try await core.synchronizeReplica(service: Self.trees, SyncRequest(
            replicaID: package.replicaID, replicaServerGen: answer.replicaServerGen, edits: [ReplicaLayerEdits(id: 0, adds: [added])]), as: who.editor01)
        #expect(again.editResults.first?.addResults.first?.success == true)
        #expect(try await core.features(Self.trees, 0, where: "GlobalID = '\(newId)'").count == 1)

        // Another replica downloads the uploaded edits.
        let other = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, replicaServerGen: package.serverGen, syncDirection: .download),
                                                      as: who.editor01)
        #expect(other.edits.first?.adds.count == 1 && other.edits.first?.updates.count == 1 && other.edits.first?.deleteIds == [six])
    }

    /// Two replicas edit one tree; whichever syncs first, each field ends with the later edit's value.
    @Test(arguments: [true, false]) func lastInWinsPerFieldInEitherSyncOrder(firstSyncsFirst: Bool) async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let first = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0]), as: who.editor01)
        let second = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0]), as: who.editor02)
        let tree = Self.globalId(try await Self.tree(core, 7))
        let start = Self.now
        // The first edit (earlier) changes Notes and DBH; the second (later) changes Notes and Condition.
        let early = Self.update(tree, [("Notes", .string("early")), ("DBH", .double(11))], at: start - 2000)
        let late = Self.update(tree, [("Notes", .string("late")), ("Condition", .string("Dead"))], at: start - 1000)
        let syncs: [(ReplicaPackage, ReplicaFeature, Caller)] = [(first, early, who.editor01), (second, late, who.editor02)]
        var conflicts: [ReplicaConflict] = []
        for (package, feature, caller) in firstSyncsFirst ? syncs : syncs.reversed() {
            let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(
                replicaID: package.replicaID, replicaServerGen: package.serverGen, edits: [ReplicaLayerEdits(id: 0, updates: [feature])]), as: caller)
            #expect(answer.editResults.first?.succeeded == true)
            conflicts += answer.conflicts
            if !answer.conflicts.isEmpty {
                // The second sync downloads the merged state.
                #expect(answer.edits.first?.updates.first?.attributes["Notes"] == .string("late"))
            }
        }
        let merged = try #require(try await Self.tree(core, 7))
        #expect(merged.attributes["Notes"] == .string("late"))
        #expect(merged.attributes["DBH"]?.double == 11)
        #expect(merged.attributes["Condition"] == .string("Dead"))
        #expect(conflicts == [ReplicaConflict(layer: 0, globalId: tree, winner: firstSyncsFirst ? .client : .service)])
    }

    @Test func deleteAgainstUpdateTheLaterWins() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0]), as: who.editor01)
        let eight = Self.globalId(try await Self.tree(core, 8))
        let nine = Self.globalId(try await Self.tree(core, 9))
        let ten = Self.globalId(try await Self.tree(core, 10))
        let before = Self.now - 60_000
        // The service deletes 8 and 9 and updates 10 now.
        #expect(try await core.applyEdits(service: Self.trees, layer: 0, LayerEdits(updates: [EditFeature(attributes: Attributes([("OBJECTID", .int(10)), ("Notes", .string("service"))]))],
                                                                             deletes: [8, 9]), as: who.editor02).succeeded)
        // The client updated 8 later than that (brought back), 9 earlier (stays deleted), deleted 10 earlier (kept).
        var edits = ReplicaLayerEdits(id: 0, updates: [Self.update(eight, [("Notes", .string("revived"))], at: Self.now + 60_000),
                                                       Self.update(nine, [("Notes", .string("too old"))], at: before)],
                                      deleteIds: [ten])
        edits.deleteMoments = [ten: before]
        let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, replicaServerGen: package.serverGen, edits: [edits]),
                                                       as: who.editor01)
        #expect(answer.editResults.first?.succeeded == true, "\(answer.editResults)")
        #expect(Set(answer.conflicts.map { "\($0.globalId)=\($0.winner.rawValue)" }) == ["\(eight)=client", "\(nine)=service", "\(ten)=service"])
        #expect(try await Self.tree(core, 8)?.attributes["Notes"] == .string("revived"))
        #expect(try await Self.tree(core, 9) == nil)
        #expect(try await Self.tree(core, 10)?.attributes["Notes"] == .string("service"))
        let download = try #require(answer.edits.first)
        #expect(download.adds.map { $0.attributes["GlobalID"]?.string } == [ten], "the client deleted 10: it comes back as an add")
        #expect(download.deleteIds == [nine])
        #expect(download.updates.map { $0.attributes["GlobalID"]?.string } == [eight])

        // A later delete wins over the service's update.
        let later = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, replicaServerGen: package.serverGen,
                                                                                    edits: [ReplicaLayerEdits(id: 0, deleteIds: [ten])]), as: who.editor01)
        #expect(later.conflicts == [ReplicaConflict(layer: 0, globalId: ten, winner: .client)])
        #expect(try await Self.tree(core, 10) == nil)
    }

    @Test func rollbackOnFailureLeavesNothing() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0]), as: who.editor01)
        let eleven = Self.globalId(try await Self.tree(core, 11))
        let edits = [ReplicaLayerEdits(id: 0, updates: [Self.update(eleven, [("Notes", .string("good edit"))]),
                                                        Self.update("{00000000-0000-0000-0000-00000000ABCD}", [("Notes", .string("no such tree"))]),
                                                        Self.update(eleven, [("Address", .null)])])]
        let refused = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, replicaServerGen: package.serverGen, edits: edits),
                                                        as: who.editor01)
        let results = try #require(refused.editResults.first?.updateResults)
        #expect(results.map { $0.error?.code } == [1003, 1011, 1001])
        #expect(refused.replicaServerGen == package.serverGen)
        #expect(try await Self.tree(core, 11)?.attributes["Notes"] != .string("good edit"))
        #expect(try await core.replica(service: Self.trees, id: package.replicaID, as: who.editor01).lastSyncDate == nil)

        let partial = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, replicaServerGen: package.serverGen,
                                                                                      rollbackOnFailure: false, edits: edits), as: who.editor01)
        #expect(partial.editResults.first?.updateResults.map(\.success) == [true, false, false])
        #expect(try await Self.tree(core, 11)?.attributes["Notes"] == .string("good edit"))
        #expect(partial.replicaServerGen > package.serverGen)
    }

    @Test func attachmentsSyncBothWays() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], returnAttachments: true), as: who.editor01)
        let fourteen = Self.globalId(try await Self.tree(core, 14))
        // editor02 adds a photo on the service.
        let photo = Data("photo from editor02".utf8)
        #expect(try await core.addAttachment(service: Self.trees, layer: 0, objectId: 14, name: "p.txt", contentType: "text/plain", data: photo,
                                             as: who.editor02).addAttachmentResult?.success == true)
        // editor01 uploads one, with its own global id, and downloads editor02's.
        let mine = ReplicaAttachment(globalId: "{1E2D3C4B-5A69-4788-9A0B-C1D2E3F40516}", parentGlobalId: fourteen, name: "m.txt", contentType: "text/plain",
                                     data: Data("offline photo".utf8))
        let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(
            replicaID: package.replicaID, replicaServerGen: package.serverGen, edits: [ReplicaLayerEdits(id: 0, attachmentAdds: [mine])]), as: who.editor01)
        #expect(answer.editResults.first?.attachments?.addResults.first?.globalId == mine.globalId, "\(answer.editResults)")
        #expect(answer.edits.first?.attachmentAdds.map(\.data) == [photo])
        #expect(answer.edits.first?.attachmentAdds.first?.parentGlobalId == fourteen)
        let stored = try await core.attachments(service: Self.trees, layer: 0, objectId: 14, as: .anonymous).attachmentInfos
        #expect(Set(stored.map(\.name)) == ["p.txt", "m.txt"])
        // A replica without attachments downloads none.
        let bare = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0], returnAttachments: false), as: who.editor01)
        let deleted = try await core.deleteAttachments(service: Self.trees, layer: 0, objectId: 14, attachmentIds: stored.map(\.id), as: who.admin)
        #expect(deleted.deleteAttachmentResults.allSatisfy { $0.success })
        let none = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: bare.replicaID, syncDirection: .download), as: who.editor01)
        #expect(none.edits.isEmpty)
        let removed = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, syncDirection: .download), as: who.editor01)
        #expect(Set(removed.edits.first?.attachmentDeleteIds ?? []) == Set(stored.map(\.globalId)))
    }

    /// Per-layer sync: each layer has its own generation and direction; a layer that only uploads keeps
    /// its generation, so the service's changes still reach it on its next download.
    @Test func perLayerDirectionsAndGenerations() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0, 3], syncModel: .perLayer), as: who.editor01)
        let gens = try #require(package.layerServerGens)
        #expect(try await core.applyEdits(service: Self.trees, layer: 0, LayerEdits(deletes: [15]), as: who.editor02).succeeded)
        #expect(try await core.applyEdits(service: Self.trees, layer: 3, LayerEdits(deletes: [1]), as: who.editor02).succeeded)
        let inspection = Self.globalId(try await core.features(Self.trees, 3, where: "OBJECTID = 2").first)
        let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(
            replicaID: package.replicaID,
            syncLayers: [LayerServerGen(id: 0, serverGen: gens[0].serverGen, syncDirection: .download),
                         LayerServerGen(id: 3, serverGen: gens[1].serverGen, syncDirection: .upload)],
            edits: [ReplicaLayerEdits(id: 3, updates: [Self.update(inspection, [("Notes", .string("uploaded"))])])]), as: who.editor01)
        #expect(answer.editResults.first?.succeeded == true)
        #expect(answer.edits.map(\.id) == [0], "layer 3 only uploads")
        let newGens = try #require(answer.layerServerGens)
        #expect(newGens.first { $0.id == 0 }?.serverGen ?? 0 > gens[0].serverGen)
        #expect(newGens.first { $0.id == 3 }?.serverGen == gens[1].serverGen)
        // Uploading a layer the sync only downloads is refused.
        await expectServiceError(400) {
            _ = try await core.synchronizeReplica(service: Self.trees, SyncRequest(
                replicaID: package.replicaID, syncLayers: [LayerServerGen(id: 3, serverGen: gens[1].serverGen, syncDirection: .download)],
                edits: [ReplicaLayerEdits(id: 3, deleteIds: [inspection])]), as: who.editor01)
        }
        let later = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID, syncLayers: newGens, syncDirection: .download),
                                                      as: who.editor01)
        #expect(later.edits.map(\.id) == [3])
        #expect(later.edits.first?.deleteIds.count == 1)
    }

    // MARK: Registration

    @Test func unregisterListAndAccess() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let one = try await core.createReplica(service: Self.trees, ReplicaRequest(replicaName: "one", layers: [0]), as: who.editor01)
        let two = try await core.createReplica(service: Self.trees, ReplicaRequest(replicaName: "two", layers: [0]), as: who.editor02)
        #expect(try await core.replicas(service: Self.trees, as: who.editor01).map(\.replicaName) == ["one"])
        #expect(try await core.replicas(service: Self.trees, as: who.editor02).map(\.replicaName) == ["two"])
        #expect(try await core.replicas(service: Self.trees, as: who.admin).map(\.replicaName) == ["one", "two"])
        let info = try await core.replica(service: Self.trees, id: one.replicaID, as: who.editor01)
        #expect(info.replicaOwner == "editor01" && info.layers == [0] && info.serverGen == one.serverGen && info.gdbVersion == nil)
        // Someone else's replica is "not found", to sync or describe.
        let hidden = await expectServiceError(400) { _ = try await core.replica(service: Self.trees, id: one.replicaID, as: who.editor02) }
        #expect(hidden?.message == "Replica not found.")
        await expectServiceError(400) { _ = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: one.replicaID), as: who.editor02) }
        // The administrator may sync anyone's.
        _ = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: two.replicaID, syncDirection: .download), as: who.admin)

        try await core.unRegisterReplica(service: Self.trees, replicaID: one.replicaID, as: who.editor01)
        let gone = await expectServiceError(400) {
            _ = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: one.replicaID, replicaServerGen: one.serverGen), as: who.editor01)
        }
        #expect(gone?.message == "Replica not found.")
        #expect(try await core.replicas(service: Self.trees, as: who.admin).map(\.replicaName) == ["two"])

        // closeReplica syncs, then unregisters.
        let closed = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: two.replicaID, syncDirection: .download, closeReplica: true),
                                                       as: who.editor02)
        #expect(closed.replicaID == two.replicaID)
        #expect(try await core.replicas(service: Self.trees, as: who.admin).isEmpty)
        await expectServiceError(400) { _ = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: two.replicaID), as: who.editor02) }
    }

    @Test func replicasSurviveReopeningTheDatabaseFile() async throws {
        let path = Fixtures.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let created: ReplicaPackage
        do {
            let core = try await Fixtures.core(database: path)
            let who = try await Callers.signIn(core)
            created = try await core.createReplica(service: Self.trees, ReplicaRequest(replicaName: "kept", layers: [0], syncModel: .perLayer), as: who.editor01)
        }
        let core = try await Fixtures.core(database: path)
        let who = try await Callers.signIn(core)
        let listed = try await core.replicas(service: Self.trees, as: who.editor01)
        #expect(listed.map(\.replicaID) == [created.replicaID])
        #expect(listed.first?.layerServerGens == created.layerServerGens)
        #expect(try await core.applyEdits(service: Self.trees, layer: 0, LayerEdits(deletes: [12]), as: who.editor02).succeeded)
        let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: created.replicaID, syncLayers: created.layerServerGens,
                                                                                     syncDirection: .download), as: who.editor01)
        #expect(answer.edits.first?.deleteIds.count == 1)
        #expect(answer.layerServerGens?.first?.serverGen == answer.replicaServerGen)
    }

    @Test func registerAtGenerationAnswersNoDataAndDownloadsFromThere() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let planned = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [0]), as: who.editor01)
        #expect(try await core.applyEdits(service: Self.trees, layer: 0, LayerEdits(deletes: [13]), as: who.editor02).succeeded)
        var request = ReplicaRequest(layers: [0])
        request.registerAtGeneration = planned.serverGen
        let copy = try await core.createReplica(service: Self.trees, request, as: who.editor01)
        #expect(copy.serverGen == planned.serverGen && copy.layers.isEmpty && copy.replicaID != planned.replicaID)
        let answer = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: copy.replicaID, syncDirection: .download), as: who.editor01)
        #expect(answer.edits.first?.deleteIds.count == 1)
        request.registerAtGeneration = Self.now + 1_000_000
        await expectServiceError(400) { _ = try await core.createReplica(service: Self.trees, request, as: who.editor01) }
    }

    // MARK: Versions and capabilities

    @Test func branchVersionedReplicaSyncsWithItsVersion() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let service = "DamageAssessment"
        let version = try await core.createVersion(service: service, versionName: "offline", as: who.editor01).versionInfo.versionName
        let package = try await core.createReplica(service: service, ReplicaRequest(gdbVersion: version), as: who.editor01)
        #expect(package.gdbVersion == version)
        #expect(package.layers.first?.features.count == 30)
        // Another user cannot see a private version, so cannot make a replica of it.
        await expectServiceError(404) { _ = try await core.createReplica(service: service, ReplicaRequest(gdbVersion: version), as: who.editor02) }

        let first = try #require(try await Self.tree(core, 1, service: service))
        let gid = Self.globalId(first, field: "globalid")
        let answer = try await core.synchronizeReplica(service: service, SyncRequest(
            replicaID: package.replicaID, replicaServerGen: package.serverGen,
            edits: [ReplicaLayerEdits(id: 0, updates: [Self.update(gid, [("notes", .string("seen offline"))], field: "globalid")])]), as: who.editor01)
        #expect(answer.editResults.first?.succeeded == true, "\(answer.editResults)")
        #expect(try await Self.tree(core, 1, version: version, service: service, as: who.editor01)?.attributes["notes"] == .string("seen offline"))
        #expect(try await Self.tree(core, 1, service: service)?.attributes["notes"] == first.attributes["notes"], "DEFAULT unchanged")
        #expect(try await core.replica(service: service, id: package.replicaID, as: who.editor01).gdbVersion == version)

        // On DEFAULT (protected), editor01 may download but not upload.
        let onDefault = try await core.createReplica(service: service, ReplicaRequest(), as: who.editor01)
        #expect(onDefault.gdbVersion == "sde.DEFAULT")
        await expectServiceError(403) {
            _ = try await core.synchronizeReplica(service: service, SyncRequest(
                replicaID: onDefault.replicaID, edits: [ReplicaLayerEdits(id: 0, updates: [Self.update(gid, [("notes", .string("x"))], field: "globalid")])]), as: who.editor01)
        }
        // DEFAULT's changes reach the DEFAULT replica, not the version's.
        #expect(try await core.applyEdits(service: service, layer: 0, LayerEdits(deletes: [2]), as: who.admin).succeeded)
        let defaultSync = try await core.synchronizeReplica(service: service, SyncRequest(replicaID: onDefault.replicaID, syncDirection: .download), as: who.editor01)
        #expect(defaultSync.edits.first?.deleteIds.count == 1)

        // The version deleted under the replica: the refusal names the replica and says what to do.
        _ = try await core.deleteVersion(service: service, version: version, as: who.editor01)
        do {
            _ = try await core.synchronizeReplica(service: service, SyncRequest(replicaID: package.replicaID, syncDirection: .download), as: who.editor01)
            Issue.record("a replica of a deleted version synced")
        } catch let error as ServiceError {
            #expect(error.code == 404)
            #expect(error.details.first?.contains("no longer exists") == true && error.details.first?.contains("unregister") == true, "\(error.details)")
        }
    }

    /// A DEFAULT change older than the replica's generation that a reconcile brings into the version later
    /// is a change of the version since the generation: it is downloaded.
    @Test func reconcileBringsOlderDefaultChangesIntoTheDownload() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let service = "DamageAssessment"
        let version = try await core.createVersion(service: service, versionName: "later", as: who.editor01).versionInfo.versionName
        let three = Self.globalId(try await Self.tree(core, 3, service: service), field: "globalid")
        #expect(try await core.applyEdits(service: service, layer: 0, LayerEdits(deletes: [3]), as: who.admin).succeeded)
        let package = try await core.createReplica(service: service, ReplicaRequest(gdbVersion: version), as: who.editor01)
        #expect(package.layers.first?.features.contains { $0.attributes["globalid"]?.string == three } == true, "the version still reads 3")
        let before = try await core.synchronizeReplica(service: service, SyncRequest(replicaID: package.replicaID, replicaServerGen: package.serverGen,
                                                                                  syncDirection: .download), as: who.editor01)
        #expect(before.edits.isEmpty)
        _ = try await core.reconcile(service: service, version: version, as: who.editor01)
        let after = try await core.synchronizeReplica(service: service, SyncRequest(replicaID: package.replicaID, replicaServerGen: before.replicaServerGen,
                                                                                 syncDirection: .download), as: who.editor01)
        #expect(after.edits.first?.deleteIds == [three])
    }

    @Test func layersWithoutEditCapabilitiesOnlyDownload() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        // Species allows only Query (Neighborhoods allows Update: boundaries may be corrected).
        let package = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [2]), as: who.editor01)
        #expect(package.syncDirection == .download)
        let species = try #require(package.layers.first?.features.first?.attributes["GlobalID"]?.string)
        await expectServiceError(400) {
            _ = try await core.synchronizeReplica(service: Self.trees, SyncRequest(
                replicaID: package.replicaID, edits: [ReplicaLayerEdits(id: 2, updates: [Self.update(species, [("Common_Name", .string("x"))])])]), as: who.editor01)
        }
        let editable = try await core.createReplica(service: Self.trees, ReplicaRequest(layers: [1, 2]), as: who.editor01)
        #expect(editable.syncDirection == .bidirectional, "one layer that allows Update makes the replica bidirectional")
        let download = try await core.synchronizeReplica(service: Self.trees, SyncRequest(replicaID: package.replicaID), as: who.editor01)
        #expect(download.edits.isEmpty && download.editResults.isEmpty)
    }

    // MARK: JSON

    @Test func jsonShapesRoundTrip() throws {
        let feature = ReplicaFeature(attributes: Attributes([("OBJECTID", .int(1)), ("GlobalID", .string("{A}"))]), geometry: .point(Point(x: 1, y: 2)), editMoment: 5)
        let attachment = ReplicaAttachment(globalId: "{B}", parentGlobalId: "{A}", name: "a.txt", contentType: "text/plain", data: Data("hi".utf8))
        var edits = ReplicaLayerEdits(id: 0, adds: [feature], updates: [feature], deleteIds: ["{C}"], attachmentAdds: [attachment], attachmentDeleteIds: ["{D}"])
        edits.deleteMoments = ["{C}": 7]
        #expect(try ReplicaLayerEdits.parseList(JSON.array([edits.json]).text) == [edits])
        #expect(edits.json["features"]?["deleteIds"] == .array([.string("{C}")]))
        #expect(attachment.json["data"] == .string("aGk=") && attachment.json["size"] == .int(2))
        let package = ReplicaPackage(replicaName: "r", replicaID: "{E}", serverGen: 9, layerServerGens: [LayerServerGen(id: 0, serverGen: 9)], syncModel: .perLayer,
                                     syncDirection: .bidirectional, gdbVersion: nil, layers: [ReplicaLayerData(id: 0, features: [feature], attachments: [attachment])])
        #expect(try ReplicaPackage(json: package.json) == package)
        #expect(package.json["layerServerGens"] == .array([.object([("id", .int(0)), ("serverGen", .int(9))])]))
        let answer = SyncAnswer(replicaName: "r", replicaID: "{E}", replicaServerGen: 10, layerServerGens: nil,
                                editResults: [LayerEditResults(id: 0, addResults: [EditResult(objectId: 3, globalId: "{A}", success: true)], updateResults: [],
                                                               deleteResults: [EditResult(objectId: nil, globalId: "{C}", success: false, error: .missing("gone"))])],
                                edits: [edits], conflicts: [ReplicaConflict(layer: 0, globalId: "{A}", winner: .client)])
        #expect(try SyncAnswer(json: answer.json) == answer)
        #expect(answer.json["conflicts"] == .array([.object([("layer", .int(0)), ("globalId", .string("{A}")), ("winner", .string("client"))])]))
        var info = ReplicaInfo(replicaName: "r", replicaID: "{E}", replicaOwner: "editor01", layers: [0, 3], serverGen: 9, layerServerGens: nil, syncModel: .perReplica,
                               syncDirection: .download, gdbVersion: "editor01.v", creationDate: 1, lastSyncDate: 2)
        info.layerQueries = [0: ReplicaLayerQuery(whereClause: "DBH > 1"), 3: ReplicaLayerQuery(queryOption: .all)]
        #expect(try ReplicaInfo(json: info.json) == info)
        let queries = try ReplicaLayerQuery.parseLayerQueries(#"{"0": {"queryOption": "useFilter", "where": "DBH > 3", "useGeometry": false}, "3": {"queryOption": "none"}}"#)
        #expect(queries[0] == ReplicaLayerQuery(queryOption: .useFilter, whereClause: "DBH > 3", useGeometry: false))
        #expect(queries[3]?.queryOption == ReplicaLayerQuery.Option.none)
        #expect(try LayerServerGen.parseList(#"[{"id": 0, "serverGen": 12, "syncDirection": "upload"}]"#) == [LayerServerGen(id: 0, serverGen: 12, syncDirection: .upload)])
        #expect(throws: ServiceError.self) { try ReplicaLayerQuery.parseLayerQueries(#"{"x": {}}"#) }
    }
}
