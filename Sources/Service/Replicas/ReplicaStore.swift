import Foundation
import FeatureServiceModel
import WebMap

/// Where registered replicas are kept (schema migration "v2: replicas"):
/// - `replica`: one row per registered replica: owner, version, what it takes of each layer
///   (`definition`, JSON), its generations (`serverGen`, and per layer in `layerServerGens`, JSON).
/// - `replicaGeneration`: for every generation a replica was given, the version's view at that moment
///   (ancestor and base moments), so that "the state at generation G" is read exactly even after a
///   reconcile or post moved the version since.
/// - `replicaEditMoment`: the client's edit moment of a state a replica uploaded.
/// The tables of SQLite are made in `ReplicaSchema.swift`.
enum ReplicaStore {
    /// Records that the state of `objectId` written at `rowMoment` was made by its editor at `editMoment`.
    static func recordEditMoment(_ db: any StoreConnection, layerKey: Int64, branch: Int64, objectId: Int64, rowMoment: Int64, editMoment: Int64) throws {
        try db.execute("""
            INSERT INTO replicaEditMoment (layerKey, branch, objectId, rowMoment, editMoment) \
            VALUES (\(layerKey), \(branch), \(objectId), \(rowMoment), \(editMoment)) \
            ON CONFLICT (layerKey, branch, objectId, rowMoment) DO UPDATE SET editMoment = excluded.editMoment
            """)
    }

    /// Every recorded client edit moment of a layer (all branches), read once, for answering many rows (a
    /// replica's data) without a query per row.
    static func editMoments(_ db: any StoreConnection, layerKey: Int64) throws -> [EditMomentKey: Int64] {
        var moments: [EditMomentKey: Int64] = [:]
        try db.forEach("SELECT branch, objectId, rowMoment, editMoment FROM replicaEditMoment WHERE layerKey = \(layerKey)") { row in
            if let branch = row.int64(0), let objectId = row.int64(1), let rowMoment = row.int64(2) {
                moments[EditMomentKey(branch: branch, objectId: objectId, rowMoment: rowMoment)] = row.int64(3)
            }
            return true
        }
        return moments
    }

    /// Writes a replica's record over its stored one (by id).
    static func update(_ db: any StoreConnection, _ record: ReplicaRecord) throws {
        try db.execute("""
            UPDATE replica SET service = \(record.service), name = \(record.name), owner = \(record.owner), \
            versionGuid = \(record.versionGuid), definition = \(record.definition), syncModel = \(record.syncModel), \
            syncDirection = \(record.syncDirection), returnAttachments = \(record.returnAttachments), serverGen = \(record.serverGen), \
            layerServerGens = \(record.layerServerGens), creationDate = \(record.creationDate), lastSyncDate = \(record.lastSyncDate) \
            WHERE id = \(record.id)
            """)
    }

    /// Forgets a replica and its generations.
    static func delete(_ db: any StoreConnection, _ record: ReplicaRecord) throws {
        // The foreign key cascades too; said here so that no store depends on it.
        try db.execute("DELETE FROM replicaGeneration WHERE replicaId = \(record.id)")
        try db.execute("DELETE FROM replica WHERE id = \(record.id)")
    }

    /// Records the version's view at a generation of a replica (replacing one recorded at that generation).
    static func saveGeneration(_ db: any StoreConnection, _ record: ReplicaGenerationRecord) throws {
        try db.execute("""
            INSERT INTO replicaGeneration (replicaId, generation, ancestorMoment, baseMoment) \
            VALUES (\(record.replicaId), \(record.generation), \(record.ancestorMoment), \(record.baseMoment)) \
            ON CONFLICT (replicaId, generation) DO UPDATE SET ancestorMoment = excluded.ancestorMoment, baseMoment = excluded.baseMoment
            """)
    }

    struct EditMomentKey: Hashable {
        var branch: Int64
        var objectId: Int64
        var rowMoment: Int64
    }

    /// When the state in `row` was made: the uploading client's edit moment, else the moment it was written.
    static func editMoment(_ db: any StoreConnection, of row: FeatureRowRecord) throws -> Int64 {
        // One SQL text (prepared once per connection by the store): a replica of 100,000 rows asks this for every row.
        try db.fetchValue("""
            SELECT editMoment FROM replicaEditMoment WHERE layerKey = \(row.layerKey) AND branch = \(row.branch) \
            AND objectId = \(row.objectId) AND rowMoment = \(row.moment)
            """, as: Int64.self) ?? row.moment
    }
}

/// A registered replica.
struct ReplicaRecord: Codable {
    var id: String
    var service: String
    var name: String
    var owner: String
    var versionGuid: String
    /// `ReplicaDefinition` as JSON.
    var definition: String
    var syncModel: String
    var syncDirection: String
    var returnAttachments: Bool
    var serverGen: Int64
    /// `[{"id", "serverGen"}]` (per-layer model), else nil.
    var layerServerGens: String?
    var creationDate: Int64
    var lastSyncDate: Int64?
}

/// The view of a replica's version at one of its generations.
struct ReplicaGenerationRecord: Codable {
    var replicaId: String
    var generation: Int64
    var ancestorMoment: Int64
    var baseMoment: Int64
}

/// What a replica takes of its layers: per layer its query option, where clause and whether the area
/// applies; the area itself in WGS84.
struct ReplicaDefinition: Sendable {
    struct Layer: Sendable {
        var id: Int
        var query: ReplicaLayerQuery
    }
    var layers: [Layer]
    /// The area in WGS84 (nil: everywhere).
    var geometry: Geometry?

    var json: JSON {
        var members: [(String, JSON)] = [("layers", .array(layers.map { .object([("id", .int($0.id)), ("query", $0.query.json)]) }))]
        if let geometry { members.append(("geometry", geometry.json())) }
        return .object(members)
    }

    init(layers: [Layer], geometry: Geometry?) {
        self.layers = layers
        self.geometry = geometry
    }

    init(text: String) throws {
        let json = try JSON.parse(text)
        layers = try (json["layers"]?.array ?? []).map { item in
            guard let id = item["id"]?.int else { throw ServiceError.internal("A stored replica definition lacks a layer id.") }
            return Layer(id: id, query: try ReplicaLayerQuery(json: item["query"] ?? .object([])))
        }
        geometry = try json["geometry"].map { try Geometry.parse($0).geometry }
    }
}

extension ReplicaRecord {
    var direction: SyncDirection { SyncDirection(rawValue: syncDirection) ?? .bidirectional }
    var model: SyncModel { SyncModel(rawValue: syncModel) ?? .perReplica }

    func decodedDefinition() throws -> ReplicaDefinition { try ReplicaDefinition(text: definition) }

    func decodedLayerGens() throws -> [LayerServerGen]? {
        guard let layerServerGens else { return nil }
        return try LayerServerGen.parseList(layerServerGens)
    }

    /// The generation of `layer`: its own in the per-layer model, else the replica's.
    func generation(of layer: Int) throws -> Int64 {
        try decodedLayerGens()?.first { $0.id == layer }?.serverGen ?? serverGen
    }
}

extension ServiceError {
    /// A replica that does not exist, was unregistered, or that the caller may not use.
    public static func replicaNotFound(_ id: String) -> ServiceError {
        ServiceError(code: 400, message: "Replica not found.",
                     details: ["There is no replica '\(id)' registered with this service for you (unknown, unregistered, or someone else's)."])
    }
}

extension ServiceCore {
    /// The service root's `syncCapabilities`: what createReplica and synchronizeReplica support.
    static let syncCapabilities: JSON = .object([
        ("supportsAsync", .bool(false)),
        ("supportsRegisteringExistingData", .bool(true)),
        ("supportsSyncDirectionControl", .bool(true)),
        ("supportsPerLayerSync", .bool(true)),
        ("supportsPerReplicaSync", .bool(true)),
        ("supportsRollbackOnFailure", .bool(true)),
        ("supportsAttachmentsSyncDirection", .bool(false)),
        ("supportsSyncModelNone", .bool(false)),
        ("supportsBiDirectionalSyncForServer", .bool(true)),
    ])
}
