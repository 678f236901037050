import Foundation
import FeatureServiceModel
import WebMap

extension ServiceCore {
    /// `createReplica`: registers a replica of some layers of a service (in one version on a
    /// branch-versioned service) and answers their rows as the version reads them at the replica's
    /// generation: the service's newest moment when the data was read. With `registerAtGeneration` the
    /// replica starts at that generation and no data is answered (a copy of pre-planned data).
    ///
    /// A service none of whose replicated layers allows create, update or delete gives a download-only
    /// replica. Layers without a global id field cannot be replicated.
    public func createReplica(service name: String, _ request: ReplicaRequest, as caller: Caller) async throws -> ReplicaPackage {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        try policy.requireQuery()
        // dataFormat: the core answers the data either way; for sqlite the caller writes it into a local
        // geodatabase file (`createOfflineGeodatabase`, as the HTTP face does).
        guard request.syncModel != .none else { throw ServiceError.notSupported("syncModel none is not supported: ask for perReplica or perLayer.") }

        var unique: [Int] = []
        for id in request.layers.isEmpty ? service.layers.map(\.id) : request.layers where !unique.contains(id) { unique.append(id) }
        let ids = unique
        let layers = try ids.map { try service.layer($0) }
        for layer in layers where layer.globalIdField == nil {
            throw ServiceError.invalidParameter("\(layer.title) has no global id field: only layers and tables with a global id can be replicated.")
        }
        // As ArcGIS does: only layers whose capabilities include Sync (what the service advertises) are replicated.
        let unsynced = layers.filter { !$0.metadata.capabilities.contains("Sync") }
        if !unsynced.isEmpty {
            throw ServiceError.invalidParameter("Sync is not enabled on \(unsynced.map(\.title).joined(separator: ", ")): its capabilities lack Sync, so it cannot be replicated.")
        }
        var area: Geometry?
        if let geometry = request.geometry {
            let fallback = service.root["spatialReference"].flatMap(SpatialReference.init(json:))?.normalized ?? .webMercator
            area = Projection.project(geometry, from: try Projection.system(of: request.inSpatialReference, default: fallback), to: .wgs84)
        }
        let definition = ReplicaDefinition(layers: layers.map { .init(id: $0.id, query: request.layerQueries[$0.id] ?? ReplicaLayerQuery()) },
                                           geometry: area)
        let filters = try zip(layers, definition.layers).map { try ReplicaLayerFilter(layer: $0, query: $1.query, area: area, policy: policy) }
        let editable = layers.contains { $0.capabilities.canAdd || $0.capabilities.canUpdate || $0.capabilities.canDelete }
        let direction: SyncDirection = !editable || request.syncDirection == .snapshot ? .download : request.syncDirection
        let owner = policy.actingName

        return try await database.write { db in
            let version = try Self.resolveVersion(db, service: service, name: request.gdbVersion, policy: policy)
            let view = VersionView(version)
            guard let current = try db.fetchValue("SELECT lastMoment FROM service WHERE name = \(service.name)", as: Int64.self) else {
                throw ServiceError.serviceNotFound(service.name)
            }
            var generation = current
            if let at = request.registerAtGeneration {
                guard at >= 0, at <= current else {
                    throw ServiceError.invalidParameter("registerAtGeneration \(at) is not a generation of this service (its newest is \(current)).")
                }
                generation = at
            }
            var data: [ReplicaLayerData] = []
            if request.registerAtGeneration == nil {
                for filter in filters {
                    let rows = try filter.rows(db, view: view)
                    var attachments: [ReplicaAttachment] = []
                    if request.returnAttachments && filter.layer.metadata.hasAttachments {
                        for row in rows {
                            for attachment in try AttachmentStore.visible(db, layerKey: filter.layer.key, parentObjectId: row.objectId, view: view) {
                                attachments.append(try ReplicaHistory.attachment(db, attachment))
                            }
                        }
                    }
                    let moments = try ReplicaStore.editMoments(db, layerKey: filter.layer.key)
                    data.append(ReplicaLayerData(id: filter.layer.id, features: try rows.map { try ReplicaHistory.feature(db, $0, layer: filter.layer, moments: moments) },
                                                 attachments: attachments))
                }
            }
            let id = GUIDText.make()
            let layerGens = request.syncModel == .perLayer ? ids.map { LayerServerGen(id: $0, serverGen: generation) } : nil
            let record = ReplicaRecord(
                id: id, service: service.name, name: request.replicaName ?? "replica-\(id.dropFirst().prefix(8))", owner: owner,
                versionGuid: version.guid, definition: definition.json.text, syncModel: request.syncModel.rawValue,
                syncDirection: direction.rawValue, returnAttachments: request.returnAttachments, serverGen: generation,
                layerServerGens: layerGens.map { JSON.array($0.map(\.json)).text }, creationDate: Self.nowMillis(), lastSyncDate: nil)
            try db.insert(record)
            try ReplicaStore.saveGeneration(db, ReplicaGenerationRecord(replicaId: id, generation: generation, ancestorMoment: view.ancestorMoment,
                                                                        baseMoment: view.baseMoment))
            return ReplicaPackage(replicaName: record.name, replicaID: id, serverGen: generation, layerServerGens: layerGens,
                                  syncModel: request.syncModel, syncDirection: direction,
                                  gdbVersion: service.isBranchVersioned ? version.qualifiedName : nil, layers: data)
        }
    }

    /// `unRegisterReplica`: forgets the replica; its later syncs answer "Replica not found.".
    public func unRegisterReplica(service name: String, replicaID: String, as caller: Caller) async throws {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        try await database.write { db in
            let record = try Self.replicaRecord(db, service: service, id: replicaID, policy: policy)
            try ReplicaStore.delete(db, record)
        }
    }

    /// `replicas`: the caller's replicas of the service (every replica for administrators and the
    /// service's owners), oldest first.
    public func replicas(service name: String, as caller: Caller) async throws -> [ReplicaInfo] {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        return try await database.read { db in
            try db.fetchRecords(ReplicaRecord.self, "SELECT * FROM replica WHERE service = \(service.name) ORDER BY creationDate, id")
                .filter { Self.mayUse($0, policy: policy) }
                .map { try Self.info($0, db: db, service: service) }
        }
    }

    /// `replicas/<id>`: one replica the caller may use.
    public func replica(service name: String, id: String, as caller: Caller) async throws -> ReplicaInfo {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        return try await database.read { db in
            try Self.info(try Self.replicaRecord(db, service: service, id: id, policy: policy), db: db, service: service)
        }
    }

    // MARK: Helpers

    /// The replica's owner, administrators and the service's owners may use (sync, describe, unregister) it.
    static func mayUse(_ record: ReplicaRecord, policy: AccessPolicy) -> Bool {
        policy.isAdministrator || policy.ownsService || policy.caller.username?.caseInsensitiveCompare(record.owner) == .orderedSame
    }

    /// The replica `id` of `service`, when the caller may use it; otherwise "Replica not found." (so that
    /// others' replicas do not leak).
    static func replicaRecord(_ db: any StoreConnection, service: ServiceModel, id: String, policy: AccessPolicy) throws -> ReplicaRecord {
        guard let key = GUIDText.normalize(id), let record = try db.fetchRecord(ReplicaRecord.self, "SELECT * FROM replica WHERE id = \(key)"),
              record.service.caseInsensitiveCompare(service.name) == .orderedSame, mayUse(record, policy: policy) else {
            throw ServiceError.replicaNotFound(id)
        }
        return record
    }

    static func info(_ record: ReplicaRecord, db: any StoreConnection, service: ServiceModel) throws -> ReplicaInfo {
        let version = try db.fetchRecord(VersionRecord.self, "SELECT * FROM version WHERE guid = \(record.versionGuid)")
        let definition = try record.decodedDefinition()
        var info = ReplicaInfo(replicaName: record.name, replicaID: record.id, replicaOwner: record.owner,
                           layers: definition.layers.map(\.id), serverGen: record.serverGen,
                           layerServerGens: try record.decodedLayerGens(), syncModel: record.model, syncDirection: record.direction,
                           gdbVersion: service.isBranchVersioned ? version?.qualifiedName : nil,
                           creationDate: record.creationDate, lastSyncDate: record.lastSyncDate)
        for layer in definition.layers { info.layerQueries[layer.id] = layer.query }
        return info
    }
}
