import Foundation
import GRDB

/// Versioned attachment rows, resolved like feature rows (per attachment id: the version's newest row,
/// else DEFAULT's newest at the ancestor moment).
enum AttachmentStore {
    /// The live attachments of a feature in a view, by attachment id.
    static func visible(_ db: Database, layerKey: Int64, parentObjectId: Int64, view: VersionView) throws -> [AttachmentRowRecord] {
        let rows = try AttachmentRowRecord
            .filter(AttachmentRowRecord.Columns.layerKey == layerKey && AttachmentRowRecord.Columns.parentObjectId == parentObjectId)
            .filter(AttachmentRowRecord.Columns.branch == 0 || AttachmentRowRecord.Columns.branch == view.branch)
            .order(AttachmentRowRecord.Columns.moment)
            .fetchAll(db)
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
    static func visible(_ db: Database, layerKey: Int64, attachmentId: Int64, view: VersionView) throws -> AttachmentRowRecord? {
        let rows = try AttachmentRowRecord
            .filter(AttachmentRowRecord.Columns.layerKey == layerKey && AttachmentRowRecord.Columns.attachmentId == attachmentId)
            .order(AttachmentRowRecord.Columns.moment)
            .fetchAll(db)
        return resolve(rows, view: view).first
    }

    static func visible(_ db: Database, layerKey: Int64, globalId: String, view: VersionView) throws -> AttachmentRowRecord? {
        guard let any = try AttachmentRowRecord
            .filter(AttachmentRowRecord.Columns.layerKey == layerKey && AttachmentRowRecord.Columns.globalId == globalId).fetchOne(db) else { return nil }
        return try visible(db, layerKey: layerKey, attachmentId: any.attachmentId, view: view)
    }

    /// Writes a new attachment (new id) for a feature.
    static func add(_ db: Database, layer: LayerModel, parent: FeatureRowRecord, upload: AttachmentUpload, branch: Int64, moment: Int64) throws -> AttachmentRowRecord {
        guard var layerRecord = try LayerRecord.fetchOne(db, key: layer.key) else { throw ServiceError.internal("layer row missing") }
        let attachmentId = layerRecord.nextAttachmentId
        layerRecord.nextAttachmentId += 1
        try layerRecord.update(db)
        var data = AttachmentDataRecord(id: nil, bytes: upload.data)
        try data.insert(db)
        let globalId = upload.globalId.flatMap(GUIDText.normalize) ?? GUIDText.make()
        var row = AttachmentRowRecord(
            id: nil, layerKey: layer.key, attachmentId: attachmentId, globalId: globalId, parentObjectId: parent.objectId,
            parentGlobalId: parent.globalId, branch: branch, moment: moment, isDelete: false, name: upload.name,
            contentType: upload.contentType, size: Int64(upload.data.count), keywords: upload.keywords, dataId: data.id!)
        try row.insert(db)
        return row
    }

    /// Writes a new state of an existing attachment (an update with new bytes, or a delete).
    static func writeState(_ db: Database, of current: AttachmentRowRecord, upload: AttachmentUpload?, isDelete: Bool, branch: Int64, moment: Int64) throws -> AttachmentRowRecord {
        var row = current
        row.id = nil
        row.branch = branch
        row.moment = moment
        row.isDelete = isDelete
        if let upload {
            var data = AttachmentDataRecord(id: nil, bytes: upload.data)
            try data.insert(db)
            row.dataId = data.id!
            row.name = upload.name
            row.contentType = upload.contentType
            row.size = Int64(upload.data.count)
            row.keywords = upload.keywords ?? row.keywords
        }
        try row.insert(db, onConflict: .replace)
        return row
    }
}
