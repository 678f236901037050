import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

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
        var request = HTTPClientRequest(url: usePOST || encoded.isEmpty ? url : "\(url)?\(encoded)")
        request.method = usePOST ? .POST : .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let token {
            request.headers.add(name: "X-Esri-Authorization", value: "Bearer \(token)")
            if usePOST { encoded += (encoded.isEmpty ? "" : "&") + "token=" + FormParameters.escape(token) }
        }
        if usePOST {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: encoded))
        }
        let client = self.client
        let timeout = self.timeout
        let prepared = request
        do {
            return try await Self.withDeadline(timeout) {
                let response = try await client.execute(prepared, deadline: .now() + TimeAmount(timeout))
                let body = try await response.body.collect(upTo: Self.largestAnswer)
                return HTTPAnswer(status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"),
                                  body: Data(buffer: body), wasPOST: usePOST)
            }
        } catch {
            throw Self.failure(error, url: url, timeout: timeout)
        }
    }

    /// Runs `operation`, failing with `DeadlineExceeded` when it has not finished within `timeout`. The
    /// operation is cancelled then (AsyncHTTPClient drops the connection), and with the calling task.
    static func withDeadline<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw DeadlineExceeded() }
            return value
        }
    }

    struct DeadlineExceeded: Error {}

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
        if error is DeadlineExceeded || isTimeout(error) {
            return Failure(error: RuntimeError(RuntimeError.Identifier.unreachable,
                                               "No answer from \(url) within \(describe(timeout)) (the timeout; raise it with --timeout)."),
                           retriable: false)
        }
        if error is NIOTooManyBytesError {
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
