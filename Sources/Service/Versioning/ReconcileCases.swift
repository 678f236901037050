import Foundation
import FeatureServiceModel
import WebMap

/// What a reconcile finds for one object changed both in a version and in DEFAULT since their common ancestor.
struct ReconcileCase {
    enum Outcome {
        /// A conflict of `kind`; `fields` are the fields changed on both sides (update-update with an ancestor).
        case conflict(ConflictKind, fields: [String])
        /// No conflict by attribute: DEFAULT's changes to `theirsChanged` ("SHAPE" for the geometry) go into the version.
        case merge(theirsChanged: Set<String>)
        /// Nothing to do (deleted on both sides, or DEFAULT changed nothing the version did not).
        case none
    }

    var objectId: Int64
    /// The version's newest row of the object.
    var mine: FeatureRowRecord
    /// DEFAULT's newest row of the object.
    var theirs: FeatureRowRecord
    var outcome: Outcome
}

extension ServiceCore {
    /// Walks every object of every layer changed both in `version` (pending, not yet posted) and in DEFAULT since
    /// the version's common ancestor, in object id order per layer, with what a reconcile makes of it: the one
    /// conflict detection of `reconcile` and of the conflicts it records when it aborts.
    static func forEachReconcileCase(_ db: any StoreConnection, service: ServiceModel, version: VersionRecord, detection: ConflictDetection,
                                     _ body: (LayerModel, ReconcileCase) throws -> Void) throws {
        for layer in service.layers {
            let pending = try pendingRows(db, layerKey: layer.key, version: version)
            guard !pending.isEmpty else { continue }
            let changedInDefault = try changedInDefault(db, layerKey: layer.key, since: version.ancestorMoment)
            for objectId in pending.keys.sorted() where changedInDefault.contains(objectId) {
                let mine = pending[objectId]!
                guard let theirs = try RowStore.visibleRow(db, layerKey: layer.key, objectId: objectId, view: .defaultVersion) else { continue }
                let ancestor = try RowStore.defaultRow(db, layerKey: layer.key, objectId: objectId, atOrBefore: version.ancestorMoment)
                let outcome = try reconcileOutcome(mine: mine, theirs: theirs, ancestor: ancestor, layer: layer, detection: detection)
                try body(layer, ReconcileCase(objectId: objectId, mine: mine, theirs: theirs, outcome: outcome))
            }
        }
    }

    /// Compares the two sides' changes from the common ancestor (nil or a delete: the object was not there).
    private static func reconcileOutcome(mine: FeatureRowRecord, theirs: FeatureRowRecord, ancestor: FeatureRowRecord?, layer: LayerModel,
                                         detection: ConflictDetection) throws -> ReconcileCase.Outcome {
        switch (mine.isDelete, theirs.isDelete) {
        case (true, true): return .none
        case (true, false): return .conflict(.deleteUpdate, fields: [])
        case (false, true): return .conflict(.updateDelete, fields: [])
        case (false, false):
            guard let ancestor, !ancestor.isDelete else { return .conflict(.updateUpdate, fields: []) }
            let mineChanged = try changedFields(from: ancestor, to: mine, layer: layer)
            let theirsChanged = try changedFields(from: ancestor, to: theirs, layer: layer)
            let both = mineChanged.intersection(theirsChanged)
            if detection == .byObject || !both.isEmpty { return .conflict(.updateUpdate, fields: both.sorted()) }
            return theirsChanged.isEmpty ? .none : .merge(theirsChanged: theirsChanged)
        }
    }

    /// Lists a conflict of `version` for `conflicts` (measured from the version's common ancestor).
    static func recordConflict(_ db: any StoreConnection, kind: ConflictKind, fields: [String], objectId: Int64, layer: LayerModel,
                               version: VersionRecord) throws {
        try db.insert(ConflictRecord(id: nil, versionId: version.id!, layerKey: layer.key, objectId: objectId, kind: kind.rawValue,
                                     fields: JSON.array(fields.map(JSON.string)).text, inspected: false, ancestorMoment: version.ancestorMoment))
    }

    /// The version's own (not yet posted) newest rows of a layer, by object id.
    static func pendingRows(_ db: any StoreConnection, layerKey: Int64, version: VersionRecord) throws -> [Int64: FeatureRowRecord] {
        let rows = try db.fetchRecords(FeatureRowRecord.self, """
            SELECT r.* FROM head h JOIN featureRow r ON r.id = h.rowId
            WHERE h.layerKey = \(layerKey) AND h.branch = \(version.branch) AND h.moment > \(version.baseMoment) ORDER BY h.objectId
            """)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.objectId, $0) })
    }

    /// The objects of a layer written to DEFAULT after `moment`.
    static func changedInDefault(_ db: any StoreConnection, layerKey: Int64, since moment: Int64) throws -> Set<Int64> {
        Set(try db.fetchValues("SELECT DISTINCT objectId FROM featureRow WHERE layerKey = \(layerKey) AND branch = 0 AND moment > \(moment)",
                               as: Int64.self))
    }

    /// Field names whose values differ between two states ("SHAPE" for the geometry).
    static func changedFields(from old: FeatureRowRecord, to new: FeatureRowRecord, layer: LayerModel) throws -> Set<String> {
        let a = try RowStore.decodeAttributes(old.attributes), b = try RowStore.decodeAttributes(new.attributes)
        var changed = Set<String>()
        for field in layer.fields where !layer.isSystemMaintained(field) {
            let x = a[field.name] ?? .null, y = b[field.name] ?? .null
            if !x.sameValue(as: y) { changed.insert(field.name) }
        }
        if old.geometry != new.geometry, try RowStore.decodeGeometry(old.geometry) != RowStore.decodeGeometry(new.geometry) { changed.insert("SHAPE") }
        return changed
    }
}
