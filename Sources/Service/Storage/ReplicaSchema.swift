import GRDB
import FeatureServiceModel
import WebMap

/// The replica tables in SQLite (schema migration "v2: replicas", `Schema.migrator`), in GRDB's table language
/// (PostgreSQL's are in `PostgresSchema`). The replica code reads and writes through `StoreConnection`.
extension ReplicaStore {
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
}
