import Foundation
import FeatureServiceModel
import WebMap

/// Writes a client's uploaded edits of one layer (by global id) through the edit writer, resolving
/// conflicts "last in wins": an update or delete of a feature whose state in the replica's version
/// changed after the client's generation is a conflict. Per field, a value only one side changed keeps
/// that side's value, and a field both changed takes the value of the later edit (the client's
/// `editMoment`, or the upload's moment when it has none, against the moment of the service's newest
/// state). A delete against an update: the later one wins (a client update later than the service's
/// delete brings the feature back).
struct ReplicaUpload {
    let db: any StoreConnection
    let layer: LayerModel
    let generation: GenerationView
    let view: VersionView
    /// The upload's moment.
    let moment: Int64

    /// What the upload did.
    struct Outcome {
        var results: LayerEditResults
        var conflicts: [ReplicaConflict] = []
        /// Features the client deleted but the service kept (its later update won): the download answers
        /// them as adds, since the client no longer has them.
        var keptAfterClientDelete: Set<Int64> = []
    }

    func apply(_ edits: ReplicaLayerEdits, writer: inout EditWriter) throws -> Outcome {
        // An add whose global id the service has already is a repeat of an upload whose answer the client
        // never got (it was killed, or the network dropped the answer): it is applied as an update of that
        // feature, so that syncing again lands every edit exactly once.
        var fresh: [ReplicaFeature] = [], repeated: [(index: Int, feature: ReplicaFeature)] = []
        for (index, feature) in edits.adds.enumerated() {
            if let id = globalId(of: feature), try RowStore.visibleRow(db, layerKey: layer.key, globalId: id, view: view) != nil {
                repeated.append((index, feature))
            } else {
                fresh.append(feature)
            }
        }
        let adds = fresh.map { EditFeature(attributes: $0.attributes, geometry: $0.geometry) }
        var results = try writer.apply(LayerEdits(id: layer.id, adds: adds), layer: layer)
        for (feature, result) in zip(fresh, results.addResults) where result.success {
            try record(feature.editMoment, objectId: result.objectId)
        }
        var outcome = Outcome(results: results)
        for (index, feature) in repeated {
            let result = try repeatedAdd(feature, writer: &writer, outcome: &outcome)
            outcome.results.addResults.insert(result, at: min(index, outcome.results.addResults.count))
        }
        for feature in edits.updates { outcome.results.updateResults.append(try update(feature, writer: &writer, outcome: &outcome)) }
        for globalId in edits.deleteIds {
            outcome.results.deleteResults.append(try delete(globalId, clientMoment: edits.deleteMoments[globalId], writer: &writer, outcome: &outcome))
        }
        // Attachments a repeated upload added already are updated with the same bytes instead.
        var attachmentAdds: [ReplicaAttachment] = [], attachmentUpdates = edits.attachmentUpdates
        for attachment in edits.attachmentAdds {
            if let id = GUIDText.normalize(attachment.globalId), try AttachmentStore.visible(db, layerKey: layer.key, globalId: id, view: view) != nil {
                attachmentUpdates.append(attachment)
            } else {
                attachmentAdds.append(attachment)
            }
        }
        let attachments = AttachmentEdits(
            adds: attachmentAdds.map { AttachmentUpload(globalId: $0.globalId, parentGlobalId: $0.parentGlobalId, name: $0.name, contentType: $0.contentType, data: $0.data) },
            updates: attachmentUpdates.map { AttachmentUpload(globalId: $0.globalId, parentGlobalId: $0.parentGlobalId, name: $0.name, contentType: $0.contentType, data: $0.data) },
            deletes: edits.attachmentDeleteIds)
        if !attachments.isEmpty {
            results = try writer.apply(LayerEdits(id: layer.id, attachments: attachments), layer: layer)
            outcome.results.attachments = results.attachments
        }
        outcome.results.editMoment = nil
        return outcome
    }

    // MARK: Features

    /// An add the service has already (see `apply`): nothing to do when the service's state is that very edit
    /// (same edit moment), else an update of it, conflicts resolved as for any update.
    private func repeatedAdd(_ feature: ReplicaFeature, writer: inout EditWriter, outcome: inout Outcome) throws -> EditResult {
        if let id = globalId(of: feature), let now = try RowStore.visibleRow(db, layerKey: layer.key, globalId: id, view: view),
           let sent = feature.editMoment, try ReplicaStore.editMoment(db, of: now) == sent {
            return EditResult(objectId: now.objectId, globalId: id, success: true)
        }
        return try update(feature, writer: &writer, outcome: &outcome)
    }

    private func globalId(of feature: ReplicaFeature) -> String? {
        guard let field = layer.globalIdField, let given = feature.attributes[field]?.string else { return nil }
        return GUIDText.normalize(given)
    }

    /// The feature's state at the client's generation and now, when the service changed it since.
    private func serviceChange(globalId: String) throws -> (before: FeatureRowRecord?, now: FeatureRowRecord)? {
        // A state written by this upload (an add earlier in it) is the client's own, not the service's.
        guard let now = try RowStore.visibleRow(db, layerKey: layer.key, globalId: globalId, view: view), now.moment != moment else { return nil }
        let before = try ReplicaHistory.row(db, layerKey: layer.key, objectId: now.objectId, at: generation)
        return ReplicaHistory.sameState(before, now) ? nil : (before, now)
    }

    /// Records the client's edit moment of the state just written (when it sent one).
    private func record(_ editMoment: Int64?, objectId: Int64?) throws {
        guard let editMoment, let objectId else { return }
        try ReplicaStore.recordEditMoment(db, layerKey: layer.key, branch: view.branch, objectId: objectId, rowMoment: moment, editMoment: editMoment)
    }

    private func plainUpdate(_ feature: EditFeature, editMoment: Int64?, writer: inout EditWriter) throws -> EditResult {
        let result = try writer.apply(LayerEdits(id: layer.id, updates: [feature]), layer: layer)
        guard let first = result.updateResults.first else {
            return EditResult(objectId: nil, globalId: nil, success: false, error: .general("the update was not applied."))
        }
        if first.success { try record(editMoment, objectId: first.objectId) }
        return first
    }

    private func update(_ feature: ReplicaFeature, writer: inout EditWriter, outcome: inout Outcome) throws -> EditResult {
        let plain = EditFeature(attributes: feature.attributes, geometry: feature.geometry)
        guard let field = layer.globalIdField, let given = feature.attributes[field]?.string, let globalId = GUIDText.normalize(given),
              let (before, now) = try serviceChange(globalId: globalId) else {
            return try plainUpdate(plain, editMoment: feature.editMoment, writer: &writer)
        }
        let serviceMoment = try ReplicaStore.editMoment(db, of: now)
        // The service's state is this very edit, uploaded before by a sync whose answer was lost: nothing to do.
        if let sent = feature.editMoment, sent == serviceMoment, !now.isDelete {
            return EditResult(objectId: now.objectId, globalId: globalId, success: true)
        }
        let clientWins = (feature.editMoment ?? moment) > serviceMoment
        if now.isDelete {
            // Deleted on the service since the client's generation (it existed then, or there would be no update).
            guard let before, !before.isDelete else { return try plainUpdate(plain, editMoment: feature.editMoment, writer: &writer) }
            outcome.conflicts.append(ReplicaConflict(layer: layer.id, globalId: globalId, winner: clientWins ? .client : .service))
            guard clientWins else { return EditResult(objectId: now.objectId, globalId: globalId, success: true) }
            // Brought back: the deleted state restored at the upload's moment, then the client's update over it.
            try restore(now, isDelete: false)
            let result = try plainUpdate(plain, editMoment: feature.editMoment, writer: &writer)
            if !result.success { try restore(now, isDelete: true) }
            return result
        }
        outcome.conflicts.append(ReplicaConflict(layer: layer.id, globalId: globalId, winner: clientWins ? .client : .service))
        guard let merged = try merge(feature, before: before, now: now, clientWins: clientWins, globalIdField: field, globalId: globalId) else {
            return EditResult(objectId: now.objectId, globalId: globalId, success: true)
        }
        // The merged state holds the service's values too: it was made no earlier than the service's state.
        return try plainUpdate(merged, editMoment: feature.editMoment.map { max($0, serviceMoment) }, writer: &writer)
    }

    private func delete(_ given: String, clientMoment: Int64?, writer: inout EditWriter, outcome: inout Outcome) throws -> EditResult {
        if let globalId = GUIDText.normalize(given), let (_, now) = try serviceChange(globalId: globalId) {
            if now.isDelete { return EditResult(objectId: now.objectId, globalId: globalId, success: true) }
            let clientWins = (clientMoment ?? moment) > (try ReplicaStore.editMoment(db, of: now))
            outcome.conflicts.append(ReplicaConflict(layer: layer.id, globalId: globalId, winner: clientWins ? .client : .service))
            if !clientWins {
                outcome.keptAfterClientDelete.insert(now.objectId)
                return EditResult(objectId: now.objectId, globalId: globalId, success: true)
            }
        }
        let result = try writer.apply(LayerEdits(id: layer.id, deleteGlobalIds: [given]), layer: layer)
        guard let first = result.deleteResults.first else {
            return EditResult(objectId: nil, globalId: given, success: false, error: .general("the delete was not applied."))
        }
        if first.success { try record(clientMoment, objectId: first.objectId) }
        return first
    }

    /// Writes `row`'s state again at the upload's moment, live or deleted.
    private func restore(_ row: FeatureRowRecord, isDelete: Bool) throws {
        try RowStore.write(db, layerKey: layer.key, branch: view.branch, moment: moment,
                           row: .init(objectId: row.objectId, globalId: row.globalId, isDelete: isDelete,
                                      attributes: try RowStore.decodeAttributes(row.attributes), geometry: try RowStore.decodeGeometry(row.geometry)))
    }

    /// The update that merges the client's feature into the service's newer state field by field; nil
    /// when the service's values win every field the client changed.
    private func merge(_ feature: ReplicaFeature, before: FeatureRowRecord?, now: FeatureRowRecord, clientWins: Bool,
                       globalIdField: String, globalId: String) throws -> EditFeature? {
        let old = try before.map { try RowStore.decodeAttributes($0.attributes) }
        let current = try RowStore.decodeAttributes(now.attributes)
        var attributes = Attributes()
        for (name, value) in feature.attributes {
            guard let field = layer.field(name), field.type != .geometry, !layer.isSystemMaintained(field) else { continue }
            let then = old?[field.name] ?? .null
            let clientChanged = old == nil || !value.sameValue(as: then)
            let serviceChanged = !(current[field.name] ?? .null).sameValue(as: then)
            if clientChanged && (!serviceChanged || clientWins) { attributes[field.name] = value }
        }
        var geometry: Geometry?
        if let shape = feature.geometry, !layer.isTable {
            let system = layer.spatialReference.normalized ?? .wgs84
            let then = try before.flatMap { try RowStore.decodeGeometry($0.geometry) }.map { Projection.project($0, from: .wgs84, to: system) }
            let clientChanged = then.map { !ReplicaGeometry.same(shape, $0) } ?? true
            let serviceChanged = before?.geometry != now.geometry
            if clientChanged && (!serviceChanged || clientWins) { geometry = shape }
        }
        guard !attributes.isEmpty || geometry != nil else { return nil }
        attributes[globalIdField] = .string(globalId)
        return EditFeature(attributes: attributes, geometry: geometry)
    }
}

/// Geometry comparison for conflict detection: a client sends back the coordinates it was given,
/// projected from the stored WGS84, so equal means equal within a tiny tolerance.
enum ReplicaGeometry {
    static func same(_ a: Geometry, _ b: Geometry) -> Bool {
        guard a.type == b.type else { return false }
        let p = a.vertices, q = b.vertices
        guard p.count == q.count else { return false }
        return zip(p, q).allSatisfy { close($0.x, $1.x) && close($0.y, $1.y) }
    }

    private static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
}
