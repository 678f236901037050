import Foundation
import GRDB

/// A loaded feature service: its root metadata and settings, and its moment counters.
struct ServiceRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "service"
    var name: String
    var root: String
    var settings: String
    var sourceFolder: String
    var loadedDate: Int64
    var lastMoment: Int64
    var defaultMoment: Int64
}

/// A layer or table of a service: its metadata JSON and its counters.
struct LayerRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "layer"
    var key: Int64?
    var service: String
    var layerId: Int
    var metadata: String
    var nextObjectId: Int64
    var nextAttachmentId: Int64
    var defaultMoment: Int64

    mutating func didInsert(_ inserted: InsertionSuccess) { key = inserted.rowID }
}

/// One state of one feature in one branch at one moment. Never updated once written.
struct FeatureRowRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "featureRow"
    var id: Int64?
    var layerKey: Int64
    var objectId: Int64
    var globalId: String
    var branch: Int64
    var moment: Int64
    var isDelete: Bool
    /// The attributes as a JSON object (field name -> scalar).
    var attributes: String
    /// Esri JSON in WGS84, nil for tables.
    var geometry: String?
    var xmin: Double?
    var ymin: Double?
    var xmax: Double?
    var ymax: Double?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    enum Columns {
        static let layerKey = Column(CodingKeys.layerKey)
        static let objectId = Column(CodingKeys.objectId)
        static let globalId = Column(CodingKeys.globalId)
        static let branch = Column(CodingKeys.branch)
        static let moment = Column(CodingKeys.moment)
        static let isDelete = Column(CodingKeys.isDelete)
    }
}

/// The newest row of an object in a branch (a derived index over `featureRow`).
struct HeadRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "head"
    var layerKey: Int64
    var branch: Int64
    var objectId: Int64
    var moment: Int64
    var isDelete: Bool
    var rowId: Int64

    enum Columns {
        static let layerKey = Column(CodingKeys.layerKey)
        static let branch = Column(CodingKeys.branch)
        static let objectId = Column(CodingKeys.objectId)
        static let moment = Column(CodingKeys.moment)
    }
}

/// A branch version (DEFAULT included, with branch 0).
struct VersionRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "version"
    var id: Int64?
    var service: String
    var branch: Int64
    var guid: String
    var owner: String
    var name: String
    var qualifiedName: String
    var access: String
    var description: String
    var ancestorMoment: Int64
    var baseMoment: Int64
    var createdDate: Int64
    var modifiedDate: Int64
    var reconcileDate: Int64?
    var postDate: Int64?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    enum Columns {
        static let service = Column(CodingKeys.service)
        static let guid = Column(CodingKeys.guid)
        static let qualifiedName = Column(CodingKeys.qualifiedName)
        static let branch = Column(CodingKeys.branch)
    }

    var isDefault: Bool { branch == 0 }
}

// In an extension, so that the struct keeps its memberwise initializer.
extension VersionRecord {
    /// Read column by column: every query resolves its version, and decoding through Codable was a
    /// noticeable part of a small query.
    init(row: Row) throws {
        id = row["id"]
        service = row["service"]
        branch = row["branch"]
        guid = row["guid"]
        owner = row["owner"]
        name = row["name"]
        qualifiedName = row["qualifiedName"]
        access = row["access"]
        description = row["description"]
        ancestorMoment = row["ancestorMoment"]
        baseMoment = row["baseMoment"]
        createdDate = row["createdDate"]
        modifiedDate = row["modifiedDate"]
        reconcileDate = row["reconcileDate"]
        postDate = row["postDate"]
    }
}

/// A conflict found by the last reconcile of a version.
struct ConflictRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "conflict"
    var id: Int64?
    var versionId: Int64
    var layerKey: Int64
    var objectId: Int64
    var kind: String
    /// JSON array of the field names changed on both sides (byAttribute), or empty.
    var fields: String
    var inspected: Bool
    /// The common-ancestor moment the conflict was measured from.
    var ancestorMoment: Int64

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    enum Columns {
        static let versionId = Column(CodingKeys.versionId)
        static let layerKey = Column(CodingKeys.layerKey)
        static let objectId = Column(CodingKeys.objectId)
    }
}

/// The bytes of an attachment, shared by every row that refers to them (posting copies the row, not the bytes).
struct AttachmentDataRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "attachmentData"
    var id: Int64?
    var bytes: Data

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// One state of one attachment in one branch at one moment, versioned like feature rows.
struct AttachmentRowRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "attachmentRow"
    var id: Int64?
    var layerKey: Int64
    var attachmentId: Int64
    var globalId: String
    var parentObjectId: Int64
    var parentGlobalId: String
    var branch: Int64
    var moment: Int64
    var isDelete: Bool
    var name: String
    var contentType: String
    var size: Int64
    var keywords: String?
    var dataId: Int64

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    enum Columns {
        static let layerKey = Column(CodingKeys.layerKey)
        static let attachmentId = Column(CodingKeys.attachmentId)
        static let globalId = Column(CodingKeys.globalId)
        static let parentObjectId = Column(CodingKeys.parentObjectId)
        static let branch = Column(CodingKeys.branch)
        static let moment = Column(CodingKeys.moment)
    }
}
