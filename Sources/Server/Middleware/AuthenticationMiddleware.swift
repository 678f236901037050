import Foundation
import Hummingbird
import HTTPTypes
import Service

/// Puts the caller in the request context: the token comes as `token=`, `X-Esri-Authorization: Bearer`
/// or `Authorization: Bearer`; none means anonymous (what an anonymous caller may do is the core's
/// business), an unknown or expired one is answered 498 on every request, reads included.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = MapRulesRequestContext
    let core: ServiceCore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        // Signing in and the health check never fail on a stale token a client still sends.
        let path = request.uri.path.lowercased()
        if path.hasSuffix("/generatetoken") || path.contains("/oauth2/") || path == "/health" { return try await next(request, context) }
        let token = Self.token(request, context.arguments)
        context.hasToken = token != nil
        context.caller = try core.caller(token: token)
        context.notes.username = context.caller.username
        return try await next(request, context)
    }

    static func token(_ request: Request, _ arguments: RequestArguments) -> String? {
        if let token = arguments.string("token") { return token }
        for name in [HTTPField.Name("X-Esri-Authorization")!, .authorization] {
            guard let value = request.headers[name] else { continue }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if trimmed.lowercased().hasPrefix("bearer ") {
                let token = trimmed.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
                if !token.isEmpty { return token }
            }
        }
        return nil
    }
}
