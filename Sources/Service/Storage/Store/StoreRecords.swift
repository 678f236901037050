import FeatureServiceModel
import WebMap

/// The service core's records read from and written to a `Store`: each record's table and columns are defined
/// once (`StoreTables`), and every other file reads and writes them through `fetchRecords` / `fetchRecord` /
/// `insert`. `StoreTablesTests` checks that each record writes and reads back every column of its table.
protocol StoreRecord {
    static var table: StoreTable { get }
    /// The values of `table.insertColumns`, in that order.
    var values: [StoreValue] { get }
    init(row: StoreRow) throws
}

extension StoreRecord {
    /// The columns written on insert (the store-assigned key left out), in `values` order.
    static var insertColumns: [String] { table.insertColumns }

    /// `INSERT INTO table (columns) VALUES (?, ...)` of this record.
    var insertSQL: StoreSQL { StoreSQL(text: Self.table.insertText, arguments: values) }
}

extension StoreConnection {
    /// Records read by a query that selects their columns (`SELECT * FROM table WHERE ...`).
    func fetchRecords<R: StoreRecord>(_ type: R.Type, _ sql: StoreSQL) throws -> [R] {
        try fetchAll(sql).map(R.init(row:))
    }

    /// The first record a query answers, or nil.
    func fetchRecord<R: StoreRecord>(_ type: R.Type, _ sql: StoreSQL) throws -> R? {
        try fetchOne(sql).map(R.init(row:))
    }

    /// Inserts a record whose key the caller chose (or that has none).
    func insert<R: StoreRecord>(_ record: R) throws { try execute(record.insertSQL) }

    /// Inserts a record and answers the key the store assigned to it (`column`).
    func insert<R: StoreRecord>(_ record: R, returning column: String) throws -> Int64 {
        try insert(record.insertSQL, returning: column)
    }
}

extension ServiceRecord: StoreRecord {
    static let table = StoreTables.service
    var values: [StoreValue] {
        [name.storeValue, root.storeValue, settings.storeValue, sourceFolder.storeValue, loadedDate.storeValue,
         lastMoment.storeValue, defaultMoment.storeValue]
    }
    init(row: StoreRow) throws {
        self.init(name: try row.require("name"), root: try row.require("root"), settings: try row.require("settings"),
                  sourceFolder: try row.require("sourceFolder"), loadedDate: try row.require("loadedDate"),
                  lastMoment: try row.require("lastMoment"), defaultMoment: try row.require("defaultMoment"))
    }
}

extension LayerRecord: StoreRecord {
    static let table = StoreTables.layer
    var values: [StoreValue] {
        [service.storeValue, layerId.storeValue, metadata.storeValue, nextObjectId.storeValue, nextAttachmentId.storeValue,
         defaultMoment.storeValue]
    }
    init(row: StoreRow) throws {
        self.init(key: try row.require("key"), service: try row.require("service"), layerId: try row.require("layerId"),
                  metadata: try row.require("metadata"), nextObjectId: try row.require("nextObjectId"),
                  nextAttachmentId: try row.require("nextAttachmentId"), defaultMoment: try row.require("defaultMoment"))
    }
}

extension FeatureRowRecord: StoreRecord {
    static let table = StoreTables.featureRow
    var values: [StoreValue] {
        [layerKey.storeValue, objectId.storeValue, globalId.storeValue, branch.storeValue, moment.storeValue, isDelete.storeValue,
         attributes.storeValue, geometry?.storeValue ?? .null, xmin?.storeValue ?? .null, ymin?.storeValue ?? .null,
         xmax?.storeValue ?? .null, ymax?.storeValue ?? .null]
    }
    init(row: StoreRow) throws {
        self.init(id: try row.require("id"), layerKey: try row.require("layerKey"), objectId: try row.require("objectId"),
                  globalId: try row.require("globalId"), branch: try row.require("branch"), moment: try row.require("moment"),
                  isDelete: try row.require("isDelete"), attributes: try row.require("attributes"), geometry: row.get("geometry"),
                  xmin: row.get("minX"), ymin: row.get("minY"), xmax: row.get("maxX"), ymax: row.get("maxY"))
    }
}

extension HeadRecord: StoreRecord {
    static let table = StoreTables.head
    var values: [StoreValue] {
        [layerKey.storeValue, branch.storeValue, objectId.storeValue, moment.storeValue, isDelete.storeValue, rowId.storeValue]
    }
    init(row: StoreRow) throws {
        self.init(layerKey: try row.require("layerKey"), branch: try row.require("branch"), objectId: try row.require("objectId"),
                  moment: try row.require("moment"), isDelete: try row.require("isDelete"), rowId: try row.require("rowId"))
    }
}

extension VersionRecord: StoreRecord {
    static let table = StoreTables.version
    var values: [StoreValue] {
        [service.storeValue, branch.storeValue, guid.storeValue, owner.storeValue, name.storeValue, qualifiedName.storeValue,
         access.storeValue, description.storeValue, ancestorMoment.storeValue, baseMoment.storeValue, createdDate.storeValue,
         modifiedDate.storeValue, reconcileDate?.storeValue ?? .null, postDate?.storeValue ?? .null]
    }
    init(row: StoreRow) throws {
        self.init(id: try row.require("id"), service: try row.require("service"), branch: try row.require("branch"),
                  guid: try row.require("guid"), owner: try row.require("owner"), name: try row.require("name"),
                  qualifiedName: try row.require("qualifiedName"), access: try row.require("access"),
                  description: try row.require("description"), ancestorMoment: try row.require("ancestorMoment"),
                  baseMoment: try row.require("baseMoment"), createdDate: try row.require("createdDate"),
                  modifiedDate: try row.require("modifiedDate"), reconcileDate: row.get("reconcileDate"), postDate: row.get("postDate"))
    }
}

extension ConflictRecord: StoreRecord {
    static let table = StoreTables.conflict
    var values: [StoreValue] {
        [versionId.storeValue, layerKey.storeValue, objectId.storeValue, kind.storeValue, fields.storeValue, inspected.storeValue,
         ancestorMoment.storeValue]
    }
    init(row: StoreRow) throws {
        self.init(id: try row.require("id"), versionId: try row.require("versionId"), layerKey: try row.require("layerKey"),
                  objectId: try row.require("objectId"), kind: try row.require("kind"), fields: try row.require("fields"),
                  inspected: try row.require("inspected"), ancestorMoment: try row.require("ancestorMoment"))
    }
}

extension AttachmentDataRecord: StoreRecord {
    static let table = StoreTables.attachmentData
    var values: [StoreValue] { [bytes.storeValue] }
    init(row: StoreRow) throws { self.init(id: try row.require("id"), bytes: try row.require("bytes")) }
}

extension AttachmentRowRecord: StoreRecord {
    static let table = StoreTables.attachmentRow
    var values: [StoreValue] {
        [layerKey.storeValue, attachmentId.storeValue, globalId.storeValue, parentObjectId.storeValue, parentGlobalId.storeValue,
         branch.storeValue, moment.storeValue, isDelete.storeValue, name.storeValue, contentType.storeValue, size.storeValue,
         keywords?.storeValue ?? .null, dataId.storeValue]
    }
    init(row: StoreRow) throws {
        self.init(id: try row.require("id"), layerKey: try row.require("layerKey"), attachmentId: try row.require("attachmentId"),
                  globalId: try row.require("globalId"), parentObjectId: try row.require("parentObjectId"),
                  parentGlobalId: try row.require("parentGlobalId"), branch: try row.require("branch"), moment: try row.require("moment"),
                  isDelete: try row.require("isDelete"), name: try row.require("name"), contentType: try row.require("contentType"),
                  size: try row.require("size"), keywords: row.get("keywords"), dataId: try row.require("dataId"))
    }
}

extension ReplicaRecord: StoreRecord {
    static let table = StoreTables.replica
    var values: [StoreValue] {
        [id.storeValue, service.storeValue, name.storeValue, owner.storeValue, versionGuid.storeValue, definition.storeValue,
         syncModel.storeValue, syncDirection.storeValue, returnAttachments.storeValue, serverGen.storeValue,
         layerServerGens?.storeValue ?? .null, creationDate.storeValue, lastSyncDate?.storeValue ?? .null]
    }
    init(row: StoreRow) throws {
        self.init(id: try row.require("id"), service: try row.require("service"), name: try row.require("name"),
                  owner: try row.require("owner"), versionGuid: try row.require("versionGuid"), definition: try row.require("definition"),
                  syncModel: try row.require("syncModel"), syncDirection: try row.require("syncDirection"),
                  returnAttachments: try row.require("returnAttachments"), serverGen: try row.require("serverGen"),
                  layerServerGens: row.get("layerServerGens"), creationDate: try row.require("creationDate"),
                  lastSyncDate: row.get("lastSyncDate"))
    }
}

extension ReplicaGenerationRecord: StoreRecord {
    static let table = StoreTables.replicaGeneration
    var values: [StoreValue] { [replicaId.storeValue, generation.storeValue, ancestorMoment.storeValue, baseMoment.storeValue] }
    init(row: StoreRow) throws {
        self.init(replicaId: try row.require("replicaId"), generation: try row.require("generation"),
                  ancestorMoment: try row.require("ancestorMoment"), baseMoment: try row.require("baseMoment"))
    }
}
