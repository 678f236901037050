import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// `generateToken`, at both places clients look for it: `/arcgis/tokens/generateToken` (ArcGIS
/// Server) and `/arcgis/sharing/rest/generateToken` (portal). Passwords are read from POST bodies
/// only, so that they never travel in a URL.
struct TokenRoutes {
    let core: ServiceCore
    let site: SiteInfo

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        router.getAndPost("arcgis/tokens/generateToken", use: generateToken)
        router.getAndPost("arcgis/tokens", use: info)
        router.getAndPost("arcgis/sharing/rest/generateToken", use: generateToken)
        router.getAndPost("arcgis/sharing/generateToken", use: generateToken)
    }

    @Sendable func generateToken(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        guard request.method == .post else {
            throw ServiceError.invalidParameter("generateToken accepts POST only: send username and password in the request body.")
        }
        let a = context.arguments
        let expiration = try a.int("expiration")
        let issued = try await core.generateToken(username: a.string("username") ?? "", password: a.string("password") ?? "",
                                                  expirationMinutes: expiration)
        context.notes.username = a.string("username")
        return ArcGISResponse.document(.object([
            ("token", .string(issued.token)),
            ("expires", .int(Int(issued.expires))),
            ("ssl", .bool(site.tls)),
        ]), context: context)
    }

    @Sendable func info(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        ArcGISResponse.document(.object([
            ("currentVersion", .double(SiteInfo.serverVersion)),
            ("tokenServicesUrl", .string("\(site.baseURL(for: request))/tokens/generateToken")),
        ]), context: context)
    }
}
