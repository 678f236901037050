import Foundation
import Hummingbird
import NIOCore
import Service
import WebMap
import FeatureServiceModel

/// `<layer>/query` and `<layer>/queryRelatedRecords`, with the decoding of their parameters.
struct QueryRoutes {
    let core: ServiceCore

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        let group = router.group(FeatureServerRoutes.prefix)
        group.getAndPost(":layer/query", use: query)
        group.getAndPost(":layer/queryRelatedRecords", use: queryRelatedRecords)
        group.getAndPost(":layer/:oid", use: feature)
    }

    /// `<layer>/<oid>`: one feature, `{"feature": {"attributes", "geometry"}}`.
    @Sendable func feature(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        _ = try ArcGISResponse.Format.query(context.arguments)
        let layerId = try context.integer("layer")
        let objectId = Int64(try context.integer("oid"))
        let answer = try await core.query(service: try context.serviceName(), layer: layerId,
                                          QueryParameters(objectIds: [objectId], outSR: try context.arguments.spatialReference("outSR"),
                                                          gdbVersion: context.arguments.string("gdbVersion")), as: context.caller)
        guard let feature = answer.featureSet?.features.first else {
            throw ServiceError.objectNotFound(Int(objectId), layer: "Layer \(layerId)")
        }
        return try ArcGISResponse.json(["feature": feature], context: context)
    }

    @Sendable func query(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if HTMLNegotiation.wantsHTML(request, context.arguments) { return try await DirectoryPages(core: core).query(request, context) }
        let format = try ArcGISResponse.Format.query(context.arguments)
        var parameters = try QueryParameters(arguments: context.arguments)
        if format == .geojson && parameters.outSR == nil { parameters.outSR = .wgs84 }
        if format == .json {
            // The core writes the Esri JSON answer itself while it reads the rows. A short read (a page of DEFAULT in
            // object id order, at most maxRecordCount rows by key) is made on this thread, the connection's event loop
            // (`EventLoopConnections`); any other query waits on the store's own threads.
            let bytes = try await core.queryText(service: try context.serviceName(), layer: try context.integer("layer"), parameters, as: context.caller)
            return ArcGISResponse.buffer(ByteBuffer(bytes: bytes))
        }
        if format == .geojson {
            // Feature pages are written as GeoJSON while the rows are read, as Esri JSON pages are above.
            switch try await core.queryGeoJSON(service: try context.serviceName(), layer: try context.integer("layer"), parameters, as: context.caller) {
            case .bytes(let bytes):
                return ArcGISResponse.buffer(ByteBuffer(bytes: bytes), contentType: ArcGISResponse.geoJSONContentType)
            case .response(let answer):
                return try Self.geoJSON(answer, context: context)
            }
        }
        let answer = try await core.query(service: try context.serviceName(), layer: try context.integer("layer"), parameters, as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    /// A query answer other than a feature page (written by the core) as `f=geojson` answers it: a feature set
    /// (statistics) as a FeatureCollection, an extent as a FeatureCollection with its `bbox`, anything else as Esri JSON.
    private static func geoJSON(_ answer: QueryResponse, context: MapRulesRequestContext) throws -> Response {
        if let set = answer.featureSet {
            return ArcGISResponse.document(set.geoJSON(), context: context, contentType: ArcGISResponse.geoJSONContentType)
        }
        if case .extent(let extent) = answer {
            return ArcGISResponse.document(extent.geoJSON(), context: context, contentType: ArcGISResponse.geoJSONContentType)
        }
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func queryRelatedRecords(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        _ = try ArcGISResponse.Format.query(context.arguments)
        let parameters = try RelatedRecordsParameters(arguments: context.arguments)
        let answer = try await core.queryRelatedRecords(service: try context.serviceName(), layer: try context.integer("layer"),
                                                        parameters, as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }
}

extension QueryParameters {
    /// Reads the `query` parameters of docs/service.md; unknown ones are ignored, malformed ones refused
    /// with a 400 that names them.
    init(arguments a: RequestArguments) throws {
        self.init()
        whereClause = a.string("where")
        objectIds = try a.integers("objectIds")
        outFields = a.string("outFields").map(QueryParameters.parseFieldList)
        returnGeometry = try a.bool("returnGeometry", default: true)
        (geometry, inSR) = try a.geometryArgument()
        if let text = a.string("spatialRel") {
            guard let relation = SpatialRelation(parameter: text) else {
                throw ServiceError.invalidQuery("spatialRel '\(text.prefix(40))' is not supported (intersects, contains, within, envelope-intersects).")
            }
            spatialRelation = relation
        }
        outSR = try a.spatialReference("outSR")
        orderByFields = a.string("orderByFields")
        resultOffset = try a.int("resultOffset")
        resultRecordCount = try a.int("resultRecordCount")
        returnCountOnly = try a.bool("returnCountOnly", default: false)
        returnIdsOnly = try a.bool("returnIdsOnly", default: false)
        returnExtentOnly = try a.bool("returnExtentOnly", default: false)
        if let text = a.string("outStatistics") { outStatistics = try StatisticDefinition.parse(text) }
        groupByFieldsForStatistics = a.string("groupByFieldsForStatistics").map(QueryParameters.parseFieldList)
        gdbVersion = a.string("gdbVersion")
    }
}

extension RelatedRecordsParameters {
    /// Reads the `queryRelatedRecords` parameters (`relationshipId` required).
    init(arguments a: RequestArguments) throws {
        guard let relationshipId = try a.int("relationshipId") else { throw ServiceError.invalidQuery("relationshipId is required.") }
        self.init(relationshipId: relationshipId, objectIds: try a.integers("objectIds") ?? [],
                  outFields: a.string("outFields").map(QueryParameters.parseFieldList),
                  definitionExpression: a.string("definitionExpression"),
                  returnGeometry: try a.bool("returnGeometry", default: true),
                  outSR: try a.spatialReference("outSR"),
                  orderByFields: a.string("orderByFieldsForRelated") ?? a.string("orderByFields"),
                  returnCountOnly: try a.bool("returnCountOnly", default: false),
                  gdbVersion: a.string("gdbVersion"))
    }
}
