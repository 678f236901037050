import FeatureServiceModel
import WebMap
/// Every table of the store and its columns (see `StoreTable`). The storage model is described in `Schema`;
/// the replica tables in `ReplicaStore`.
enum StoreTables {
    static let service = StoreTable(name: "service", columns: [
        .text("name"), .text("root"), .text("settings"), .text("sourceFolder"), .integer("loadedDate"),
        // Strictly increasing epoch-millisecond moments: every write gets a new one.
        .integer("lastMoment"),
        // The moment of the newest write to DEFAULT.
        .integer("defaultMoment"),
    ], primaryKey: ["name"])

    static let layer = StoreTable(name: "layer", columns: [
        .assignedKey("key"), .text("service"), .integer("layerId"), .text("metadata"),
        // One object-id counter per layer, shared by every version.
        .integer("nextObjectId"), .integer("nextAttachmentId"), .integer("defaultMoment"),
    ], primaryKey: ["key"])

    static let featureRow = StoreTable(name: "featureRow", columns: [
        .assignedKey("id"), .integer("layerKey"), .integer("objectId"), .text("globalId"), .integer("branch"), .integer("moment"),
        .boolean("isDelete"), .text("attributes"), .text("geometry", nullable: true),
        // The geometry's envelope (named so in both stores: PostgreSQL reserves xmin and xmax).
        .real("minX", nullable: true), .real("minY", nullable: true), .real("maxX", nullable: true), .real("maxY", nullable: true),
    ], primaryKey: ["id"], maintainedByStore: [.postgres: [.boolean("defaultLive")]])

    static let head = StoreTable(name: "head", columns: [
        .integer("layerKey"), .integer("branch"), .integer("objectId"), .integer("moment"), .boolean("isDelete"), .integer("rowId"),
    ], primaryKey: ["layerKey", "branch", "objectId"])

    static let version = StoreTable(name: "version", columns: [
        .assignedKey("id"), .text("service"), .integer("branch"), .text("guid"), .text("owner"), .text("name"), .text("qualifiedName"),
        .text("access"), .text("description"),
        // DEFAULT's moment the version reads through to (moved forward by reconcile and post).
        .integer("ancestorMoment"),
        // The version's own rows at or before this moment are posted: reads ignore them.
        .integer("baseMoment"),
        .integer("createdDate"), .integer("modifiedDate"), .integer("reconcileDate", nullable: true), .integer("postDate", nullable: true),
    ], primaryKey: ["id"])

    static let conflict = StoreTable(name: "conflict", columns: [
        .assignedKey("id"), .integer("versionId"), .integer("layerKey"), .integer("objectId"), .text("kind"), .text("fields"),
        .boolean("inspected"),
        // The common-ancestor moment the conflict was measured from.
        .integer("ancestorMoment"),
    ], primaryKey: ["id"])

    static let attachmentData = StoreTable(name: "attachmentData", columns: [.assignedKey("id"), .blob("bytes")], primaryKey: ["id"])

    static let attachmentRow = StoreTable(name: "attachmentRow", columns: [
        .assignedKey("id"), .integer("layerKey"), .integer("attachmentId"), .text("globalId"), .integer("parentObjectId"),
        .text("parentGlobalId"), .integer("branch"), .integer("moment"), .boolean("isDelete"), .text("name"), .text("contentType"),
        .integer("size"), .text("keywords", nullable: true), .integer("dataId"),
    ], primaryKey: ["id"])

    static let replica = StoreTable(name: "replica", columns: [
        .text("id"), .text("service"), .text("name"), .text("owner"), .text("versionGuid"), .text("definition"), .text("syncModel"),
        .text("syncDirection"), .boolean("returnAttachments"), .integer("serverGen"), .text("layerServerGens", nullable: true),
        .integer("creationDate"), .integer("lastSyncDate", nullable: true),
    ], primaryKey: ["id"])

    static let replicaGeneration = StoreTable(name: "replicaGeneration", columns: [
        .text("replicaId"), .integer("generation"), .integer("ancestorMoment"), .integer("baseMoment"),
    ], primaryKey: ["replicaId", "generation"])

    /// The client's edit moment of a state a replica uploaded, when it differs from the moment the row was written.
    static let replicaEditMoment = StoreTable(name: "replicaEditMoment", columns: [
        .integer("layerKey"), .integer("branch"), .integer("objectId"), .integer("rowMoment"), .integer("editMoment"),
    ], primaryKey: ["layerKey", "branch", "objectId", "rowMoment"])

    /// Signed-in users' tokens (their SHA-256), shared by the servers on one database (`Directory`).
    static let token = StoreTable(name: "token", columns: [.text("digest"), .text("username"), .integer("expires")],
                                  primaryKey: ["digest"], sharedStoresOnly: true)

    /// Read and edit sessions on versions, shared by the servers on one database (`SessionRegistry`).
    static let versionLock = StoreTable(name: "versionLock", columns: [.text("guid"), .text("state")],
                                        primaryKey: ["guid"], sharedStoresOnly: true)

    static let all: [StoreTable] = [service, layer, featureRow, head, version, conflict, attachmentData, attachmentRow, replica,
                                    replicaGeneration, replicaEditMoment, token, versionLock]
}
