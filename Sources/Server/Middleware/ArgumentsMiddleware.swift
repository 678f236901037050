import Foundation
import Hummingbird
import NIOCore
import Service
import FeatureServiceModel
import WebMap

/// Reads the request's parameters into `context.arguments`: the query string, then (for a body)
/// `application/x-www-form-urlencoded` or `multipart/form-data`. The body is read up to the server's
/// limit: a declared `Content-Length` over it is refused before reading anything, and a streamed body
/// is refused as soon as it passes the limit.
struct ArgumentsMiddleware: RouterMiddleware {
    typealias Context = MapRulesRequestContext
    let bodyLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var arguments = request.uri.query.map { RequestArguments.formURLEncoded(Substring($0)) } ?? RequestArguments()
        if request.method == .post || request.method == .put {
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > bodyLimit {
                throw BodyTooLarge(limit: bodyLimit)
            }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: bodyLimit)
            } catch is NIOTooManyBytesError {
                throw BodyTooLarge(limit: bodyLimit)
            }
            if body.readableBytes > 0 {
                let contentType = request.headers[.contentType] ?? ""
                if contentType.lowercased().hasPrefix("multipart/form-data") {
                    guard let boundary = RequestArguments.boundary(ofContentType: contentType) else {
                        throw ServiceError.invalidParameter("A multipart/form-data body needs a boundary in its Content-Type.")
                    }
                    arguments.merge(try RequestArguments.multipart(body, boundary: boundary))
                } else if contentType.isEmpty || contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
                            || contentType.lowercased().hasPrefix("text/plain") {
                    arguments.merge(RequestArguments.formURLEncoded(Substring(String(buffer: body))))
                }
            }
        }
        context.arguments = arguments
        return try await next(request, context)
    }
}
