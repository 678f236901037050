import Foundation
import WebMap
import FeatureServiceModel

/// Which rows of one layer a replica holds: its `layerQueries` entry (all, useFilter with the where
/// clause and the area, none), and, on a layer whose ownership-based access control hides others'
/// features, only the caller's (as a query would answer).
struct ReplicaLayerFilter {
    let layer: LayerModel
    let query: ReplicaLayerQuery
    let expression: WhereExpression?
    /// The replica's area in WGS84, when it applies to this layer.
    let area: Geometry?
    /// Only rows this user created (ownership-based access control), or nil.
    let creator: String?

    init(layer: LayerModel, query: ReplicaLayerQuery, area: Geometry?, policy: AccessPolicy) throws {
        self.layer = layer
        self.query = query
        if query.queryOption == .useFilter, let text = query.whereClause, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do { expression = try WhereParser.parse(text, resolveField: { layer.field($0) }) } catch { throw error.serviceError }
        } else {
            expression = nil
        }
        self.area = query.queryOption == .useFilter && query.useGeometry && !layer.isTable ? area : nil
        if let ownership = layer.ownership, !ownership.allowOthersToQuery, !policy.isAdministrator, !policy.ownsService,
           let field = layer.editTracking?.creatorField {
            creator = field
        } else {
            creator = nil
        }
        actingName = policy.actingName
    }

    private let actingName: String

    /// True when `row` is a live feature the replica holds.
    func holds(_ row: FeatureRowRecord?) throws -> Bool {
        guard let row, !row.isDelete, query.queryOption != .none else { return false }
        if expression == nil && area == nil && creator == nil { return true }
        let attributes = try RowStore.decodeAttributes(row.attributes)
        if let creator, attributes[creator]?.string?.caseInsensitiveCompare(actingName) != .orderedSame { return false }
        if let expression, !expression.matches(attributes, field: { layer.field($0) }) { return false }
        if let area {
            guard let geometry = try RowStore.decodeGeometry(row.geometry), Spatial.holds(.intersects, feature: geometry, query: area) else { return false }
        }
        return true
    }

    /// The live rows of the layer in `view` that the replica holds, in object id order.
    func rows(_ db: any StoreConnection, view: VersionView) throws -> [FeatureRowRecord] {
        guard query.queryOption != .none else { return [] }
        let source = QueryCompiler.visibleRows(layerKey: layer.key, view: view, defaultUnchangedSinceAncestor: false)
        var sql: StoreSQL = "SELECT r.* \(source)"
        if let e = area?.envelope {
            sql.append(literal: " AND r.maxX >= \(e.xmin) AND r.minX <= \(e.xmax) AND r.maxY >= \(e.ymin) AND r.minY <= \(e.ymax)")
        }
        sql.append(literal: " ORDER BY r.objectId")
        return try db.fetchRecords(FeatureRowRecord.self, sql).filter { try holds($0) }
    }
}
