import Foundation
import WebMap
import FeatureServiceModel

/// The local edits of an offline geodatabase since its last sync, read from the file's history: per object,
/// its rows after `syncedThrough` that are not downloads. Compared with the object's row at
/// `syncedThrough` (its base) they are an add, an update (only the fields that changed, so that the
/// service can merge field by field) or a delete.
extension ServiceCore {
    /// The local changes of the offline geodatabase, by global id, geometry in each layer's spatial reference,
    /// and the local moment the reading saw last (every change is at or before it).
    public func offlineChanges() async throws -> (edits: [ReplicaLayerEdits], through: Int64) {
        guard let name = serviceNames.first else { throw ServiceError.internal("The file holds no service.") }
        let service = try self.service(name)
        return try await database.read { db in
            guard let state = try OfflineStateStore.read(db) else { throw ServiceError.invalidParameter("This file is not an offline geodatabase.") }
            guard let record = try db.fetchRecord(ServiceRecord.self, "SELECT * FROM service WHERE name = \(service.name)") else { throw ServiceError.serviceNotFound(name) }
            var result: [ReplicaLayerEdits] = []
            for layer in service.layers {
                let edits = try Self.changes(db, layer: layer, state: state)
                if !edits.isEmpty { result.append(edits) }
            }
            return (result, record.lastMoment)
        }
    }

    /// How many local edits each layer has pending.
    public func offlinePendingCounts() async throws -> [OfflinePendingCount] {
        let (edits, _) = try await offlineChanges()
        guard let name = serviceNames.first else { return [] }
        let service = try self.service(name)
        return service.layers.map { layer in
            let changes = edits.first { $0.id == layer.id } ?? ReplicaLayerEdits(id: layer.id)
            return OfflinePendingCount(layer: layer.id, name: layer.metadata.name ?? "layer \(layer.id)", adds: changes.adds.count,
                                       updates: changes.updates.count, deletes: changes.deleteIds.count,
                                       attachments: changes.attachmentAdds.count + changes.attachmentUpdates.count + changes.attachmentDeleteIds.count)
        }
    }

    /// Object ids changed locally after the last sync, with the moment of their newest local edit.
    static func pendingObjects(_ db: any StoreConnection, layerKey: Int64, state: OfflineReplicaState) throws -> [(objectId: Int64, moment: Int64)] {
        let downloads = Set(state.downloadMoments)
        var newest: [Int64: Int64] = [:]
        try db.forEach("SELECT objectId, moment FROM featureRow WHERE layerKey = \(layerKey) AND branch = 0 AND moment > \(state.syncedThrough) ORDER BY objectId, moment") { row in
            guard let objectId = row.int64(0), let moment = row.int64(1), !downloads.contains(moment) else { return true }
            newest[objectId] = max(newest[objectId] ?? 0, moment)
            return true
        }
        return newest.map { ($0.key, $0.value) }.sorted { $0.objectId < $1.objectId }
    }

    private static func changes(_ db: any StoreConnection, layer: LayerModel, state: OfflineReplicaState) throws -> ReplicaLayerEdits {
        var edits = ReplicaLayerEdits(id: layer.id)
        let system = (try? Projection.system(of: layer.spatialReference, default: .webMercator)) ?? .webMercator
        // Read by column (the record types' decoding was most of a 10,000-edit sync); the SQL text is the same for
        // every object, so each statement is prepared once.
        for (objectId, moment) in try pendingObjects(db, layerKey: layer.key, state: state) {
            guard let head = try db.fetchOne("""
                SELECT r.globalId, r.isDelete, r.attributes, r.geometry FROM head h JOIN featureRow r ON r.id = h.rowId \
                WHERE h.layerKey = \(layer.key) AND h.branch = 0 AND h.objectId = \(objectId)
                """) else { continue }
            let globalId: String = try head.require("globalId")
            let base = try db.fetchOne("""
                SELECT isDelete, attributes, geometry FROM featureRow WHERE layerKey = \(layer.key) AND branch = 0 AND objectId = \(objectId) \
                AND moment <= \(state.syncedThrough) ORDER BY moment DESC LIMIT 1
                """)
            let baseLive = base.map { !($0.get("isDelete", as: Bool.self) ?? false) } ?? false
            if head.get("isDelete", as: Bool.self) ?? false {
                if baseLive {
                    edits.deleteIds.append(globalId)
                    edits.deleteMoments[globalId] = moment
                }
                continue
            }
            let attributes = try RowStore.decodeAttributes(try head.require("attributes"))
            let headGeometry: String? = head.get("geometry")
            let geometry = try RowStore.decodeGeometry(headGeometry).map { Projection.project($0, from: .wgs84, to: system) }
            guard let base, baseLive else {
                var sent = attributes
                if let field = layer.globalIdField { sent[field] = .string(globalId) }
                edits.adds.append(ReplicaFeature(attributes: sent, geometry: geometry, editMoment: moment))
                continue
            }
            let before = try RowStore.decodeAttributes(try base.require("attributes"))
            var changed = Attributes()
            if let field = layer.globalIdField { changed[field] = .string(globalId) }
            for (name, value) in attributes where name.caseInsensitiveCompare(layer.objectIdField) != .orderedSame {
                if let old = before[name], old.sameValue(as: value) { continue }
                changed[name] = value
            }
            let baseGeometry: String? = base.get("geometry")
            edits.updates.append(ReplicaFeature(attributes: changed, geometry: headGeometry != baseGeometry ? geometry : nil, editMoment: moment))
        }
        try attachmentChanges(db, layer: layer, state: state, into: &edits)
        return edits
    }

    private static func attachmentChanges(_ db: any StoreConnection, layer: LayerModel, state: OfflineReplicaState, into edits: inout ReplicaLayerEdits) throws {
        let downloads = Set(state.downloadMoments)
        let rows = try db.fetchRecords(AttachmentRowRecord.self, """
            SELECT * FROM attachmentRow WHERE layerKey = \(layer.key) AND branch = 0 AND moment > \(state.syncedThrough) ORDER BY moment, id
            """)
            .filter { !downloads.contains($0.moment) }
        var newest: [Int64: AttachmentRowRecord] = [:]
        for row in rows { newest[row.attachmentId] = row }
        for (attachmentId, row) in newest.sorted(by: { $0.key < $1.key }) {
            let existedBefore = try db.fetchRecord(AttachmentRowRecord.self, """
                SELECT * FROM attachmentRow WHERE layerKey = \(layer.key) AND attachmentId = \(attachmentId) AND branch = 0 \
                AND moment <= \(state.syncedThrough) ORDER BY moment DESC, id DESC LIMIT 1
                """).map { !$0.isDelete } ?? false
            if row.isDelete {
                if existedBefore { edits.attachmentDeleteIds.append(row.globalId) }
                continue
            }
            let bytes = try db.fetchValue("SELECT bytes FROM attachmentData WHERE id = \(row.dataId)", as: Data.self) ?? Data()
            let attachment = ReplicaAttachment(globalId: row.globalId, parentGlobalId: row.parentGlobalId, name: row.name,
                                               contentType: row.contentType, data: bytes, editMoment: row.moment)
            if existedBefore { edits.attachmentUpdates.append(attachment) } else { edits.attachmentAdds.append(attachment) }
        }
    }
}

/// One layer of an offline geodatabase, as `maprules offline generate` and `status` report it.
public struct OfflineLayerSummary: Sendable, Equatable, Codable {
    public var id: Int
    public var name: String
    public var features: Int
    public var attachments: Int
}

extension ServiceCore {
    /// Each layer's live features and attachments in the offline geodatabase.
    public func offlineLayerSummaries() async throws -> [OfflineLayerSummary] {
        guard let name = serviceNames.first else { return [] }
        let service = try self.service(name)
        return try await database.read { db in
            try service.layers.map { layer in
                let features = try db.fetchValue("SELECT count(*) FROM head WHERE layerKey = \(layer.key) AND branch = 0 AND isDelete = 0", as: Int.self) ?? 0
                let attachments = try db.fetchValue("""
                    SELECT count(*) FROM attachmentRow a WHERE a.layerKey = \(layer.key) AND a.branch = 0 AND a.isDelete = 0 AND a.moment = \
                    (SELECT max(b.moment) FROM attachmentRow b WHERE b.layerKey = a.layerKey AND b.attachmentId = a.attachmentId AND b.branch = 0)
                    """, as: Int.self) ?? 0
                return OfflineLayerSummary(id: layer.id, name: layer.metadata.name ?? "layer \(layer.id)", features: features, attachments: attachments)
            }
        }
    }
}
