import Foundation
import FeatureServiceModel
import WebMap

/// Versioned attachment rows, resolved like feature rows (per attachment id: the version's newest row,
/// else DEFAULT's newest at the ancestor moment).
enum AttachmentStore {
    /// The live attachments of a feature in a view, by attachment id.
    static func visible(_ db: any StoreConnection, layerKey: Int64, parentObjectId: Int64, view: VersionView) throws -> [AttachmentRowRecord] {
        // Ordered by moment, then by id: of two states written at one moment, the later written wins.
        let rows = try db.fetchRecords(AttachmentRowRecord.self, """
            SELECT * FROM attachmentRow WHERE layerKey = \(layerKey) AND parentObjectId = \(parentObjectId) \
            AND (branch = 0 OR branch = \(view.branch)) ORDER BY moment, id
            """)
        return resolve(rows, view: view)
    }

    static func resolve(_ rows: [AttachmentRowRecord], view: VersionView) -> [AttachmentRowRecord] {
        var newest: [Int64: AttachmentRowRecord] = [:]
        var versionTouched = Set<Int64>()
        for row in rows {
            if view.branch != 0 && row.branch == view.branch && row.moment > view.baseMoment {
                newest[row.attachmentId] = row
                versionTouched.insert(row.attachmentId)
            } else if row.branch == 0 && row.moment <= view.ancestorMoment && !versionTouched.contains(row.attachmentId) {
                newest[row.attachmentId] = row
            }
        }
        return newest.values.filter { !$0.isDelete }.sorted { $0.attachmentId < $1.attachmentId }
    }

    /// The live attachment with `attachmentId` in a view.
    static func visible(_ db: any StoreConnection, layerKey: Int64, attachmentId: Int64, view: VersionView) throws -> AttachmentRowRecord? {
        let rows = try db.fetchRecords(AttachmentRowRecord.self, """
            SELECT * FROM attachmentRow WHERE layerKey = \(layerKey) AND attachmentId = \(attachmentId) ORDER BY moment, id
            """)
        return resolve(rows, view: view).first
    }

    static func visible(_ db: any StoreConnection, layerKey: Int64, globalId: String, view: VersionView) throws -> AttachmentRowRecord? {
        guard let attachmentId = try db.fetchValue("""
            SELECT attachmentId FROM attachmentRow WHERE layerKey = \(layerKey) AND globalId = \(globalId) ORDER BY id LIMIT 1
            """, as: Int64.self) else { return nil }
        return try visible(db, layerKey: layerKey, attachmentId: attachmentId, view: view)
    }

    /// Writes a new attachment (new id) for a feature.
    static func add(_ db: any StoreConnection, layer: LayerModel, parent: FeatureRowRecord, upload: AttachmentUpload, branch: Int64, moment: Int64) throws -> AttachmentRowRecord {
        guard let attachmentId = try db.fetchValue("SELECT nextAttachmentId FROM layer WHERE key = \(layer.key)", as: Int64.self) else {
            throw ServiceError.internal("layer row missing")
        }
        try db.execute("UPDATE layer SET nextAttachmentId = \(attachmentId + 1) WHERE key = \(layer.key)")
        let dataId = try db.insert(AttachmentDataRecord(id: nil, bytes: upload.data), returning: "id")
        let globalId = upload.globalId.flatMap(GUIDText.normalize) ?? GUIDText.make()
        var row = AttachmentRowRecord(
            id: nil, layerKey: layer.key, attachmentId: attachmentId, globalId: globalId, parentObjectId: parent.objectId,
            parentGlobalId: parent.globalId, branch: branch, moment: moment, isDelete: false, name: upload.name,
            contentType: upload.contentType, size: Int64(upload.data.count), keywords: upload.keywords, dataId: dataId)
        row.id = try db.insert(row, returning: "id")
        return row
    }

    /// Writes a new state of an existing attachment (an update with new bytes, or a delete).
    static func writeState(_ db: any StoreConnection, of current: AttachmentRowRecord, upload: AttachmentUpload?, isDelete: Bool, branch: Int64, moment: Int64) throws -> AttachmentRowRecord {
        var row = current
        row.id = nil
        row.branch = branch
        row.moment = moment
        row.isDelete = isDelete
        if let upload {
            row.dataId = try db.insert(AttachmentDataRecord(id: nil, bytes: upload.data), returning: "id")
            row.name = upload.name
            row.contentType = upload.contentType
            row.size = Int64(upload.data.count)
            row.keywords = upload.keywords ?? row.keywords
        }
        // A new row (its id assigned by the store): attachmentRow has no key the row could conflict on.
        row.id = try db.insert(row, returning: "id")
        return row
    }
}
