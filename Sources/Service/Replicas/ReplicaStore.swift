import Foundation
import GRDB

/// Where registered replicas are kept (schema migration "v2: replicas"):
/// - `replica`: one row per registered replica: owner, version, what it takes of each layer
///   (`definition`, JSON), its generations (`serverGen`, and per layer in `layerServerGens`, JSON).
/// - `replicaGeneration`: for every generation a replica was given, the version's view at that moment
///   (ancestor and base moments), so that "the state at generation G" is read exactly even after a
///   reconcile or post moved the version since.
enum ReplicaStore {
    static func createTables(_ db: Database) throws {
        try db.create(table: "replica") { t in
            t.primaryKey("id", .text)
            t.column("service", .text).notNull().indexed().references("service", onDelete: .cascade)
            t.column("name", .text).notNull()
            t.column("owner", .text).notNull()
            t.column("versionGuid", .text).notNull()
            t.column("definition", .text).notNull()
            t.column("syncModel", .text).notNull()
            t.column("syncDirection", .text).notNull()
            t.column("returnAttachments", .boolean).notNull()
            t.column("serverGen", .integer).notNull()
            t.column("layerServerGens", .text)
            t.column("creationDate", .integer).notNull()
            t.column("lastSyncDate", .integer)
        }
        try db.create(table: "replicaGeneration") { t in
            t.column("replicaId", .text).notNull().references("replica", onDelete: .cascade)
            t.column("generation", .integer).notNull()
            t.column("ancestorMoment", .integer).notNull()
            t.column("baseMoment", .integer).notNull()
            t.primaryKey(["replicaId", "generation"])
        }
        // The client's edit moment of a state a replica uploaded, when it differs from the moment the row
        // was written: "last in wins" compares edit moments, whichever sync order brought them.
        try db.create(table: "replicaEditMoment", options: [.withoutRowID]) { t in
            t.column("layerKey", .integer).notNull()
            t.column("branch", .integer).notNull()
            t.column("objectId", .integer).notNull()
            t.column("rowMoment", .integer).notNull()
            t.column("editMoment", .integer).notNull()
            t.primaryKey(["layerKey", "branch", "objectId", "rowMoment"])
        }
    }

    /// Records that the state of `objectId` written at `rowMoment` was made by its editor at `editMoment`.
    static func recordEditMoment(_ db: Database, layerKey: Int64, branch: Int64, objectId: Int64, rowMoment: Int64, editMoment: Int64) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO replicaEditMoment (layerKey, branch, objectId, rowMoment, editMoment) VALUES (?, ?, ?, ?, ?)",
                       arguments: [layerKey, branch, objectId, rowMoment, editMoment])
    }

    /// Every recorded client edit moment of a layer (all branches), read once, for answering many rows (a
    /// replica's data) without a query per row.
    static func editMoments(_ db: Database, layerKey: Int64) throws -> [EditMomentKey: Int64] {
        var moments: [EditMomentKey: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT branch, objectId, rowMoment, editMoment FROM replicaEditMoment WHERE layerKey = ?",
                                    arguments: [layerKey]) {
            moments[EditMomentKey(branch: row["branch"], objectId: row["objectId"], rowMoment: row["rowMoment"])] = row["editMoment"]
        }
        return moments
    }

    struct EditMomentKey: Hashable {
        var branch: Int64
        var objectId: Int64
        var rowMoment: Int64
    }

    /// When the state in `row` was made: the uploading client's edit moment, else the moment it was written.
    static func editMoment(_ db: Database, of row: FeatureRowRecord) throws -> Int64 {
        // Prepared once per connection: a replica of 100,000 rows asks this for every row.
        let statement = try db.cachedStatement(sql: "SELECT editMoment FROM replicaEditMoment WHERE layerKey = ? AND branch = ? AND objectId = ? AND rowMoment = ?")
        return try Int64.fetchOne(statement,
                           arguments: [row.layerKey, row.branch, row.objectId, row.moment]) ?? row.moment
    }
}

/// A registered replica.
struct ReplicaRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "replica"
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

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let service = Column(CodingKeys.service)
        static let owner = Column(CodingKeys.owner)
    }
}

/// The view of a replica's version at one of its generations.
struct ReplicaGenerationRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "replicaGeneration"
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
