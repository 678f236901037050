import Foundation
import WebMap
import FeatureServiceModel

/// Writing a sync's outcome into an offline geodatabase, in one transaction with the new replica state:
/// a process killed half-way leaves the file as it was before.
extension ServiceCore {
    /// Marks the local edits up to `through` as synced (when `uploaded`), then writes the service's changes
    /// (by global id) at one new local moment recorded as a download, and saves the state `update` makes.
    /// A feature with a local edit still pending (a download-only sync) keeps the fields it changed locally
    /// when its local edit is later than the service's ("last in wins"). Answers the download moment.
    @discardableResult
    public func applyOfflineSync(uploadedThrough through: Int64?, download: [ReplicaLayerEdits],
                                 update: @escaping @Sendable (inout OfflineReplicaState) -> Void) async throws -> Int64 {
        guard let name = serviceNames.first else { throw ServiceError.internal("The file holds no service.") }
        let service = try self.service(name)
        return try await database.write { db in
            guard var state = try OfflineStateStore.read(db) else { throw ServiceError.invalidParameter("This file is not an offline geodatabase.") }
            if let through {
                state.syncedThrough = max(state.syncedThrough, through)
                state.downloadMoments = state.downloadMoments.filter { $0 > state.syncedThrough }
            }
            let moment = try Self.nextMoment(db, service: service.name)
            var touched = Set<Int64>()
            for layerEdits in download where !layerEdits.isEmpty {
                guard let layer = service.layers.first(where: { $0.id == layerEdits.id }) else { continue }
                var writer = try DownloadWriter(db: db, layer: layer, moment: moment, state: state)
                try writer.apply(layerEdits)
                touched.insert(layer.key)
            }
            if !touched.isEmpty {
                state.downloadMoments.append(moment)
                try db.execute("UPDATE service SET defaultMoment = \(moment) WHERE name = \(service.name)")
                for key in touched { try db.execute("UPDATE layer SET defaultMoment = \(moment) WHERE key = \(key)") }
            }
            update(&state)
            try OfflineStateStore.write(db, state)
            return moment
        }
    }
}

/// Writes one layer's downloaded changes.
private struct DownloadWriter {
    let db: any StoreConnection
    let layer: LayerModel
    let moment: Int64
    let state: OfflineReplicaState
    let system: Projection.System
    /// Local edits not yet synced: object id → moment of the newest.
    let pending: [Int64: Int64]

    init(db: any StoreConnection, layer: LayerModel, moment: Int64, state: OfflineReplicaState) throws {
        self.db = db
        self.layer = layer
        self.moment = moment
        self.state = state
        system = (try? Projection.system(of: layer.spatialReference, default: .webMercator)) ?? .webMercator
        var pending: [Int64: Int64] = [:]
        for entry in try ServiceCore.pendingObjects(db, layerKey: layer.key, state: state) { pending[entry.objectId] = entry.moment }
        self.pending = pending
    }

    mutating func apply(_ edits: ReplicaLayerEdits) throws {
        for feature in edits.adds + edits.updates { try write(feature) }
        for id in edits.deleteIds { try delete(globalId: id) }
        for attachment in edits.attachmentAdds + edits.attachmentUpdates { try write(attachment) }
        for id in edits.attachmentDeleteIds {
            guard let gid = GUIDText.normalize(id), let current = try AttachmentStore.visible(db, layerKey: layer.key, globalId: gid, view: .defaultVersion) else { continue }
            _ = try AttachmentStore.writeState(db, of: current, upload: nil, isDelete: true, branch: 0, moment: moment)
        }
    }

    private func globalId(of feature: ReplicaFeature) -> String? {
        guard let field = layer.globalIdField, let text = feature.attributes[field]?.string else { return nil }
        return GUIDText.normalize(text)
    }

    private func anyRow(globalId: String) throws -> FeatureRowRecord? {
        guard let objectId = try db.fetchValue("SELECT objectId FROM featureRow WHERE layerKey = \(layer.key) AND globalId = \(globalId) LIMIT 1",
                                               as: Int64.self) else { return nil }
        return try RowStore.visibleRow(db, layerKey: layer.key, objectId: objectId, view: .defaultVersion)
    }

    private mutating func write(_ feature: ReplicaFeature) throws {
        guard let globalId = globalId(of: feature) else { return }
        let existing = try anyRow(globalId: globalId)
        var attributes = Attributes()
        let current = try existing.map { try RowStore.decodeAttributes($0.attributes) }
        for field in layer.fields where field.type != .geometry {
            attributes.appendUnchecked(field.name, current?[field.name] ?? .null)
        }
        for (name, value) in feature.attributes {
            guard let field = layer.field(name), field.type != .geometry else { continue }
            attributes[field.name] = value
        }
        var geometry = try existing.flatMap { try RowStore.decodeGeometry($0.geometry) }
        if let given = feature.geometry, !layer.isTable { geometry = Projection.project(given, from: system, to: .wgs84) }
        // A later local edit still pending keeps the fields it changed.
        if let existing, let localMoment = pending[existing.objectId], localMoment > (feature.editMoment ?? 0), !existing.isDelete {
            let base = try RowStore.defaultRow(db, layerKey: layer.key, objectId: existing.objectId, atOrBefore: state.syncedThrough)
            let before = try base.map { try RowStore.decodeAttributes($0.attributes) }
            for (name, value) in current ?? Attributes() {
                if let old = before?[name], old.sameValue(as: value) { continue }
                attributes[name] = value
            }
            if base?.geometry != existing.geometry { geometry = try RowStore.decodeGeometry(existing.geometry) }
        }
        let objectId = try existing?.objectId ?? newObjectId(preferring: feature.attributes[layer.objectIdField])
        attributes[layer.objectIdField] = .int(objectId)
        if let field = layer.globalIdField { attributes[field] = .string(globalId) }
        try RowStore.write(db, layerKey: layer.key, branch: 0, moment: moment,
                           row: .init(objectId: objectId, globalId: globalId, isDelete: false, attributes: attributes, geometry: layer.isTable ? nil : geometry))
    }

    /// The service's object id when no local feature has it, else the next free local one.
    private func newObjectId(preferring given: AttributeValue?) throws -> Int64 {
        if case .int(let id)? = given, id > 0,
           try db.fetchValue("SELECT 1 FROM featureRow WHERE layerKey = \(layer.key) AND objectId = \(id) LIMIT 1", as: Int64.self) == nil {
            try db.execute("UPDATE layer SET nextObjectId = \(id + 1) WHERE key = \(layer.key) AND nextObjectId < \(id + 1)")
            return id
        }
        let next = try db.fetchValue("SELECT nextObjectId FROM layer WHERE key = \(layer.key)", as: Int64.self) ?? 1
        let used = try db.fetchValue("SELECT max(objectId) FROM featureRow WHERE layerKey = \(layer.key)", as: Int64.self) ?? 0
        let id = max(next, used + 1)
        try db.execute("UPDATE layer SET nextObjectId = \(id + 1) WHERE key = \(layer.key)")
        return id
    }

    private func delete(globalId text: String) throws {
        guard let globalId = GUIDText.normalize(text), let existing = try anyRow(globalId: globalId), !existing.isDelete else { return }
        // A local edit still pending (download-only) is kept; its upload decides later.
        if pending[existing.objectId] != nil { return }
        try RowStore.write(db, layerKey: layer.key, branch: 0, moment: moment,
                           row: .init(objectId: existing.objectId, globalId: globalId, isDelete: true,
                                      attributes: try RowStore.decodeAttributes(existing.attributes), geometry: try RowStore.decodeGeometry(existing.geometry)))
    }

    private func write(_ attachment: ReplicaAttachment) throws {
        guard let gid = GUIDText.normalize(attachment.globalId) else { return }
        let upload = AttachmentUpload(globalId: gid, name: attachment.name, contentType: attachment.contentType, data: attachment.data)
        if let current = try AttachmentStore.visible(db, layerKey: layer.key, globalId: gid, view: .defaultVersion) {
            _ = try AttachmentStore.writeState(db, of: current, upload: upload, isDelete: false, branch: 0, moment: moment)
            return
        }
        guard let parentId = GUIDText.normalize(attachment.parentGlobalId), let parent = try anyRow(globalId: parentId), !parent.isDelete else { return }
        _ = try AttachmentStore.add(db, layer: layer, parent: parent, upload: upload, branch: 0, moment: moment)
    }
}
