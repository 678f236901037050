import GRDB
import FeatureServiceModel
import WebMap

/// The database schema, as numbered migrations in one migrator. Add a migration; never edit a shipped one.
///
/// Storage model (docs/service.md, "Storage model"):
/// - `featureRow` holds every state any feature ever had. Rows are never updated in place: an add, an
///   update and a delete each insert a row carrying the branch it belongs to (0 = DEFAULT, otherwise the
///   version's branch) and the moment it was written; a delete is a row with `isDelete`.
/// - `head` is a derived index (rebuildable from `featureRow`) naming, per layer, branch and object id, the
///   newest row: reading DEFAULT or a version's own edits costs what it returns, whatever the history.
/// - `version` is one metadata row per branch version; creating a version inserts that row and nothing
///   else, so it costs the same whatever the data size.
///
/// The tables as they stand after every migration are defined once, in `StoreTables`; `StoreTablesTests` checks
/// that this migrator (from nothing, and from a database of v2) and `PostgresSchema` both arrive at them. The two
/// migration lists are numbered alike but differ from v3 on, and each store records the names it applied, so
/// neither list may be renumbered: SQLite's v3 renames the envelope columns `xmin`... to `minX`... (PostgreSQL's
/// v1 already named them so), while PostgreSQL's v3 adds the `token` and `versionLock` tables that only a shared
/// store has, and its v4 the `defaultLive` flag.
enum Schema {
    /// The first migration's identifier: a SQLite file whose `grdb_migrations` records it was made by MapRules.
    static let firstMigration = "v1: catalogue, rows, versions, attachments"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration(firstMigration) { db in
            try db.create(table: "service") { t in
                t.primaryKey("name", .text).collate(.nocase)
                t.column("root", .text).notNull()
                t.column("settings", .text).notNull()
                t.column("sourceFolder", .text).notNull()
                t.column("loadedDate", .integer).notNull()
                // Strictly increasing epoch-millisecond moments: every write gets a new one.
                t.column("lastMoment", .integer).notNull()
                // The moment of the newest write to DEFAULT.
                t.column("defaultMoment", .integer).notNull()
            }

            try db.create(table: "layer") { t in
                t.autoIncrementedPrimaryKey("key")
                t.column("service", .text).notNull().indexed().references("service", onDelete: .cascade)
                t.column("layerId", .integer).notNull()
                t.column("metadata", .text).notNull()
                // One object-id counter per layer, shared by every version.
                t.column("nextObjectId", .integer).notNull()
                t.column("nextAttachmentId", .integer).notNull()
                t.column("defaultMoment", .integer).notNull()
                t.uniqueKey(["service", "layerId"])
            }

            try db.create(table: "featureRow") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("layerKey", .integer).notNull().references("layer", onDelete: .cascade)
                t.column("objectId", .integer).notNull()
                t.column("globalId", .text).notNull()
                t.column("branch", .integer).notNull()
                t.column("moment", .integer).notNull()
                t.column("isDelete", .boolean).notNull()
                t.column("attributes", .text).notNull()
                t.column("geometry", .text)
                t.column("xmin", .double)
                t.column("ymin", .double)
                t.column("xmax", .double)
                t.column("ymax", .double)
                t.uniqueKey(["layerKey", "branch", "objectId", "moment"])
            }
            try db.create(index: "featureRow_globalId", on: "featureRow", columns: ["layerKey", "globalId"])
            try db.create(index: "featureRow_branchMoment", on: "featureRow", columns: ["layerKey", "branch", "moment"])

            try db.create(table: "head", options: [.withoutRowID]) { t in
                t.column("layerKey", .integer).notNull()
                t.column("branch", .integer).notNull()
                t.column("objectId", .integer).notNull()
                t.column("moment", .integer).notNull()
                t.column("isDelete", .boolean).notNull()
                t.column("rowId", .integer).notNull()
                t.primaryKey(["layerKey", "branch", "objectId"])
            }

            try db.create(table: "version") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("service", .text).notNull().references("service", onDelete: .cascade)
                t.column("branch", .integer).notNull()
                t.column("guid", .text).notNull().unique()
                t.column("owner", .text).notNull()
                t.column("name", .text).notNull()
                t.column("qualifiedName", .text).notNull().collate(.nocase)
                t.column("access", .text).notNull()
                t.column("description", .text).notNull()
                // DEFAULT's moment the version reads through to (moved forward by reconcile and post).
                t.column("ancestorMoment", .integer).notNull()
                // The version's own rows at or before this moment are posted: reads ignore them.
                t.column("baseMoment", .integer).notNull()
                t.column("createdDate", .integer).notNull()
                t.column("modifiedDate", .integer).notNull()
                t.column("reconcileDate", .integer)
                t.column("postDate", .integer)
                t.uniqueKey(["service", "qualifiedName"])
            }

            try db.create(table: "conflict") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("versionId", .integer).notNull().indexed().references("version", onDelete: .cascade)
                t.column("layerKey", .integer).notNull()
                t.column("objectId", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("fields", .text).notNull()
                t.column("inspected", .boolean).notNull()
                // The common-ancestor moment the conflict was measured from.
                t.column("ancestorMoment", .integer).notNull()
            }

            try db.create(table: "attachmentData") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("bytes", .blob).notNull()
            }

            try db.create(table: "attachmentRow") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("layerKey", .integer).notNull().references("layer", onDelete: .cascade)
                t.column("attachmentId", .integer).notNull()
                t.column("globalId", .text).notNull()
                t.column("parentObjectId", .integer).notNull()
                t.column("parentGlobalId", .text).notNull()
                t.column("branch", .integer).notNull()
                t.column("moment", .integer).notNull()
                t.column("isDelete", .boolean).notNull()
                t.column("name", .text).notNull()
                t.column("contentType", .text).notNull()
                t.column("size", .integer).notNull()
                t.column("keywords", .text)
                t.column("dataId", .integer).notNull().references("attachmentData")
            }
            try db.create(index: "attachmentRow_parent", on: "attachmentRow", columns: ["layerKey", "parentObjectId"])
            try db.create(index: "attachmentRow_id", on: "attachmentRow", columns: ["layerKey", "attachmentId"])
            try db.create(index: "attachmentRow_globalId", on: "attachmentRow", columns: ["layerKey", "globalId"])
            try db.create(index: "attachmentRow_branchMoment", on: "attachmentRow", columns: ["layerKey", "branch", "moment"])
        }

        migrator.registerMigration("v2: replicas") { db in try ReplicaStore.createTables(db) }

        // PostgreSQL reserves xmin and xmax (system columns of every table): one name for both stores.
        migrator.registerMigration("v3: envelope columns minX, minY, maxX, maxY") { db in
            for (old, new) in [("xmin", "minX"), ("ymin", "minY"), ("xmax", "maxX"), ("ymax", "maxY")] {
                try db.execute(sql: "ALTER TABLE featureRow RENAME COLUMN \(old) TO \(new)")
            }
        }

        return migrator
    }
}
