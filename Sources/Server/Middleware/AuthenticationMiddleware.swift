import Foundation
import Hummingbird
import HTTPTypes
import Service
import FeatureServiceModel
import WebMap

/// Puts the caller in the request context: the token comes as `token=`, `X-Esri-Authorization: Bearer`
/// or `Authorization: Bearer`; none means anonymous (what an anonymous caller may do is the core's
/// business), an unknown or expired one is answered 498 on every request, reads included.
///
/// Failing those, a browser's sign-in cookie (`BrowserSession`) signs in the reading of an HTML directory
/// page, and nothing else. A stale cookie reads as signed out rather than 498, so that the person sees the
/// page and its "Sign in" link.
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
        context.caller = try await core.caller(token: token)
        if token == nil, let cookie = BrowserSession.token(request, context.arguments), let caller = try? await core.caller(token: cookie) {
            context.hasToken = true
            context.caller = caller
        }
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
