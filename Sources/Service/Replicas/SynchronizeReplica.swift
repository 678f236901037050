import Foundation
import FeatureServiceModel
import WebMap

extension ServiceCore {
    /// `synchronizeReplica`: uploads the client's edits (by global id, in one transaction, at one new
    /// moment M in the replica's version, conflicts "last in wins": `ReplicaUpload`) and downloads the
    /// service's changes since the client's generation G, excluding the upload itself: the features whose
    /// state in the version changed in (G, M), answered as their current state (`ReplicaDownload`).
    ///
    /// The new generation is M, or the service's newest moment when nothing was uploaded. A layer that
    /// only uploads keeps its generation (the service's changes it did not download are still to come).
    /// With `rollbackOnFailure` any failed edit leaves everything as it was: the results say why, nothing
    /// is downloaded and the generation stays.
    public func synchronizeReplica(service name: String, _ request: SyncRequest, as caller: Caller) async throws -> SyncAnswer {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        let sessions = self.sessions
        do {
            return try await database.write { db in
                var sync = try ReplicaSync(db: db, service: service, policy: policy, request: request)
                return try sync.run(sessions: sessions)
            }
        } catch let rollback as ReplicaRollback {
            return rollback.answer
        }
    }
}

/// Thrown inside the sync's transaction to roll it back while answering why.
struct ReplicaRollback: Error {
    var answer: SyncAnswer
}

/// One synchronizeReplica inside its write transaction.
struct ReplicaSync {
    let db: any StoreConnection
    let service: ServiceModel
    let policy: AccessPolicy
    let request: SyncRequest
    var record: ReplicaRecord
    let version: VersionRecord
    let view: VersionView
    /// The replica's layers with their filters.
    let filters: [ReplicaLayerFilter]

    init(db: any StoreConnection, service: ServiceModel, policy: AccessPolicy, request: SyncRequest) throws {
        self.db = db
        self.service = service
        self.policy = policy
        self.request = request
        record = try ServiceCore.replicaRecord(db, service: service, id: request.replicaID, policy: policy)
        do {
            version = try ServiceCore.resolveVersion(db, service: service, name: record.versionGuid, policy: policy)
        } catch var error as ServiceError where error.code == 404 {
            // Say which replica and what to do: the GUID alone tells a crew nothing.
            error.details = ["The version \(record.versionGuid) of replica '\(record.name)' no longer exists or you may not see it "
                             + "(deleted after the replica was made?): the replica cannot sync; unregister it and generate a new one."]
            throw error
        }
        view = VersionView(version)
        let definition = try record.decodedDefinition()
        filters = try definition.layers.map { entry in
            try ReplicaLayerFilter(layer: try service.layer(entry.id), query: entry.query, area: definition.geometry, policy: policy)
        }
    }

    // MARK: Directions and generations

    private func direction(of layer: Int) -> SyncDirection {
        request.syncLayers?.first { $0.id == layer }?.syncDirection ?? request.syncDirection
    }

    private func uploads(_ layer: Int) -> Bool {
        [.bidirectional, .upload].contains(direction(of: layer)) && [.bidirectional, .upload].contains(record.direction)
    }

    private func downloads(_ layer: Int) -> Bool {
        direction(of: layer) != .upload && record.direction != .upload
    }

    /// The layers this sync covers: those `syncLayers` names, else all of the replica's.
    private var syncedLayers: [ReplicaLayerFilter] {
        guard let named = request.syncLayers, !named.isEmpty else { return filters }
        return filters.filter { filter in named.contains { $0.id == filter.layer.id } }
    }

    /// The client's generation for a layer: its `syncLayers` entry, else `replicaServerGen`, else the
    /// replica's stored one; with the version's view at that generation.
    private func generation(of layer: Int, newest: Int64) throws -> GenerationView {
        let gen = try request.syncLayers?.first { $0.id == layer }?.serverGen ?? request.replicaServerGen ?? record.generation(of: layer)
        guard gen >= 0, gen <= newest else {
            throw ServiceError.invalidParameter("The generation \(gen) is not one of this service (its newest is \(newest)).")
        }
        let snapshot = try db.fetchRecord(ReplicaGenerationRecord.self, """
            SELECT * FROM replicaGeneration WHERE replicaId = \(record.id) AND generation <= \(gen) ORDER BY generation DESC LIMIT 1
            """)
        return GenerationView(generation: gen, branch: view.branch, ancestorMoment: snapshot?.ancestorMoment ?? view.ancestorMoment,
                              baseMoment: snapshot?.baseMoment ?? view.baseMoment)
    }

    // MARK: Run

    mutating func run(sessions: SessionRegistry) throws -> SyncAnswer {
        guard let newest = try db.fetchValue("SELECT lastMoment FROM service WHERE name = \(service.name)", as: Int64.self) else {
            throw ServiceError.serviceNotFound(service.name)
        }
        let edits = request.edits.filter { !$0.isEmpty }
        var layersById: [Int: ReplicaLayerFilter] = [:]
        for filter in filters { layersById[filter.layer.id] = filter }
        let options = EditOptions(rollbackOnFailure: request.rollbackOnFailure, useGlobalIds: true, gdbVersion: version.guid)
        // Every entry names a layer of the replica, an empty one too: a wrong id is a client's mistake to hear of.
        for entry in request.edits where layersById[entry.id] == nil {
            throw ServiceError.invalidParameter("edits names layer \(entry.id), which is not in the replica (its layers: \(filters.map { String($0.layer.id) }.joined(separator: ","))).")
        }
        for entry in edits {
            guard let filter = layersById[entry.id] else { continue }
            guard uploads(entry.id) else {
                throw ServiceError.notSupported("The replica '\(record.name)' does not upload edits of layer \(entry.id) (replica syncDirection \(record.direction.rawValue), sync direction \(direction(of: entry.id).rawValue)).")
            }
            try ServiceCore.checkCapabilities(
                LayerEdits(id: entry.id, adds: entry.adds.map { EditFeature(attributes: $0.attributes) }, updates: entry.updates.map { EditFeature(attributes: $0.attributes) },
                           deleteGlobalIds: entry.deleteIds,
                           attachments: AttachmentEdits(adds: entry.attachmentAdds.map { _ in AttachmentUpload(name: "", contentType: "", data: Data()) },
                                                        updates: entry.attachmentUpdates.map { _ in AttachmentUpload(name: "", contentType: "", data: Data()) },
                                                        deletes: entry.attachmentDeleteIds)),
                layer: filter.layer, options: options)
        }
        var generations: [Int: GenerationView] = [:]
        for filter in syncedLayers { generations[filter.layer.id] = try generation(of: filter.layer.id, newest: newest) }

        // What changed on the service since each layer's generation, read before the upload writes anything.
        var pending: [ReplicaDownload] = []
        for filter in syncedLayers where downloads(filter.layer.id) {
            pending.append(try ReplicaDownload(db: db, filter: filter, since: generations[filter.layer.id]!, view: view,
                                               attachments: record.returnAttachments))
        }

        var results: [LayerEditResults] = []
        var conflicts: [ReplicaConflict] = []
        var kept: [Int: Set<Int64>] = [:]
        var moment = newest
        if !edits.isEmpty {
            try policy.requireEdit(version)
            try sessions.checkEdit(version: version, sessionID: nil, in: db)
            moment = try ServiceCore.nextMoment(db, service: service.name)
            var writer = EditWriter(db: db, service: service, version: version, moment: moment, policy: policy, options: options)
            for entry in edits {
                let filter = layersById[entry.id]!
                let upload = ReplicaUpload(db: db, layer: filter.layer, generation: try generations[entry.id] ?? generation(of: entry.id, newest: newest),
                                           view: view, moment: moment)
                let outcome = try upload.apply(entry, writer: &writer)
                results.append(outcome.results)
                conflicts += outcome.conflicts
                kept[entry.id] = outcome.keptAfterClientDelete
            }
            if request.rollbackOnFailure && !results.allSatisfy(\.succeeded) {
                throw ReplicaRollback(answer: SyncAnswer(
                    replicaName: record.name, replicaID: record.id, replicaServerGen: request.replicaServerGen ?? record.serverGen,
                    layerServerGens: try record.decodedLayerGens(), editResults: RollbackRequest(results: results).markedResults, edits: [], conflicts: []))
            }
            try writer.finish(touchedLayers: Set(edits.compactMap { layersById[$0.id]?.layer.key }))
        }

        let downloaded = try pending.map { try $0.answer(keptAfterClientDelete: kept[$0.filter.layer.id] ?? []) }
        return try finish(newGeneration: moment, downloadedLayers: Set(pending.map(\.filter.layer.id)), results: results,
                          edits: downloaded.filter { !$0.isEmpty }, conflicts: conflicts)
    }

    /// Moves the generations of the layers that downloaded (all of them in the per-replica model when
    /// anything downloaded) to `newGeneration`, records the version's view there, and answers.
    private mutating func finish(newGeneration: Int64, downloadedLayers: Set<Int>, results: [LayerEditResults], edits: [ReplicaLayerEdits],
                                 conflicts: [ReplicaConflict]) throws -> SyncAnswer {
        var layerGens = try record.decodedLayerGens()
        if var gens = layerGens {
            for index in gens.indices where downloadedLayers.contains(gens[index].id) { gens[index].serverGen = newGeneration }
            layerGens = gens
            record.layerServerGens = JSON.array(gens.map(\.json)).text
            record.serverGen = gens.map(\.serverGen).min() ?? newGeneration
        } else if !downloadedLayers.isEmpty {
            record.serverGen = newGeneration
        }
        record.lastSyncDate = ServiceCore.nowMillis()
        if request.closeReplica {
            try ReplicaStore.delete(db, record)
        } else {
            try ReplicaStore.update(db, record)
            try ReplicaStore.saveGeneration(db, ReplicaGenerationRecord(replicaId: record.id, generation: newGeneration,
                                                                        ancestorMoment: view.ancestorMoment, baseMoment: view.baseMoment))
        }
        return SyncAnswer(replicaName: record.name, replicaID: record.id, replicaServerGen: record.serverGen, layerServerGens: layerGens,
                          editResults: results, edits: edits, conflicts: conflicts)
    }
}
