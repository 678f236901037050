import Foundation
import WebMap
import FeatureServiceModel

/// A local (offline) geodatabase: one SQLite file holding a service-core database with the replica's
/// service (its root and layers' metadata, not versioned) and rows, plus `OfflineReplicaState`. Offline
/// editing is the core's own editing (same validation, capabilities and editor tracking as online); this
/// file adds what sync needs: building the file from a replica's data, the local changes since the last
/// sync, and writing downloaded changes.
extension ServiceCore {
    /// Closes the database: afterwards the file can be moved or copied (no write-ahead log left beside it).
    public func close() throws { try database.close() }

    /// The replica state kept in the file; nil for a database that is not an offline geodatabase.
    public func offlineState() async throws -> OfflineReplicaState? {
        try await database.read { db in try OfflineStateStore.read(db) }
    }

    /// Replaces the replica state (nothing else changes).
    public func saveOfflineState(_ state: OfflineReplicaState) async throws {
        try await database.write { db in try OfflineStateStore.write(db, state) }
    }

    /// Writes a new offline geodatabase at `path` (which must not exist) from a replica's data: the service's
    /// root and the replica's layers' metadata, their rows (object ids and global ids kept) and attachments.
    /// `state` receives the local moment the rows were written at (everything at or before it is synced).
    /// The file is complete when this returns; the caller writes to a temporary name and renames it.
    public static func createOfflineGeodatabase(at path: String, serviceName: String, root: JSON, layers: [(id: Int, metadata: JSON)],
                                                package: ReplicaPackage, state: @escaping @Sendable (Int64) -> OfflineReplicaState,
                                                progress: (@Sendable (Double) -> Void)? = nil) async throws {
        let wanted = Set(package.layers.map(\.id))
        let kept = layers.filter { wanted.contains($0.id) }
        let rootURL = "https://offline.maprules.invalid/arcgis/rest/services/\(serviceName)/FeatureServer"
        var files: [String: String] = [:]
        var entries: [(String, JSON)] = [(rootURL, offlineRoot(root, keeping: wanted))]
        for (id, metadata) in kept { entries.append(("\(rootURL)/\(id)", metadata)) }
        files["\(serviceName).services.json"] = JSON.object(entries).text
        progress?(0.1)
        var configuration = ServiceCore.Configuration(database: path, samples: [SampleFiles.embedded(name: serviceName, files: files)])
        configuration.singleConnection = true
        let core = try await ServiceCore.open(configuration)
        progress?(0.8)
        let service = try core.service(serviceName)
        try await core.database.write { db in
            guard let record = try db.fetchRecord(ServiceRecord.self, "SELECT * FROM service WHERE name = \(service.name)") else { throw ServiceError.serviceNotFound(serviceName) }
            let moment = record.lastMoment
            // The rows go straight into the store (not through a sample folder's text, written and read again).
            for layer in package.layers {
                guard let model = service.layers.first(where: { $0.id == layer.id }) else { continue }
                try insertRows(db, layer.features, into: model, moment: moment)
            }
            progress?(0.7)
            for layer in package.layers where !layer.attachments.isEmpty {
                let model = try service.layer(layer.id)
                for attachment in layer.attachments {
                    guard let parentId = GUIDText.normalize(attachment.parentGlobalId),
                          let parent = try RowStore.visibleRow(db, layerKey: model.key, globalId: parentId, view: .defaultVersion), !parent.isDelete else { continue }
                    _ = try AttachmentStore.add(db, layer: model, parent: parent,
                                                upload: AttachmentUpload(globalId: attachment.globalId, name: attachment.name,
                                                                         contentType: attachment.contentType, data: attachment.data),
                                                branch: 0, moment: moment)
                }
            }
            try OfflineStateStore.write(db, state(moment))
        }
        try core.close()
        progress?(1)
    }

    /// Writes a replica's features as the layer's rows (object ids and global ids kept, fields in the layer's
    /// order, geometry from the layer's spatial reference to the stored WGS84) and moves the next object id past them.
    static func insertRows(_ db: any StoreConnection, _ features: [ReplicaFeature], into layer: LayerModel, moment: Int64) throws {
        let system = (try? Projection.system(of: layer.spatialReference, default: .webMercator)) ?? .webMercator
        var highest: Int64 = 0
        for feature in features {
            var attributes = Attributes()
            attributes.reserveCapacity(layer.fields.count)
            for field in layer.fields where field.type != .geometry {
                var value = feature.attributes[field.name] ?? .null
                if field.type == .globalID || field.type == .guid, let text = value.string { value = GUIDText.normalize(text).map(AttributeValue.string) ?? value }
                attributes.appendUnchecked(field.name, value)
            }
            guard case .int(let objectId)? = attributes[layer.objectIdField], objectId > 0 else { continue }
            let globalId = layer.globalIdField.flatMap { attributes[$0]?.string } ?? GUIDText.make()
            if let field = layer.globalIdField { attributes[field] = .string(globalId) }
            let geometry = layer.isTable ? nil : feature.geometry.map { Projection.project($0, from: system, to: .wgs84) }
            try RowStore.write(db, layerKey: layer.key, branch: 0, moment: moment,
                               row: .init(objectId: objectId, globalId: globalId, isDelete: false, attributes: attributes, geometry: geometry))
            highest = max(highest, objectId)
        }
        try db.execute("UPDATE layer SET nextObjectId = \(highest + 1) WHERE key = \(layer.key) AND nextObjectId < \(highest + 1)")
    }

    /// The service root as the local file keeps it: not versioned (offline edits go straight into the
    /// file's one version), listing only the replica's layers and tables.
    static func offlineRoot(_ root: JSON, keeping ids: Set<Int>) -> JSON {
        guard let members = root.objectMembers else { return root }
        return .object(members.map { key, value in
            switch key {
            case "hasVersionedData": return (key, .bool(false))
            case "layers", "tables":
                return (key, .array((value.array ?? []).filter { ($0["id"]?.int).map(ids.contains) ?? false }))
            default: return (key, value)
            }
        })
    }
}

/// How many local edits of each kind one layer has pending.
public struct OfflinePendingCount: Sendable, Equatable, Codable {
    public var layer: Int
    public var name: String
    public var adds: Int
    public var updates: Int
    public var deletes: Int
    public var attachments: Int

    public var total: Int { adds + updates + deletes + attachments }
}
