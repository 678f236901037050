import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// What one HTTP exchange answered: the status, the content type and the whole body.
struct HTTPAnswer: Sendable {
    var status: Int
    var contentType: String?
    var body: Data
    /// True when the request went as a POST (its parameters, the token among them, in the body).
    var wasPOST = false
}

/// HTTP over AsyncHTTPClient (pooled connections on SwiftNIO): GET for reads, switched to POST when the
/// query string would be long; POST with a form body for writes. Every exchange, the body included, is
/// bounded by `timeout` and ends early when the calling task is cancelled. Transport failures come out as
/// `runtime/unreachable`, naming the URL (and the timeout when that is what ran out).
struct HTTPTransport: Sendable {
    let client: HTTPClient
    let timeout: Duration
    /// Headers sent with every request (`Referer`, `User-Agent`).
    let headers: [(String, String)]

    /// Query strings longer than this go as a POST body instead (servers and proxies cap URL lengths).
    static let longestQueryString = 1_500
    /// The largest answer read (attachments included).
    static let largestAnswer = 256 * 1024 * 1024

    /// Sends `parameters` to `url`: as a form body with `post` (or when the query string would be long),
    /// else as a query string. The token goes in the `X-Esri-Authorization` header (out of URLs and logs),
    /// and also as the `token` parameter of a POST body, which every ArcGIS version reads.
    func send(_ url: String, _ parameters: FormParameters, post: Bool, token: String? = nil) async throws -> HTTPAnswer {
        var encoded = parameters.encoded
        let usePOST = post || encoded.utf8.count > Self.longestQueryString
        var headers = HTTPHeaders(self.headers)
        if let token {
            headers.add(name: "X-Esri-Authorization", value: "Bearer \(token)")
            if usePOST { encoded += (encoded.isEmpty ? "" : "&") + "token=" + FormParameters.escape(token) }
        }
        if usePOST { headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded") }
        do {
            let request = try HTTPClient.Request(url: usePOST || encoded.isEmpty ? url : "\(url)?\(encoded)",
                                                 method: usePOST ? .POST : .GET, headers: headers,
                                                 body: usePOST ? .byteBuffer(ByteBuffer(string: encoded)) : nil)
            let response = try await exchange(request)
            return HTTPAnswer(status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"),
                              body: response.body.map { Data(buffer: $0) } ?? Data(), wasPOST: usePOST)
        } catch {
            throw Self.failure(error, url: url, timeout: timeout)
        }
    }

    /// One exchange, the whole body read, within `timeout`; a cancelled caller gets `CancellationError` at once.
    ///
    /// This uses AsyncHTTPClient's event-loop API, not its `async` one, on purpose: there the deadline and the
    /// cancellation each reach the request through an unstructured task on the concurrency pool, so a pool busy
    /// with other work (long synchronous jobs, a test suite's process waits) delayed a cancellation until the
    /// timeout. Here the deadline is an event-loop timer, the cancellation fails the request from the cancelling
    /// thread, and the caller is resumed by whichever comes first (`FirstOutcome`), never waiting for the other.
    private func exchange(_ request: HTTPClient.Request) async throws -> HTTPClient.Response {
        let task = client.execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: Self.largestAnswer),
                                  deadline: .now() + TimeAmount(timeout))
        let outcome = FirstOutcome<HTTPClient.Response>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.wait(with: continuation)
                task.futureResult.whenComplete { outcome.resume(with: $0) }
            }
        } onCancel: {
            outcome.resume(with: .failure(CancellationError()))
            task.cancel()
        }
    }

    /// A request that did not get an answer: the `runtime/unreachable` error to report, and whether trying
    /// again may help (a refused or dropped connection may; a request that ran out of time is not repeated,
    /// so that the timeout bounds what a caller waits).
    struct Failure: Error {
        var error: RuntimeError
        var retriable: Bool
    }

    /// A transport failure as a `Failure` (`CancellationError` when the caller cancelled).
    static func failure(_ error: any Error, url: String, timeout: Duration) -> any Error {
        if error is Failure || error is RuntimeError { return error }
        if Task.isCancelled || error is CancellationError { return CancellationError() }
        if isTimeout(error) {
            return Failure(error: RuntimeError(RuntimeError.Identifier.unreachable,
                                               "No answer from \(url) within \(describe(timeout)) (the timeout; raise it with --timeout)."),
                           retriable: false)
        }
        if error is NIOTooManyBytesError || error is ResponseAccumulator.ResponseTooBigError {
            return RuntimeError(RuntimeError.Identifier.serviceError, "\(url) answered more than \(largestAnswer / 1_048_576) MB.")
        }
        if let client = error as? HTTPClientError, client == .invalidURL || client == .emptyHost || client == .emptyScheme {
            return RuntimeError(RuntimeError.Identifier.unreachable, "\(url) is not a valid URL (\(client)).")
        }
        let reason = reason(error)
        // A TLS handshake that failed fails the same way again; a refused or dropped connection may not.
        return Failure(error: RuntimeError(RuntimeError.Identifier.unreachable, "Cannot reach \(url): \(reason)."),
                       retriable: !reason.hasPrefix("TLS failed"))
    }

    static func isTimeout(_ error: any Error) -> Bool {
        guard let client = error as? HTTPClientError else { return false }
        let timeouts: [HTTPClientError] = [.deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
                                           .getConnectionFromPoolTimeout]
        return timeouts.contains(client)
    }

    /// What went wrong, in words: connection refused, name not resolved, TLS...
    static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        let lower = text.lowercased()
        if lower.contains("connection refused") || lower.contains("econnrefused") { return "connection refused (\(text))" }
        if lower.contains("resolve") || lower.contains("dns") || lower.contains("unknown host") || lower.contains("name or service") {
            return "the host name could not be resolved (\(text))"
        }
        if lower.contains("ssl") || lower.contains("tls") || lower.contains("certificate") || lower.contains("handshake") {
            return "TLS failed (\(text))"
        }
        return text
    }

    /// `30 s`, `1.5 s`, `250 ms`.
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
