import Foundation
import FeatureServiceModel
import WebMap

/// A replica's version as it read at one generation: the branch, and the version's ancestor and base
/// moments then (DEFAULT: ancestor `Int64.max`, base 0).
struct GenerationView: Sendable {
    var generation: Int64
    var branch: Int64
    var ancestorMoment: Int64
    var baseMoment: Int64

    init(generation: Int64, view: VersionView) {
        self.init(generation: generation, branch: view.branch, ancestorMoment: view.ancestorMoment, baseMoment: view.baseMoment)
    }

    init(generation: Int64, branch: Int64, ancestorMoment: Int64, baseMoment: Int64) {
        self.generation = generation
        self.branch = branch
        self.ancestorMoment = ancestorMoment
        self.baseMoment = baseMoment
    }
}

/// Reading the branch history at a generation, and what changed since one: exact, because every write
/// is a row with its moment (docs/service.md, "Storage model").
enum ReplicaHistory {
    /// The row an object read as at generation `g` (deletes included; nil when it did not exist then).
    static func row(_ db: any StoreConnection, layerKey: Int64, objectId: Int64, at g: GenerationView) throws -> FeatureRowRecord? {
        if g.branch != 0 {
            let own = try db.fetchRecord(FeatureRowRecord.self, """
                SELECT * FROM featureRow WHERE layerKey = \(layerKey) AND branch = \(g.branch) AND objectId = \(objectId) \
                AND moment <= \(g.generation) AND moment > \(g.baseMoment) ORDER BY moment DESC LIMIT 1
                """)
            if let own { return own }
        }
        return try RowStore.defaultRow(db, layerKey: layerKey, objectId: objectId, atOrBefore: min(g.ancestorMoment, g.generation))
    }

    /// Object ids whose rows were written after generation `g` where the version reads them (its branch,
    /// and DEFAULT from the older of `g` and the ancestor then): the candidates of `changes`.
    static func candidates(_ db: any StoreConnection, layerKey: Int64, since g: GenerationView) throws -> [Int64] {
        var ids = Set(try db.fetchValues("""
            SELECT DISTINCT objectId FROM featureRow WHERE layerKey = \(layerKey) AND branch = 0 AND moment > \(min(g.generation, g.ancestorMoment))
            """, as: Int64.self))
        if g.branch != 0 {
            ids.formUnion(try db.fetchValues("""
                SELECT DISTINCT objectId FROM featureRow WHERE layerKey = \(layerKey) AND branch = \(g.branch) AND moment > \(g.generation)
                """, as: Int64.self))
        }
        return ids.sorted()
    }

    /// One object's state at a generation and now.
    struct Change {
        var objectId: Int64
        var before: FeatureRowRecord?
        var now: FeatureRowRecord?
    }

    /// The objects whose visible state in `view` differs from their state at generation `g`.
    static func changes(_ db: any StoreConnection, layerKey: Int64, since g: GenerationView, view: VersionView) throws -> [Change] {
        try candidates(db, layerKey: layerKey, since: g).compactMap { objectId in
            let before = try row(db, layerKey: layerKey, objectId: objectId, at: g)
            let now = try RowStore.visibleRow(db, layerKey: layerKey, objectId: objectId, view: view)
            return sameState(before, now) ? nil : Change(objectId: objectId, before: before, now: now)
        }
    }

    /// True when two rows say the same thing (both absent or deleted, or the same attributes and geometry).
    static func sameState(_ a: FeatureRowRecord?, _ b: FeatureRowRecord?) -> Bool {
        let aLive = a.map { !$0.isDelete } ?? false
        let bLive = b.map { !$0.isDelete } ?? false
        guard aLive, bLive, let a, let b else { return aLive == bLive }
        return a.id == b.id || (a.attributes == b.attributes && a.geometry == b.geometry)
    }

    // MARK: Attachments

    /// The attachments (by attachment id) whose live state in `view` differs from their state at `g`:
    /// (before, now), each nil when the attachment was absent or deleted.
    static func attachmentChanges(_ db: any StoreConnection, layerKey: Int64, since g: GenerationView,
                                  view: VersionView) throws -> [(before: AttachmentRowRecord?, now: AttachmentRowRecord?)] {
        let ids = Set(try db.fetchValues("""
            SELECT DISTINCT attachmentId FROM attachmentRow WHERE layerKey = \(layerKey) \
            AND ((branch = 0 AND moment > \(min(g.generation, g.ancestorMoment))) OR (branch = \(g.branch) AND moment > \(g.generation)))
            """, as: Int64.self))
        var result: [(before: AttachmentRowRecord?, now: AttachmentRowRecord?)] = []
        for id in ids.sorted() {
            let rows = try db.fetchRecords(AttachmentRowRecord.self, """
                SELECT * FROM attachmentRow WHERE layerKey = \(layerKey) AND attachmentId = \(id) ORDER BY moment, id
                """)
            let thenView = VersionView(branch: g.branch, ancestorMoment: min(g.ancestorMoment, g.generation), baseMoment: g.baseMoment)
            let before = AttachmentStore.resolve(rows.filter { $0.moment <= g.generation }, view: thenView).first
            let now = AttachmentStore.resolve(rows, view: view).first
            if before?.id == now?.id && before != nil { continue }
            if before == nil && now == nil { continue }
            if let b = before, let n = now, b.dataId == n.dataId && b.name == n.name && b.contentType == n.contentType { continue }
            result.append((before, now))
        }
        return result
    }

    // MARK: Answers

    /// A stored row as replica data: every field (object id and global id included) in field order, the
    /// geometry in the layer's spatial reference, and the moment it was made (`ReplicaStore.editMoment`).
    /// `moments` (`ReplicaStore.editMoments`, read once for many rows) spares a query per row.
    static func feature(_ db: any StoreConnection, _ row: FeatureRowRecord, layer: LayerModel,
                        moments: [ReplicaStore.EditMomentKey: Int64]? = nil) throws -> ReplicaFeature {
        let stored = try RowStore.decodeAttributes(row.attributes)
        var attributes = Attributes()
        for field in layer.fields where field.type != .geometry {
            attributes.appendUnchecked(field.name, stored[field.name] ?? .null)
        }
        attributes[layer.objectIdField] = .int(row.objectId)
        if let field = layer.globalIdField { attributes[field] = .string(row.globalId) }
        let system = layer.spatialReference.normalized ?? .wgs84
        let geometry = layer.isTable ? nil : try RowStore.decodeGeometry(row.geometry).map { Projection.project($0, from: .wgs84, to: system) }
        let editMoment = try moments.map { $0[ReplicaStore.EditMomentKey(branch: row.branch, objectId: row.objectId, rowMoment: row.moment)] ?? row.moment }
            ?? ReplicaStore.editMoment(db, of: row)
        return ReplicaFeature(attributes: attributes, geometry: geometry, editMoment: editMoment)
    }

    /// A stored attachment row with its bytes.
    static func attachment(_ db: any StoreConnection, _ row: AttachmentRowRecord) throws -> ReplicaAttachment {
        let data = try db.fetchValue("SELECT bytes FROM attachmentData WHERE id = \(row.dataId)", as: Data.self) ?? Data()
        return ReplicaAttachment(globalId: row.globalId, parentGlobalId: row.parentGlobalId, name: row.name, contentType: row.contentType,
                                 data: data, editMoment: row.moment)
    }
}
