import Foundation
import WebMap
import FeatureServiceModel

extension ServiceCore {
    /// `<layer>/query` answered as compact Esri JSON (`f=json`): byte for byte what `OrderedJSONEncoder` makes of
    /// what `query` answers, but a feature set is written while its rows are read (stored attribute text copied as
    /// it is where that is provably the same text, `StoredAttributesWriter`), without building the features.
    ///
    /// A short read (`QueryPlan.isShortRead`: a page of DEFAULT without filter, in object id order) is first tried as
    /// one statement without a transaction (`singleStatementPage`, which checks DEFAULT's access and a deep page's
    /// cached object id itself): on SQLite synchronously on the calling task's thread
    /// (`Store.answerAloneOnCallingThread`, a bounded read of at most `maxRecordCount` rows by key, which the server
    /// makes on the connection's event loop), on PostgreSQL as one round trip (`Store.answerAlone`). When that
    /// statement answers no row, the full read on the calling thread (`Store.readOnCallingThread`) answers exactly.
    /// Any other query is read through the store's asynchronous read, so that a long one holds no thread of the
    /// caller's.
    public func queryText(service name: String, layer layerId: Int, _ parameters: QueryParameters, as caller: Caller) async throws -> [UInt8] {
        switch try await readText(service: name, layer: layerId, parameters, as: caller, format: .esriJSON) {
        case .bytes(let bytes):
            return bytes
        case .response(let response):
            let document: JSON
            do { document = try OrderedJSONEncoder().encode(response) } catch {
                throw ServiceError.internal("The answer could not be encoded: \(error)")
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(4096)
            document.write(to: &bytes)
            return bytes
        }
    }

    /// What `queryGeoJSON` answers: a feature page already written as GeoJSON, or any other answer (a count, ids, an
    /// extent, statistics) for the caller to write as it chooses.
    public enum GeoJSONAnswer: Sendable {
        case bytes([UInt8])
        case response(QueryResponse)
    }

    /// `<layer>/query` answered as GeoJSON (`f=geojson`): a feature page byte for byte what writing
    /// `FeatureSet.geoJSON()` of what `query` answers gives, written while its rows are read as `queryText` writes
    /// Esri JSON (the same reads: on the calling thread, one statement, or the store's asynchronous read). Geometries
    /// are written in the plan's output spatial reference: ask with `outSR` 4326 for GeoJSON proper.
    public func queryGeoJSON(service name: String, layer layerId: Int, _ parameters: QueryParameters, as caller: Caller) async throws -> GeoJSONAnswer {
        switch try await readText(service: name, layer: layerId, parameters, as: caller, format: .geoJSON) {
        case .bytes(let bytes): return .bytes(bytes)
        case .response(let response): return .response(response)
        }
    }

    /// The reads of `queryText` and `queryGeoJSON`, the feature pages written in `format`.
    private func readText(service name: String, layer layerId: Int, _ parameters: QueryParameters, as caller: Caller,
                          format: QueryPlan.TextFormat) async throws -> QueryPlan.TextAnswer {
        let query = try prepareQuery(service: name, layer: layerId, parameters, as: caller)
        let read: @Sendable (any StoreConnection) throws -> QueryPlan.TextAnswer = { db in
            try query.plan.runText(db, view: query.view(db), anchors: query.anchors, format: format)
        }
        let page = query.plan.singleStatementPage(service: query.service.name, policy: query.policy, anchors: query.anchors,
                                                  dialect: database.dialect)
        if let page, let text = try database.answerAloneOnCallingThread(page.sql, { rows in try query.plan.pageText(page, format: format, rows: rows) }),
           text.count > 0 {
            return .bytes(text.bytes)
        }
        if query.plan.isShortRead, let here = try database.readOnCallingThread(read) {
            return here
        }
        if let page, let rows = try await database.answerAlone(page.sql),
           case let text = try query.plan.pageText(page, format: format, rows: rows.forEach), text.count > 0 {
            return .bytes(text.bytes)
        }
        return try await database.read(read)
    }
}
