import Foundation
import FeatureServiceModel
import WebMap

/// An attachment added locally, not yet applied.
struct StagedAttachment: Sendable {
    /// A temporary negative id (shown in lists until applied).
    var temporaryId: Int64
    var parentObjectId: Int64
    /// The parent's global id when it was staged (a service feature's; a local add's is read at apply time).
    var parentGlobalIdHint: String?
    var globalId: String
    var name: String
    var contentType: String
    var data: Data
}

/// An attachment deleted locally, not yet applied.
struct StagedAttachmentDelete: Sendable {
    var parentObjectId: Int64
    var attachmentId: Int64
    var globalId: String
}

/// The local edits of one table, until they are applied or undone. Adds keep their temporary (negative) ids;
/// updates and deletes name features of the service. Every collection keeps the order the edits were made in.
struct TableEdits: Sendable {
    private(set) var adds: [Int64: TableFeature] = [:]
    private(set) var addOrder: [Int64] = []
    private(set) var updates: [Int64: TableFeature] = [:]
    private(set) var updateOrder: [Int64] = []
    /// Deleted service features, as they were (their global ids name them in applyEdits).
    private(set) var deletes: [Int64: TableFeature] = [:]
    private(set) var deleteOrder: [Int64] = []
    var attachmentAdds: [StagedAttachment] = []
    var attachmentDeletes: [StagedAttachmentDelete] = []

    var isEmpty: Bool { adds.isEmpty && updates.isEmpty && deletes.isEmpty && attachmentAdds.isEmpty && attachmentDeletes.isEmpty }
    var count: Int { adds.count + updates.count + deletes.count + attachmentAdds.count + attachmentDeletes.count }

    /// Object ids of service features that the local edits change or hide.
    var touchedServiceIds: Set<Int64> { Set(updates.keys).union(deletes.keys) }

    mutating func add(_ feature: TableFeature) {
        guard let id = feature.objectId else { return }
        if adds.updateValue(feature, forKey: id) == nil { addOrder.append(id) }
    }

    /// Records an update: a local add is changed in place; a service feature's update replaces an earlier one.
    mutating func update(_ feature: TableFeature) {
        guard let id = feature.objectId else { return }
        if id < 0 {
            adds[id] = feature
        } else if updates.updateValue(feature, forKey: id) == nil {
            updateOrder.append(id)
        }
    }

    /// Records a delete: a local add simply goes (with its staged attachments); a service feature is hidden.
    mutating func delete(_ feature: TableFeature) {
        guard let id = feature.objectId else { return }
        attachmentAdds.removeAll { $0.parentObjectId == id }
        if id < 0 {
            adds[id] = nil
            addOrder.removeAll { $0 == id }
            return
        }
        if updates.removeValue(forKey: id) != nil { updateOrder.removeAll { $0 == id } }
        attachmentDeletes.removeAll { $0.parentObjectId == id }
        if deletes.updateValue(feature, forKey: id) == nil { deleteOrder.append(id) }
    }

    /// The local state of a feature: the local add or update, `.deleted`, or nil when untouched.
    func state(of objectId: Int64) -> LocalState? {
        if objectId < 0 { return adds[objectId].map(LocalState.changed) ?? .deleted }
        if deletes[objectId] != nil { return .deleted }
        return updates[objectId].map(LocalState.changed)
    }

    enum LocalState {
        case changed(TableFeature)
        case deleted
    }

    /// Drops the edits of `sent` that are still exactly as they were sent (they reached the service); a feature
    /// edited again since keeps its newer edit. Staged attachments of dropped adds go with them.
    mutating func forget(_ sent: TableEdits) {
        for (id, feature) in sent.adds where adds[id] == feature {
            adds[id] = nil
            addOrder.removeAll { $0 == id }
            attachmentAdds.removeAll { $0.parentObjectId == id }
        }
        for (id, feature) in sent.updates where updates[id] == feature {
            updates[id] = nil
            updateOrder.removeAll { $0 == id }
        }
        for (id, _) in sent.deletes where deletes[id] != nil {
            deletes[id] = nil
            deleteOrder.removeAll { $0 == id }
        }
        let sentAttachments = Set(sent.attachmentAdds.map(\.globalId))
        attachmentAdds.removeAll { sentAttachments.contains($0.globalId) }
        let sentDeletes = Set(sent.attachmentDeletes.map(\.globalId))
        attachmentDeletes.removeAll { sentDeletes.contains($0.globalId) }
    }

    var orderedAdds: [TableFeature] { addOrder.compactMap { adds[$0] } }
    var orderedUpdates: [TableFeature] { updateOrder.compactMap { updates[$0] } }
    var orderedDeletes: [TableFeature] { deleteOrder.compactMap { deletes[$0] } }
}
