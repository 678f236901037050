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
        if Self.neverRefusesAToken(request.uri.path) { return try await next(request, context) }
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

    /// Signing in (`.../generateToken`, `/oauth2/`) and `/health`, in any case. An ASCII path (every path a client
    /// sends in practice) is compared byte by byte, without the lower-cased copy and Foundation's search that were 1.5 %
    /// of a page's CPU; any other path as before, lower-cased (Unicode case mapping can turn a non-ASCII letter into an
    /// ASCII one).
    static func neverRefusesAToken(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            let lowered = path.lowercased()
            return lowered.hasSuffix("/generatetoken") || lowered.contains("/oauth2/") || lowered == "/health"
        }
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        func matches(_ word: StaticString, at start: Int) -> Bool {
            guard start >= 0, start + word.utf8CodeUnitCount <= bytes.count else { return false }
            return word.withUTF8Buffer { word in word.indices.allSatisfy { lower(bytes[start + $0]) == word[$0] } }
        }
        if matches("/generatetoken", at: bytes.count - 14) { return true }
        if bytes.count == 7 && matches("/health", at: 0) { return true }
        return bytes.indices.contains { matches("/oauth2/", at: $0) }
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
