import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// `/arcgis/rest/info` (token security advertised), `/arcgis/rest/services` (the catalogue) and
/// `/health`.
struct ServicesDirectoryRoutes {
    let core: ServiceCore
    let site: SiteInfo

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        router.getAndPost("arcgis/rest/info", use: info)
        router.getAndPost("arcgis/rest", use: info)
        router.getAndPost("arcgis/rest/services", use: services)
        router.get("health", use: health)
    }

    /// What ArcGIS Server answers at `rest/info`: version and how to get a token.
    @Sendable func info(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let base = site.baseURL(for: request)
        var authInfo: [(String, JSON)] = [("isTokenBasedSecurity", .bool(core.requiresAuthentication))]
        if core.requiresAuthentication {
            authInfo.append(("tokenServicesUrl", .string("\(base)/sharing/rest/generateToken")))
            authInfo.append(("shortLivedTokenValidity", .int(60)))
        }
        return ArcGISResponse.document(.object([
            ("currentVersion", .double(SiteInfo.serverVersion)),
            ("fullVersion", .string(SiteInfo.serverFullVersion)),
            ("soapUrl", .null),
            ("secureSoapUrl", .null),
            ("owningSystemUrl", .string(base)),
            ("authInfo", .object(authInfo)),
        ]), context: context)
    }

    @Sendable func services(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if HTMLNegotiation.wantsHTML(request, context.arguments) { return try await DirectoryPages(core: core).catalogue(request, context) }
        return ArcGISResponse.document(core.catalogueInfo(), context: context)
    }

    @Sendable func health(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        ArcGISResponse.document(.object([("status", .string("ok")), ("services", .array(core.serviceNames.map(JSON.string)))]), context: context)
    }
}
