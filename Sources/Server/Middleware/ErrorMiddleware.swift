import Foundation
import Hummingbird
import Logging
import Service
import FeatureServiceModel
import WebMap

/// Turns every error of the chain below into an ArcGIS error document: a `ServiceError` is answered
/// with its Esri code (HTTP 200), a route that does not exist with 404, an oversized body with 413, and
/// anything unexpected with 500 (logged, never shown with internals).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = MapRulesRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return ArcGISResponse.error(error)
        } catch let error as BodyTooLarge {
            return ArcGISResponse.error(ServiceError(code: 413, message: "Request body too large.", details: [error.description]),
                                        status: .contentTooLarge)
        } catch let error as HTTPError {
            if error.status == .notFound {
                return ArcGISResponse.error(ServiceError(code: 404, message: "Not Found",
                                                         details: ["There is no resource at \(request.uri.path)."]), status: .notFound)
            }
            return ArcGISResponse.error(ServiceError(code: Int(error.status.code), message: error.body ?? error.status.reasonPhrase), status: error.status)
        } catch {
            context.logger.error("Unexpected error on \(request.method) \(request.uri.path): \(error)")
            return ArcGISResponse.error(.internal("The server could not complete the request; see its log."))
        }
    }
}

/// A request body over the server's limit (refused as soon as that is known, never buffered whole).
struct BodyTooLarge: Error, CustomStringConvertible {
    var limit: Int
    var description: String { "The request body exceeds the server's limit of \(limit) bytes (maprules serve --body-limit)." }
}
