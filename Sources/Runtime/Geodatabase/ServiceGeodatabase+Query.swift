import Foundation
import FeatureServiceModel
import WebMap

/// What `queryFeatures` asks (docs/runtime.md "Feature tables and features").
public struct FeatureQuery: Sendable {
    public var whereClause: String?
    public var objectIds: [Int64]?
    public var geometry: Geometry?
    /// The spatial reference of `geometry` (default: the table's).
    public var spatialReference: SpatialReference?
    public var spatialRelationship: SpatialRelation
    /// `Field [ASC|DESC], ...`.
    public var orderBy: String?
    public var offset: Int?
    public var limit: Int?

    public init(where whereClause: String? = nil, objectIds: [Int64]? = nil, geometry: Geometry? = nil, spatialReference: SpatialReference? = nil,
                spatialRelationship: SpatialRelation = .intersects, orderBy: String? = nil, offset: Int? = nil, limit: Int? = nil) {
        self.whereClause = whereClause
        self.objectIds = objectIds
        self.geometry = geometry
        self.spatialReference = spatialReference
        self.spatialRelationship = spatialRelationship
        self.orderBy = orderBy
        self.offset = offset
        self.limit = limit
    }
}

/// Queries read the current version and overlay the local edits: local adds that match are included, local
/// deletes hidden, local updates shown as they are now (and included or left out by their new values).
extension ServiceGeodatabase {
    func queryFeatures(_ query: FeatureQuery, tableID: Int) async throws -> [TableFeature] {
        let query = resolvingTemporaryIds(query, tableID: tableID)
        let table = try await info(tableID)
        let local = edits[tableID] ?? TableEdits()
        if let offset = query.offset, offset < 0 { throw invalidQuery("offset must not be negative", table) }
        if let limit = query.limit, limit < 0 { throw invalidQuery("limit must not be negative", table) }
        let serviceIds = query.objectIds?.filter { $0 > 0 }
        var fromService: [TableFeature] = []
        if query.objectIds == nil || !(serviceIds ?? []).isEmpty {
            var parameters = try await serviceParameters(query, table: table, objectIds: serviceIds)
            if local.isEmpty {
                // No local edit touches this table: the service pages and orders.
                parameters.resultOffset = query.offset
                parameters.resultRecordCount = query.limit
                return try await serviceFeatures(table: table, parameters, all: query.limit == nil)
            }
            // The page must be made after the overlay: ask for enough rows to fill it whatever the local edits hide.
            // Every page up to that many: the service caps each answer at its maxRecordCount.
            if let limit = query.limit { parameters.resultRecordCount = (query.offset ?? 0) + limit + local.touchedServiceIds.count }
            fromService = try await serviceFeatures(table: table, parameters, all: true)
        }
        let touched = local.touchedServiceIds
        var result = fromService.filter { feature in feature.objectId.map { !touched.contains($0) } ?? true }
        let filter = try LocalFilter(query: query, table: table)
        for feature in local.orderedUpdates + local.orderedAdds where filter.matches(feature) { result.append(feature) }
        result = try LocalOrder(orderBy: query.orderBy, table: table).sorted(result)
        let start = min(query.offset ?? 0, result.count)
        let end = query.limit.map { min(start + $0, result.count) } ?? result.count
        return Array(result[start..<end])
    }

    func count(_ query: FeatureQuery, tableID: Int) async throws -> Int {
        let query = resolvingTemporaryIds(query, tableID: tableID)
        let table = try await info(tableID)
        let local = edits[tableID] ?? TableEdits()
        let serviceIds = query.objectIds?.filter { $0 > 0 }
        var total = 0
        if query.objectIds == nil || !(serviceIds ?? []).isEmpty {
            let parameters = try await serviceParameters(query, table: table, objectIds: serviceIds)
            total = try await call("Counting \(table.title)", table) { try await self.service.queryCount(layer: table.id, parameters) }
            let touched = local.touchedServiceIds
            if !touched.isEmpty {
                var hidden = parameters
                hidden.objectIds = Array(touched.intersection(serviceIds.map(Set.init) ?? touched))
                if !(hidden.objectIds ?? []).isEmpty {
                    let touchedHere = hidden
                    total -= try await call("Counting \(table.title)", table) { try await self.service.queryCount(layer: table.id, touchedHere) }
                }
            }
        }
        let filter = try LocalFilter(query: query, table: table)
        total += (local.orderedUpdates + local.orderedAdds).filter(filter.matches).count
        return total
    }

    /// The query with applied temporary ids replaced by the service's.
    private func resolvingTemporaryIds(_ query: FeatureQuery, tableID: Int) -> FeatureQuery {
        var query = query
        query.objectIds = query.objectIds?.map { resolvedObjectId($0, tableID: tableID) }
        return query
    }

    /// The service's parameters for `query` in the current version (all fields, geometry in the table's reference).
    private func serviceParameters(_ query: FeatureQuery, table: TableInfo, objectIds: [Int64]?) async throws -> QueryParameters {
        QueryParameters(where: query.whereClause, objectIds: objectIds, outFields: ["*"], returnGeometry: !table.isTable, geometry: query.geometry,
                        inSR: query.geometry == nil ? nil : (query.spatialReference ?? table.spatialReference), spatialRelation: query.spatialRelationship,
                        outSR: table.isTable ? nil : table.spatialReference, orderByFields: query.orderBy, gdbVersion: try await gdbVersion)
    }

    /// Features from the service; with `all`, every page (bounded by the number of pages the count asks for).
    func serviceFeatures(table: TableInfo, _ parameters: QueryParameters, all: Bool = false) async throws -> [TableFeature] {
        var parameters = parameters
        if parameters.gdbVersion == nil { parameters.gdbVersion = try await gdbVersion }
        if parameters.outSR == nil && !table.isTable { parameters.outSR = table.spatialReference }
        var result: [TableFeature] = []
        let pageLimit = 100_000
        for _ in 0..<pageLimit {
            let asked = parameters
            let page = try await call("Querying \(table.title)", table) { try await self.service.queryFeatures(layer: table.id, asked) }
            let reference = page.spatialReference ?? table.spatialReference
            for feature in page.features {
                result.append(TableFeature(tableID: table.id, objectId: table.objectId(of: feature.attributes), attributes: feature.attributes,
                                           geometry: feature.geometry, spatialReference: table.isTable ? nil : reference))
            }
            guard all, page.exceededTransferLimit == true, !page.features.isEmpty else { break }
            if let wanted = parameters.resultRecordCount {
                let remaining = wanted - page.features.count
                if remaining <= 0 { break }
                parameters.resultRecordCount = remaining
            }
            parameters.resultOffset = (parameters.resultOffset ?? 0) + page.features.count
        }
        return result
    }

    /// Runs a service call, turning its failure into a `RuntimeError` naming the table.
    func call<T: Sendable>(_ operation: String, _ table: TableInfo, _ body: @Sendable () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw RuntimeError.wrapping(error, operation: operation, layer: table.reference) }
    }

    private func invalidQuery(_ why: String, _ table: TableInfo) -> RuntimeError {
        RuntimeError(RuntimeError.Identifier.serviceError, "Querying \(table.title): \(why).", serviceCode: 400, layer: table.reference)
    }
}

/// The query's filter applied to local features, with the service's meaning (`WhereExpression.matches`).
struct LocalFilter {
    let table: TableInfo
    let expression: WhereExpression?
    let objectIds: Set<Int64>?
    let geometry: Geometry?
    let relation: SpatialRelation

    init(query: FeatureQuery, table: TableInfo) throws {
        self.table = table
        if let text = query.whereClause, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do { expression = try WhereParser.parse(text) { table.field($0) } } catch {
                throw RuntimeError(RuntimeError.Identifier.serviceError, "Querying \(table.title): \(error.description)", serviceCode: 400, layer: table.reference)
            }
        } else {
            expression = nil
        }
        objectIds = query.objectIds.map(Set.init)
        geometry = try query.geometry.map {
            try ServiceGeodatabase.project($0, from: query.spatialReference ?? table.spatialReference, to: table.spatialReference, table: table, operation: "Querying")
        }
        relation = query.spatialRelationship
    }

    func matches(_ feature: TableFeature) -> Bool {
        if let objectIds, !objectIds.contains(feature.objectId ?? 0) { return false }
        if let expression, !expression.matches(feature.attributes, field: { table.field($0) }) { return false }
        if let geometry {
            guard let own = feature.geometry else { return false }
            if !relation.holds(feature: own, query: geometry) { return false }
        }
        return true
    }
}

/// The order of `orderBy` for features merged from the service and the local edits: the service's order for
/// each field (nulls first ascending, as SQLite sorts), then the object id, local adds last.
struct LocalOrder {
    let keys: [(field: String, descending: Bool)]
    let table: TableInfo

    init(orderBy: String?, table: TableInfo) throws {
        self.table = table
        keys = (orderBy ?? "").split(separator: ",").compactMap { part in
            let words = part.split(separator: " ").map(String.init)
            guard let name = words.first else { return nil }
            return (table.field(name)?.name ?? name, words.count > 1 && words[1].uppercased() == "DESC")
        }
    }

    func sorted(_ features: [TableFeature]) -> [TableFeature] {
        features.enumerated().sorted { a, b in
            for key in keys {
                let x = WhereValueOrder(a.element.attributes[key.field]), y = WhereValueOrder(b.element.attributes[key.field])
                if x == y { continue }
                return key.descending ? y < x : x < y
            }
            if keys.isEmpty {
                let x = a.element.objectId ?? 0, y = b.element.objectId ?? 0
                if (x < 0) != (y < 0) { return x > 0 }
                if x != y { return x < 0 ? x > y : x < y }
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// SQLite's order of values: null, then numbers, then text.
struct WhereValueOrder: Comparable {
    let rank: Int
    let number: Double
    let text: String

    init(_ value: AttributeValue?) {
        switch value {
        case .int(let i)?: (rank, number, text) = (1, Double(i), "")
        case .double(let d)?: (rank, number, text) = (1, d, "")
        case .string(let s)?: (rank, number, text) = (2, 0, s)
        default: (rank, number, text) = (0, 0, "")
        }
    }

    static func < (a: Self, b: Self) -> Bool {
        if a.rank != b.rank { return a.rank < b.rank }
        return a.rank == 1 ? a.number < b.number : a.text < b.text
    }
}
