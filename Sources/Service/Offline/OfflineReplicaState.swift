import Foundation
import FeatureServiceModel
import WebMap

/// What a local (offline) geodatabase knows of its replica: where it came from, the service's generation of
/// its last sync, and which local moments are already accounted for. Kept in the file itself (table
/// `offlineReplica`, one row of JSON), written in the same transaction as the data it describes, so a
/// process killed half-way leaves the file as it was.
///
/// The local geodatabase is a service-core database (one service, not versioned, the replica's layers and
/// rows): offline edits are ordinary edits of that core, at local moments (epoch ms, like the service's).
/// The local edits not yet synced are the rows written after `syncedThrough` at moments that are not
/// downloads (`downloadMoments`).
public struct OfflineReplicaState: Sendable, Codable, Equatable {
    /// The feature service's URL (`.../FeatureServer`), or the sample folder of an in-process service.
    public var serviceURL: String
    /// The service's name, which is also the name of the one service inside the file.
    public var serviceName: String
    public var replicaID: String
    public var replicaName: String
    public var syncModel: SyncModel
    public var syncDirection: SyncDirection
    /// The version the replica belongs to on a branch-versioned service.
    public var gdbVersion: String?
    /// The layer and table ids in the file.
    public var layers: [Int]
    /// The service's generation at the last sync (or at generation).
    public var serverGen: Int64
    public var layerServerGens: [LayerServerGen]?
    /// Local rows at or before this moment are synced (or came from the service).
    public var syncedThrough: Int64
    /// Local moments after `syncedThrough` at which downloaded changes were written (not local edits).
    public var downloadMoments: [Int64]
    public var createdDate: Int64
    public var lastSyncDate: Int64?
    /// The user who generated the file.
    public var user: String?
    /// False after `unregister`: the file stays, read-only.
    public var isRegistered: Bool
    /// The id of the last upload sent (a retry after a lost answer sends the same id).
    public var pendingUploadID: String?
    /// Where the file was (absolute, symbolic links resolved) when `generate` or `register` gave it its replica.
    /// A file elsewhere that says it is registered is a copy of that one: `register` gives it a replica of its own.
    /// The file at this path that is still registered is refused a second replica (unless forced). Nil in files
    /// written before this was recorded, and in geodatabases the service packaged (`dataFormat=sqlite`).
    public var registeredPath: String?

    public init(serviceURL: String, serviceName: String, replicaID: String, replicaName: String, syncModel: SyncModel, syncDirection: SyncDirection,
                gdbVersion: String?, layers: [Int], serverGen: Int64, layerServerGens: [LayerServerGen]?, syncedThrough: Int64,
                downloadMoments: [Int64] = [], createdDate: Int64, lastSyncDate: Int64? = nil, user: String?, isRegistered: Bool = true,
                pendingUploadID: String? = nil, registeredPath: String? = nil) {
        self.serviceURL = serviceURL
        self.serviceName = serviceName
        self.replicaID = replicaID
        self.replicaName = replicaName
        self.syncModel = syncModel
        self.syncDirection = syncDirection
        self.gdbVersion = gdbVersion
        self.layers = layers
        self.serverGen = serverGen
        self.layerServerGens = layerServerGens
        self.syncedThrough = syncedThrough
        self.downloadMoments = downloadMoments
        self.createdDate = createdDate
        self.lastSyncDate = lastSyncDate
        self.user = user
        self.isRegistered = isRegistered
        self.pendingUploadID = pendingUploadID
        self.registeredPath = registeredPath
    }

    /// `path` as `registeredPath` records it: absolute (relative to the working directory), `.` and `..` removed,
    /// symbolic links resolved, so the same file named two ways compares equal.
    public static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

extension LayerServerGen: Codable {
    enum CodingKeys: String, CodingKey { case id, serverGen, syncDirection }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(Int.self, forKey: .id), serverGen: try container.decode(Int64.self, forKey: .serverGen),
                  syncDirection: try container.decodeIfPresent(SyncDirection.self, forKey: .syncDirection))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(serverGen, forKey: .serverGen)
        try container.encodeIfPresent(syncDirection, forKey: .syncDirection)
    }
}

/// Reading and writing the state row.
enum OfflineStateStore {
    static func createTable(_ db: any StoreConnection) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS offlineReplica (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)")
    }

    static func read(_ db: any StoreConnection) throws -> OfflineReplicaState? {
        guard try db.fetchValue(db.dialect.tableExists("offlineReplica"), as: Int64.self) ?? 0 > 0,
              let text = try db.fetchValue("SELECT state FROM offlineReplica WHERE id = 1", as: String.self) else { return nil }
        return try JSONDecoder().decode(OfflineReplicaState.self, from: Data(text.utf8))
    }

    static func write(_ db: any StoreConnection, _ state: OfflineReplicaState) throws {
        try createTable(db)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(state), as: UTF8.self)
        try db.execute("INSERT INTO offlineReplica (id, state) VALUES (1, \(text)) ON CONFLICT (id) DO UPDATE SET state = excluded.state")
    }
}
