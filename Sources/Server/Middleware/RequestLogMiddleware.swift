import Foundation
import Hummingbird
import Logging

/// One log line per request: method, path (never the query string, which may hold a token),
/// status, duration and user. Passwords and tokens never reach the log.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = MapRulesRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: Int(response.status.code), start: start, user: context.notes.username)
            return response
        } catch {
            log(request, status: (error as? HTTPResponseError).map { Int($0.status.code) } ?? 500, start: start, user: context.notes.username)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, start: ContinuousClock.Instant, user: String?) {
        let elapsed = ContinuousClock.now - start
        let millis = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("\(request.method) \(request.uri.path) \(status) \(String(format: "%.1f", millis))ms user=\(user ?? "anonymous")")
    }
}
