import Foundation
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

/// Offline field work through the runtime (runtime.md, "Offline"): geodatabases generated from one in-process
/// service core (two crews signed in as editor01 and editor02), edited through the same feature-table API,
/// and synced back.
@Suite struct OfflineSyncTests {
    /// One service core (TreesOfPortland, the samples' users) and a temporary folder for the files.
    struct Field {
        let core: ServiceCore
        let folder: String

        init() async throws {
            core = try await ServiceCore.open(.init(database: ":memory:", sampleFolders: [Samples.folder + "/TreesOfPortland"], usersFile: Samples.usersFile))
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-offline-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        func service(_ credential: Credential = Runtimes.editor01) async throws -> InProcessFeatureService {
            let service = InProcessFeatureService(core: core, serviceName: "TreesOfPortland")
            try await service.signIn(credential)
            return service
        }

        /// A geodatabase of the Trees layer and the Inspections table, generated as `credential`.
        func generate(_ name: String, as credential: Credential = Runtimes.editor01, extent: Envelope? = nil,
                      attachments: Bool = true) async throws -> (SyncTask, OfflineGeodatabase) {
            let task = SyncTask(service: try await service(credential))
            var parameters = try await task.defaultGenerateParameters(extent: extent)
            parameters.layers = [0, 3]
            parameters.returnAttachments = attachments
            let file = try await task.generateGeodatabase(parameters: parameters, to: path(name)).result()
            return (task, file)
        }

        func path(_ name: String) -> String { folder + "/" + name + ".geodatabase" }

        /// The service's tree `objectId`, as editor01 reads it.
        func serviceTree(_ objectId: Int64) async throws -> Attributes? {
            let set = try await service().queryFeatures(layer: 0, QueryParameters(where: "OBJECTID = \(objectId)"))
            return set.features.first?.attributes
        }
    }

    /// Offline edits of one tree, applied into the file.
    static func editTree(_ file: OfflineGeodatabase, _ objectId: Int64, _ changes: KeyValuePairs<String, AttributeValue>) async throws {
        let geodatabase = ServiceGeodatabase(service: file.featureService)
        try await geodatabase.load()
        let trees = try await geodatabase.table(layerID: 0)
        var tree = try await trees.feature(objectId: objectId)
        for (name, value) in changes { tree[name] = value }
        try await trees.update(tree)
        try await geodatabase.applyEdits()
    }

    static func localTree(_ file: OfflineGeodatabase, _ objectId: Int64) async throws -> TableFeature {
        let geodatabase = ServiceGeodatabase(service: file.featureService)
        try await geodatabase.load()
        return try await geodatabase.table(layerID: 0).feature(objectId: objectId)
    }

    @Test func generateWritesTheLayersRowsAndAttachmentsIntoANewFile() async throws {
        let field = try await Field()
        let (_, file) = try await field.generate("crew1")
        defer { file.close() }
        let summaries = try await file.core.offlineLayerSummaries()
        let serviceCount = try await field.service().queryCount(layer: 0, QueryParameters(where: "1=1"))
        #expect(summaries.map(\.id) == [0, 3])
        #expect(summaries.first?.features == serviceCount)
        #expect(serviceCount > 0)
        let state = try await file.state()
        #expect(state.isRegistered)
        #expect(state.user == "editor01")
        #expect(try await file.hasPendingEdits() == false)
        // The same feature-table API reads the file.
        let tree = try await Self.localTree(file, 1)
        #expect(tree["Address"] == (try await field.serviceTree(1))?["Address"])
        // An existing file is never overwritten.
        let again = await runtimeError { _ = try await field.generate("crew1") }
        #expect(again?.identifier == RuntimeError.Identifier.offlineGeodatabase)
    }

    @Test func anExtentTakesOnlyTheTreesInsideIt() async throws {
        let field = try await Field()
        let all = try await field.service().queryFeatures(layer: 0, QueryParameters(where: "1=1", outSR: .wgs84))
        let xs = all.features.compactMap { feature -> Double? in if case .point(let p)? = feature.geometry { return p.x } else { return nil } }.sorted()
        let ys = all.features.compactMap { feature -> Double? in if case .point(let p)? = feature.geometry { return p.y } else { return nil } }
        let middle = xs[xs.count / 2]
        let west = Envelope(xmin: xs.first! - 0.001, ymin: ys.min()! - 0.001, xmax: middle, ymax: ys.max()! + 0.001)
        let expected = xs.filter { $0 <= middle }.count
        let (_, file) = try await field.generate("west", extent: west)
        defer { file.close() }
        let summaries = try await file.core.offlineLayerSummaries()
        #expect(summaries.first { $0.id == 0 }?.features == expected)
        #expect(expected < xs.count)
    }

    @Test(arguments: [true, false])
    func twoCrewsOnOneTreeEndInTheLastInWinsStateWhicheverSyncsFirst(crew1First: Bool) async throws {
        let field = try await Field()
        let (task1, crew1) = try await field.generate("crew1", as: Runtimes.editor01)
        let (task2, crew2) = try await field.generate("crew2", as: Runtimes.editor02)
        defer { crew1.close(); crew2.close() }
        // Crew 1 edits first (Condition and Notes), crew 2 later (Condition and DBH).
        try await Self.editTree(crew1, 1, ["Condition": .string("Fair"), "Notes": .string("crew 1 was here")])
        try await Task.sleep(for: .milliseconds(20))
        try await Self.editTree(crew2, 1, ["Condition": .string("Poor"), "DBH": .double(42.5)])
        #expect(try await crew1.hasPendingEdits())

        let first = crew1First ? (task1, crew1) : (task2, crew2)
        let second = crew1First ? (task2, crew2) : (task1, crew1)
        _ = try await first.0.sync(geodatabase: first.1)
        let outcome = try await second.0.sync(geodatabase: second.1)
        #expect(outcome.conflicts.count == 1)
        #expect(outcome.conflicts.first?.winner == (crew1First ? .local : .service))
        _ = try await first.0.sync(geodatabase: first.1)

        // Every field: the later edit where both changed it, the only edit elsewhere.
        let tree = try #require(try await field.serviceTree(1))
        #expect(tree["Condition"] == .string("Poor"))
        #expect(tree["Notes"] == .string("crew 1 was here"))
        #expect(tree["DBH"]?.double == 42.5)
        for file in [crew1, crew2] {
            let local = try await Self.localTree(file, 1)
            #expect(local["Condition"] == .string("Poor"))
            #expect(local["Notes"] == .string("crew 1 was here"))
            #expect(local["DBH"]?.double == 42.5)
            #expect(try await file.hasPendingEdits() == false)
        }
    }

    @Test func addsUpdatesAndDeletesTravelBothWays() async throws {
        let field = try await Field()
        let (task1, crew1) = try await field.generate("crew1")
        let (task2, crew2) = try await field.generate("crew2", as: Runtimes.editor02)
        defer { crew1.close(); crew2.close() }
        let before = try await field.service().queryCount(layer: 0, QueryParameters(where: "1=1"))

        // Crew 1 offline: a new tree, a changed tree, a removed tree.
        let geodatabase = ServiceGeodatabase(service: crew1.featureService)
        try await geodatabase.load()
        let trees = try await geodatabase.table(layerID: 0)
        let added = try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string("1 Offline Way"), "Condition": .string("Good")]),
                                                                  geometry: point(-122.65, 45.52), spatialReference: .wgs84))
        var second = try await trees.feature(objectId: 2)
        second["Notes"] = .string("checked offline")
        try await trees.update(second)
        try await trees.delete(try await trees.feature(objectId: 3))
        try await geodatabase.applyEdits()
        _ = added
        let pending = try await crew1.pendingEdits().first { $0.layer == 0 }
        #expect(pending?.adds == 1 && pending?.updates == 1 && pending?.deletes == 1)

        let up = try await task1.sync(geodatabase: crew1)
        #expect(up.uploaded.adds == 1 && up.uploaded.updates == 1 && up.uploaded.deletes == 1)
        #expect(try await field.service().queryCount(layer: 0, QueryParameters(where: "1=1")) == before)
        let offlineWay = try await field.service().queryFeatures(layer: 0, QueryParameters(where: "Address = '1 Offline Way'"))
        #expect(offlineWay.features.count == 1)
        #expect(try await field.serviceTree(2)?["Notes"] == .string("checked offline"))
        #expect(try await field.serviceTree(3) == nil)

        // Crew 2 brings them down.
        let down = try await task2.sync(geodatabase: crew2, direction: .download)
        #expect(down.downloaded.adds == 1 && down.downloaded.updates == 1 && down.downloaded.deletes == 1)
        let crew2Trees = try await { () async throws -> FeatureTable in
            let g = ServiceGeodatabase(service: crew2.featureService)
            try await g.load()
            return try await g.table(layerID: 0)
        }()
        #expect(try await crew2Trees.count(FeatureQuery(where: "Address = '1 Offline Way'")) == 1)
        #expect(try await crew2Trees.feature(objectId: 2)["Notes"] == .string("checked offline"))
        #expect(await runtimeError { _ = try await crew2Trees.feature(objectId: 3) }?.identifier == RuntimeError.Identifier.featureNotFound)

        // Syncing again with nothing new changes nothing and sends nothing.
        let idle = try await task1.sync(geodatabase: crew1)
        #expect(idle.uploaded == SyncResult.Counts())
        #expect(try await field.service().queryCount(layer: 0, QueryParameters(where: "1=1")) == before)
    }

    @Test func attachmentsTravelBothWays() async throws {
        let field = try await Field()
        let (task1, crew1) = try await field.generate("crew1")
        let (task2, crew2) = try await field.generate("crew2", as: Runtimes.editor02)
        defer { crew1.close(); crew2.close() }
        let geodatabase = ServiceGeodatabase(service: crew1.featureService)
        try await geodatabase.load()
        let trees = try await geodatabase.table(layerID: 0)
        let tree = try await trees.feature(objectId: 1)
        let bytes = Data("a photo of tree 1".utf8)
        _ = try await trees.addAttachment(to: tree, name: "tree1.jpg", contentType: "image/jpeg", data: bytes)
        try await geodatabase.applyEdits()
        _ = try await task1.sync(geodatabase: crew1)
        let online = try await field.service().attachments(layer: 0, objectId: 1, gdbVersion: nil)
        let uploaded = try #require(online.first { $0.name == "tree1.jpg" })
        #expect(try await field.service().attachmentData(layer: 0, objectId: 1, attachmentId: uploaded.id, gdbVersion: nil) == bytes)

        _ = try await task2.sync(geodatabase: crew2)
        let crew2Geodatabase = ServiceGeodatabase(service: crew2.featureService)
        try await crew2Geodatabase.load()
        let crew2Trees = try await crew2Geodatabase.table(layerID: 0)
        let local = try await crew2Trees.attachments(of: try await crew2Trees.feature(objectId: 1))
        let downloaded = try #require(local.first { $0.name == "tree1.jpg" })
        #expect(try await crew2Trees.attachmentData(of: try await crew2Trees.feature(objectId: 1), attachmentId: downloaded.id) == bytes)
    }

    @Test func anUnregisteredReplicaCannotSyncAndItsFileIsReadOnly() async throws {
        let field = try await Field()
        let (task, file) = try await field.generate("crew1")
        defer { file.close() }
        try await task.unregister(geodatabase: file)
        #expect(try await file.state().isRegistered == false)
        let sync = await runtimeError { _ = try await task.sync(geodatabase: file) }
        #expect(sync?.identifier == RuntimeError.Identifier.offlineGeodatabase)
        let edit = await runtimeError { try await Self.editTree(file, 1, ["Notes": .string("too late")]) }
        #expect(edit?.message.contains("read-only") == true)
        // The service no longer knows the replica.
        let state = try await file.state()
        let direct = await runtimeError { _ = try await field.service().synchronizeReplica(SyncRequest(replicaID: state.replicaID, replicaServerGen: state.serverGen)) }
        #expect(direct?.identifier == RuntimeError.Identifier.serviceError)
        #expect(direct?.message.lowercased().contains("replica not found") == true)
    }

    @Test func aSecondOpenOfAFileInUseIsRefused() async throws {
        let field = try await Field()
        let (_, file) = try await field.generate("crew1")
        let second = await runtimeError { _ = try await OfflineGeodatabase.open(file.path) }
        #expect(second?.identifier == RuntimeError.Identifier.inUse)
        file.close()
        let reopened = try await OfflineGeodatabase.open(file.path)
        reopened.close()
    }

    @Test func aSyncThatCannotReachTheServiceChangesNothingAndARetrySucceeds() async throws {
        let field = try await Field()
        let (task, file) = try await field.generate("crew1")
        defer { file.close() }
        try await Self.editTree(file, 4, ["Notes": .string("waiting for network")])
        let port = try SilentListener.closedPort()
        let unreachable = try RemoteFeatureService(url: "http://127.0.0.1:\(port)/arcgis/rest/services/TreesOfPortland/FeatureServer", timeout: .seconds(2))
        let failure = await runtimeError { _ = try await SyncTask(service: unreachable).sync(geodatabase: file) }
        try await unreachable.shutdown()
        #expect(failure?.identifier == RuntimeError.Identifier.unreachable)
        #expect(try await file.pendingEdits().first { $0.layer == 0 }?.updates == 1)
        _ = try await task.sync(geodatabase: file)
        #expect(try await field.serviceTree(4)?["Notes"] == .string("waiting for network"))
        #expect(try await file.hasPendingEdits() == false)
    }

    /// The service applied an upload but its answer never reached the crew (the process was killed, the network
    /// dropped): the file still holds the edits as pending, and the next sync sends them again.
    @Test func aSyncWhoseAnswerWasLostLandsEveryEditOnceWhenRepeated() async throws {
        let field = try await Field()
        let (task, file) = try await field.generate("crew1")
        defer { file.close() }
        let geodatabase = ServiceGeodatabase(service: file.featureService)
        try await geodatabase.load()
        let trees = try await geodatabase.table(layerID: 0)
        _ = try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string("2 Replay St")]), geometry: point(-122.65, 45.52), spatialReference: .wgs84))
        var six = try await trees.feature(objectId: 6)
        six["Notes"] = .string("replayed")
        try await trees.update(six)
        try await trees.delete(try await trees.feature(objectId: 7))
        _ = try await trees.addAttachment(to: try await trees.feature(objectId: 6), name: "six.jpg", contentType: "image/jpeg", data: Data("6".utf8))
        try await geodatabase.applyEdits()

        // The first upload lands; its answer is thrown away.
        let state = try await file.state()
        let (edits, _) = try await file.core.offlineChanges()
        let lost = try await field.service().synchronizeReplica(SyncRequest(replicaID: state.replicaID, replicaServerGen: state.serverGen, edits: edits))
        let allLanded = lost.editResults.allSatisfy { $0.succeeded }
        #expect(allLanded)
        #expect(try await file.hasPendingEdits())

        let again = try await task.sync(geodatabase: file)
        #expect(again.uploaded.adds == 1)
        #expect(again.conflicts.isEmpty)
        #expect(try await field.service().queryCount(layer: 0, QueryParameters(where: "Address = '2 Replay St'")) == 1)
        #expect(try await field.serviceTree(6)?["Notes"] == .string("replayed"))
        #expect(try await field.serviceTree(7) == nil)
        #expect(try await field.service().attachments(layer: 0, objectId: 6, gdbVersion: nil).filter { $0.name == "six.jpg" }.count == 1)
        #expect(try await file.hasPendingEdits() == false)
    }

    @Test func aDeltaDownloadedByOtherMeansIsImportedOnce() async throws {
        let field = try await Field()
        let (task1, crew1) = try await field.generate("crew1")
        let (_, crew2) = try await field.generate("crew2", as: Runtimes.editor02)
        defer { crew1.close(); crew2.close() }
        try await Self.editTree(crew1, 8, ["Notes": .string("from a delta")])
        _ = try await task1.sync(geodatabase: crew1)
        // Crew 2's changes fetched elsewhere (a synchronizeReplica answer saved to a file).
        let state = try await crew2.state()
        let answer = try await field.service(Runtimes.editor02).synchronizeReplica(
            SyncRequest(replicaID: state.replicaID, replicaServerGen: state.serverGen, syncDirection: .download))
        let delta = field.folder + "/download.json"
        try answer.json.text.write(toFile: delta, atomically: true, encoding: .utf8)
        let counts = try await SyncTask.importDelta(geodatabase: crew2, from: delta)
        #expect(counts.updates == 1)
        #expect(try await Self.localTree(crew2, 8)["Notes"] == .string("from a delta"))
        #expect(try await crew2.state().serverGen == answer.replicaServerGen)
        #expect(try await crew2.hasPendingEdits() == false)
        let again = await runtimeError { _ = try await SyncTask.importDelta(geodatabase: crew2, from: delta) }
        #expect(again?.identifier == RuntimeError.Identifier.offlineGeodatabase)
        // A delta of another replica is refused.
        let other = await runtimeError { _ = try await SyncTask.importDelta(geodatabase: crew1, from: delta) }
        #expect(other?.message.contains("belongs to replica") == true)
    }

    @Test func aRegisteredCopySyncsAsAReplicaOfItsOwn() async throws {
        let field = try await Field()
        let (task, original) = try await field.generate("planned")
        let originalState = try await original.state()
        original.close()
        let copyPath = field.path("copy")
        try FileManager.default.copyItem(atPath: field.path("planned"), toPath: copyPath)
        let copy = try await OfflineGeodatabase.open(copyPath)
        defer { copy.close() }
        let registered = try await task.register(copy: copy)
        #expect(registered.replicaID != originalState.replicaID)
        #expect(registered.serverGen == originalState.serverGen)
        let replicas = try await field.service().replicas().map(\.replicaID)
        #expect(replicas.contains(registered.replicaID) && replicas.contains(originalState.replicaID))
        try await Self.editTree(copy, 11, ["Notes": .string("from the copy")])
        _ = try await task.sync(geodatabase: copy)
        #expect(try await field.serviceTree(11)?["Notes"] == .string("from the copy"))
        // The original, reopened, syncs with its own replica and receives the copy's edit.
        let reopened = try await OfflineGeodatabase.open(field.path("planned"))
        defer { reopened.close() }
        _ = try await task.sync(geodatabase: reopened)
        #expect(try await Self.localTree(reopened, 11)["Notes"] == .string("from the copy"))
    }

    @Test func exportingADeltaChangesNothingAndIsRepeatable() async throws {
        let field = try await Field()
        let (_, file) = try await field.generate("crew1")
        defer { file.close() }
        try await Self.editTree(file, 5, ["Notes": .string("in a delta")])
        let stateBefore = try await file.state()
        let first = field.folder + "/delta1.json", second = field.folder + "/delta2.json"
        let counts = try await SyncTask.exportDelta(geodatabase: file, to: first)
        try await SyncTask.exportDelta(geodatabase: file, to: second)
        #expect(counts.updates == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        #expect(try await file.state() == stateBefore)
        #expect(try await file.hasPendingEdits())
        let text = try String(contentsOfFile: first, encoding: .utf8)
        #expect(text.contains("in a delta"))
        #expect(text.contains(stateBefore.replicaID))
    }
}
