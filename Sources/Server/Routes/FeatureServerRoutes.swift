import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// `/arcgis/rest/services/<name>/FeatureServer`: the service root, `layers`, and each layer's or
/// table's JSON; a request for HTML gets the directory page instead (`DirectoryPages`). Queries, edits
/// and attachments have their own route groups under the same prefix.
struct FeatureServerRoutes {
    static let prefix: RouterPath = "arcgis/rest/services/:service/FeatureServer"
    let core: ServiceCore

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        let group = router.group(Self.prefix)
        group.getAndPost("", use: root)
        group.getAndPost("layers", use: layers)
        group.getAndPost(":layer", use: layer)
    }

    @Sendable func root(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if HTMLNegotiation.wantsHTML(request, context.arguments) { return try await DirectoryPages(core: core).featureServer(request, context) }
        return ArcGISResponse.document(try core.serviceInfo(service: try context.serviceName(), as: context.caller), context: context)
    }

    @Sendable func layers(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        ArcGISResponse.document(try core.allLayersInfo(service: try context.serviceName(), as: context.caller), context: context)
    }

    @Sendable func layer(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if HTMLNegotiation.wantsHTML(request, context.arguments) { return try await DirectoryPages(core: core).layer(request, context) }
        return ArcGISResponse.document(try core.layerInfo(service: try context.serviceName(), layer: try context.integer("layer"), as: context.caller),
                                       context: context)
    }
}
