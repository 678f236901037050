import Arcade
import FeatureServiceModel
import Foundation
import WebMap

/// FeatureSet functions over the runtime's own service, version and local edits: `$map` is the geodatabase's
/// layers and tables by their map titles, `$layer` (and `$datastore`'s names) the service's, and
/// `FeatureSetByRelationshipName` the records related to the feature through a relationship of its table.
/// Used only from `ArcadeThread.run` (each read waits for the geodatabase).
final class GeodatabaseArcadeAccess: ArcadeDataAccess {
    let geodatabase: ServiceGeodatabase
    /// The table of the feature being evaluated (`$layer`, relationships); nil when there is none.
    let current: TableInfo?
    private let tables: [TableInfo]

    init(geodatabase: ServiceGeodatabase, current: TableInfo?, tables: [TableInfo]) {
        self.geodatabase = geodatabase
        self.current = current
        self.tables = tables.sorted { $0.id < $1.id }
    }

    /// The access for expressions evaluated on features of `table`.
    static func make(for table: FeatureTable) async throws -> GeodatabaseArcadeAccess {
        try await make(geodatabase: table.geodatabase, current: table.info)
    }

    static func make(geodatabase: ServiceGeodatabase, current: TableInfo?) async throws -> GeodatabaseArcadeAccess {
        let infos = try await geodatabase.loaded().popups.tables.values.map { $0 }
        return GeodatabaseArcadeAccess(geodatabase: geodatabase, current: current, tables: infos)
    }

    func featureSource(titled title: String) throws -> ArcadeFeatureSource? {
        // The map's title of each layer; a layer the map does not name answers by its service name.
        let info = tables.first { $0.behavior.layer.title == title } ?? tables.first { $0.behavior.layer.title == nil && $0.name == title }
        return info.map { TableFeatureSource(geodatabase: geodatabase, info: $0) }
    }

    func featureSource(layerNamed name: String) throws -> ArcadeFeatureSource? {
        let info = tables.first { $0.name.caseInsensitiveCompare(name) == .orderedSame || String($0.id) == name }
        return info.map { TableFeatureSource(geodatabase: geodatabase, info: $0) }
    }

    func currentLayer() throws -> ArcadeFeatureSource? { current.map { TableFeatureSource(geodatabase: geodatabase, info: $0) } }

    func relatedFeatures(of feature: ArcadeFeature, relationshipName name: String) throws -> ArcadeFeatureSource? {
        guard let current, let relationship = current.metadata.relationships.first(where: { $0.name == name }) else { return nil }
        let geodatabase = self.geodatabase
        let keys = try ArcadeThread.wait { try await geodatabase.keys(of: relationship, table: current) }
        let value = feature.attributes[keys.localKey] ?? .null
        let clause: String
        switch value {
        case .number(let n): clause = "\(keys.relatedKey) = \(n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n))"
        case .text(let t): clause = "\(keys.relatedKey) = '\(t.replacingOccurrences(of: "'", with: "''"))'"
        default: clause = "1 = 0"   // no key: no related record
        }
        return TableFeatureSource(geodatabase: geodatabase, info: keys.related, baseWhere: clause)
    }
}

/// One layer or table of the geodatabase as a FeatureSet source: its features in the current version with the
/// local edits overlaid, as the geodatabase's queries answer.
final class TableFeatureSource: ArcadeFeatureSource {
    let geodatabase: ServiceGeodatabase
    let info: TableInfo
    /// A condition every answer also meets (the key of a relationship).
    let baseWhere: String?
    let schema: ArcadeLayerSchema?

    init(geodatabase: ServiceGeodatabase, info: TableInfo, baseWhere: String? = nil) {
        self.geodatabase = geodatabase
        self.info = info
        self.baseWhere = baseWhere
        schema = ArcadeFeatureConversion(info: info).schema
    }

    func features(matching query: ArcadeFeatureQuery) throws -> [ArcadeFeature] {
        let request = featureQuery(query)
        let geodatabase = self.geodatabase, id = info.id
        let found = try ArcadeThread.wait { try await geodatabase.queryFeatures(request, tableID: id) }
        let conversion = ArcadeFeatureConversion(info: info)
        return found.map { conversion.feature($0, fields: query.fields, includeGeometry: query.includeGeometry) }
    }

    func count(matching query: ArcadeFeatureQuery) throws -> Int {
        var request = featureQuery(query)
        if query.limit != nil {
            request.orderBy = nil
            let geodatabase = self.geodatabase, id = info.id
            return try ArcadeThread.wait { try await geodatabase.queryFeatures(request, tableID: id).count }
        }
        request.orderBy = nil
        let geodatabase = self.geodatabase, id = info.id
        return try ArcadeThread.wait { try await geodatabase.count(request, tableID: id) }
    }

    private func featureQuery(_ query: ArcadeFeatureQuery) -> FeatureQuery {
        let clauses = (baseWhere.map { [$0] } ?? []) + query.whereClauses
        var request = FeatureQuery(where: clauses.isEmpty ? nil : clauses.map { "(\($0))" }.joined(separator: " AND "),
                                   orderBy: query.orderBy, limit: query.limit)
        if let geometry = query.intersecting {
            let (shape, reference) = ArcadeFeatureConversion.geometry(geometry)
            request.geometry = shape
            request.spatialReference = reference
            request.spatialRelationship = .intersects
        }
        return request
    }
}
