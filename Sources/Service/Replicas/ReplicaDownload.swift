import Foundation
import FeatureServiceModel
import WebMap

/// The service's changes of one layer since a replica's generation, as a download: found before the
/// sync's upload writes (so the upload's own edits are not among them), answered after it with each
/// feature's current state. A feature the replica holds now but did not at the generation is an add, one
/// it held both times an update, one it held then but no longer (deleted, or out of its filter) a delete.
struct ReplicaDownload {
    let db: any StoreConnection
    let filter: ReplicaLayerFilter
    let view: VersionView
    let changes: [ReplicaHistory.Change]
    let attachmentChanges: [(before: AttachmentRowRecord?, now: AttachmentRowRecord?)]

    init(db: any StoreConnection, filter: ReplicaLayerFilter, since generation: GenerationView, view: VersionView, attachments: Bool) throws {
        self.db = db
        self.filter = filter
        self.view = view
        changes = try ReplicaHistory.changes(db, layerKey: filter.layer.key, since: generation, view: view)
        attachmentChanges = attachments && filter.layer.metadata.hasAttachments
            ? try ReplicaHistory.attachmentChanges(db, layerKey: filter.layer.key, since: generation, view: view) : []
    }

    /// The download, read now (after the upload). `keptAfterClientDelete`: features the client deleted
    /// whose later service update won; the client no longer has them, so they come as adds.
    func answer(keptAfterClientDelete: Set<Int64>) throws -> ReplicaLayerEdits {
        let layer = filter.layer
        var edits = ReplicaLayerEdits(id: layer.id)
        for change in changes {
            let now = try RowStore.visibleRow(db, layerKey: layer.key, objectId: change.objectId, view: view)
            let heldBefore = try filter.holds(change.before) && !keptAfterClientDelete.contains(change.objectId)
            let heldNow = try filter.holds(now)
            switch (heldBefore, heldNow) {
            case (false, true): edits.adds.append(try ReplicaHistory.feature(db, now!, layer: layer))
            case (true, true): edits.updates.append(try ReplicaHistory.feature(db, now!, layer: layer))
            case (true, false): edits.deleteIds.append((now ?? change.before)!.globalId)
            case (false, false): break
            }
        }
        for change in attachmentChanges {
            let id = (change.now ?? change.before)!.attachmentId
            let now = try AttachmentStore.visible(db, layerKey: layer.key, attachmentId: id, view: view)
            if let now {
                guard try filter.holds(try RowStore.visibleRow(db, layerKey: layer.key, objectId: now.parentObjectId, view: view)) else { continue }
                let attachment = try ReplicaHistory.attachment(db, now)
                if change.before == nil { edits.attachmentAdds.append(attachment) } else { edits.attachmentUpdates.append(attachment) }
            } else if let before = change.before {
                edits.attachmentDeleteIds.append(before.globalId)
            }
        }
        return edits
    }
}
