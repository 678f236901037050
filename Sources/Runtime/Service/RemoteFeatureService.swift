import AsyncHTTPClient
import Foundation
import NIOCore
import FeatureServiceModel
import WebMap

/// A `FeatureService` over HTTP: any ArcGIS REST feature service (`.../FeatureServer`), `maprules serve`
/// included, through AsyncHTTPClient (pooled connections).
///
/// - Every request is bounded by `timeout` (connect, send, answer and body together) and ends early when the
///   calling task is cancelled (then `CancellationError` is thrown).
/// - Reads are GET (POST when the query string is long); applyEdits, generateToken and version operations
///   are POST with a form body. Reads (describe, queries, attachments, versions) are tried up to 3 times, a
///   short pause apart, when the connection fails or the service answers HTTP 5xx; writes never are, and no
///   request is repeated after its timeout ran out (the timeout bounds what a caller waits).
/// - A password credential is exchanged for a token before the first request; when the service answers 498
///   (invalid or expired token, as a JSON error or an HTTP status) a new token is asked for once and the
///   request sent once more. A token credential cannot be renewed: 498 is then `runtime/authentication`.
/// - Failures are `RuntimeError`s: `runtime/authentication` (498 after the renewal, 499, 401, 403, bad
///   credentials), `runtime/unreachable` (refused, DNS, TLS, timeout; the message names the URL), or
///   `runtime/service-error` (any other refusal, HTTP error or answer that is not JSON, with the code).
///
/// Call `shutdown()` when done: it closes the pooled connections of the client this service made (a client
/// passed in is the caller's to shut down).
public actor RemoteFeatureService: FeatureService {
    public nonisolated let url: String
    let urls: ServiceURLs
    let timeout: Duration
    let transport: HTTPTransport
    let issuer: TokenIssuer
    private let ownsClient: Bool
    private var isShutDown = false

    private var credential: Credential?
    /// The token of the password credential, and the token service that issued it.
    private var issued: IssuedToken?
    private var tokenService: String?
    /// The sign-in in progress, shared by every request that needs its token.
    private var signingIn: Task<IssuedToken, any Error>?
    /// The user a token credential stands for, once asked (`community/self`).
    private var tokenUser: String??

    /// Reads per request: the first try and two more.
    static let readAttempts = 3
    static let retryPause: Duration = .milliseconds(200)

    /// - Parameters:
    ///   - url: the service's `.../FeatureServer` URL (a trailing slash, a query such as `?f=json`, or a
    ///     layer's URL `.../FeatureServer/3` are accepted).
    ///   - credential: how to sign in; nil for anonymous access.
    ///   - timeout: the bound of every request (docs/edit-scripts.md's `--timeout`, 30 s by default).
    ///   - httpClient: a client to share; nil makes one for this service (closed by `shutdown()`).
    /// - Throws: `runtime/unreachable` when `url` is not an http(s) URL of a FeatureServer.
    public init(url: String, credential: Credential? = nil, timeout: Duration = .seconds(30), httpClient: HTTPClient? = nil) throws {
        guard let urls = ServiceURLs(url) else {
            throw RuntimeError(RuntimeError.Identifier.unreachable,
                               "'\(url)' is not the URL of a feature service (http(s)://host/.../rest/services/<name>/FeatureServer).")
        }
        let client = httpClient ?? HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.clientConfiguration(timeout: timeout))
        self.url = urls.featureServer
        self.urls = urls
        self.timeout = timeout
        self.ownsClient = httpClient == nil
        self.credential = credential
        let transport = HTTPTransport(client: client, timeout: timeout, headers: [("User-Agent", "MapRules-Runtime"), ("Referer", urls.origin)])
        self.transport = transport
        issuer = TokenIssuer(urls: urls, transport: transport)
    }

    /// The same, with the timeout in seconds.
    public init(url: String, credential: Credential? = nil, timeout seconds: TimeInterval, httpClient: HTTPClient? = nil) throws {
        try self.init(url: url, credential: credential, timeout: Self.duration(seconds: seconds), httpClient: httpClient)
    }

    /// `seconds` as a duration, held between a millisecond and a year: `Int64(seconds * 1000)` traps for
    /// 1e17 seconds and more, and NaN has no duration at all.
    static func duration(seconds: TimeInterval) -> Duration {
        guard seconds.isFinite else { return seconds.isNaN ? .seconds(30) : .seconds(seconds > 0 ? 31_536_000 : 0.001) }
        return .milliseconds(Int64((min(max(seconds, 0.001), 31_536_000) * 1000).rounded()))
    }

    /// Pooled connections kept a minute; connecting gives up within the timeout (10 s at most); redirects
    /// (http to https, a web adaptor's) are followed. A failed connection attempt fails the request at once
    /// (the pool would otherwise try again until the timeout), so that this type's own policy decides: reads
    /// are tried again, writes never.
    static func clientConfiguration(timeout: Duration) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        let connect = min(timeout, .seconds(10))
        configuration.timeout = .init(connect: TimeAmount(connect), read: TimeAmount(timeout))
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        configuration.connectionPool = .init(idleTimeout: .seconds(60))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Closes the connections of the client this service made. Later requests fail with `runtime/unreachable`.
    public func shutdown() async throws {
        guard !isShutDown else { return }
        isShutDown = true
        signingIn?.cancel()
        if ownsClient { try await transport.client.shutdown() }
    }

    deinit {
        // A forgotten shutdown() must neither leak the connections nor trip AsyncHTTPClient's debug check.
        if ownsClient, !isShutDown {
            let client = transport.client
            Task { try? await client.shutdown() }
        }
    }

    // MARK: Signing in

    public func signIn(_ credential: Credential?) async throws {
        if case .password(let user, let password) = credential {
            let (token, service) = try await issuer.generate(user: user, password: password, known: nil)
            self.credential = credential
            issued = token
            tokenService = service
        } else {
            self.credential = credential
            issued = nil
        }
        signingIn?.cancel()
        signingIn = nil
        tokenUser = nil
    }

    public func userName() async -> String? {
        switch credential {
        case nil: return nil
        case .password(let user, _): return user
        case .token:
            if let known = tokenUser { return known }
            let name = await portalUserName()
            tokenUser = .some(name)
            return name
        }
    }

    /// The user a token stands for, asked of the portal's `community/self` (nil when there is none).
    private func portalUserName() async -> String? {
        guard let site = urls.siteRoot,
              let document = try? await document("who am I", url: "\(site)/sharing/rest/community/self", FormParameters([("f", "json")]), kind: .read)
        else { return nil }
        return document["username"]?.string
    }

    /// The token to send: none when anonymous, the given one, or the password's (signing in when there is
    /// none yet or it is about to expire).
    func currentToken() async throws -> String? {
        switch credential {
        case nil: return nil
        case .token(let token): return token
        case .password:
            if let issued, !issued.expiresSoon() { return issued.token }
            return try await renewToken(replacing: issued?.token)
        }
    }

    /// Signs in again with the password, once for every request that found `replacing` refused: a request
    /// that arrives while a sign-in runs waits for it, and one whose token was already replaced uses the new one.
    private func renewToken(replacing refused: String?) async throws -> String {
        guard case .password(let user, let password) = credential else {
            throw RuntimeError(RuntimeError.Identifier.authentication, "The token for \(url) is invalid or has expired, and it cannot be renewed: sign in again.")
        }
        if let issued, issued.token != refused, !issued.expiresSoon() { return issued.token }
        let task: Task<IssuedToken, any Error>
        if let running = signingIn {
            task = running
        } else {
            let issuer = self.issuer, known = tokenService
            task = Task { try await issuer.generate(user: user, password: password, known: known).token }
            signingIn = task
        }
        do {
            let token = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            if signingIn == task { signingIn = nil }
            issued = token
            return token.token
        } catch {
            if signingIn == task { signingIn = nil }
            throw error
        }
    }

    // MARK: Requests

    enum Kind { case read, write }

    /// Sends one request and reads its JSON answer (see the type's documentation for retries and tokens).
    /// `operation` names what is asked ("count of layer 0"); messages add the URL.
    func document(_ operation: String, url: String, _ form: FormParameters, kind: Kind) async throws -> JSON {
        let (answer, reading) = try await exchange(operation, url: url, form, kind: kind)
        switch reading {
        case .document(let document): return document
        case .refusal(let error): throw RuntimeError.service(error, operation: "\(operation) at \(url)")
        case .notJSON(let excerpt):
            throw RuntimeError(RuntimeError.Identifier.serviceError,
                               "\(operation) at \(url): the answer (HTTP \(answer.status)) is not JSON\(excerpt.isEmpty ? " (an empty body)" : ": \(excerpt)")")
        }
    }

    /// The same, with the answer read by `decode` (an answer of the wrong shape is a `runtime/service-error`
    /// that names the operation and URL).
    func document<T>(_ operation: String, url: String, _ form: FormParameters, kind: Kind, as decode: (JSON) throws -> T) async throws -> T {
        let answer = try await document(operation, url: url, form, kind: kind)
        do {
            return try decode(answer)
        } catch let error as RuntimeError {
            throw RuntimeError(error.identifier, "\(operation) at \(url): \(error.message)", serviceCode: error.serviceCode)
        }
    }

    /// Sends one request and answers the bytes of a file (an attachment); JSON refusals are errors.
    func bytes(_ operation: String, url: String, _ form: FormParameters) async throws -> Data {
        let (answer, reading) = try await exchange(operation, url: url, form, kind: .read, binary: true)
        if case .refusal(let error) = reading { throw RuntimeError.service(error, operation: "\(operation) at \(url)") }
        return answer.body
    }

    /// The request with the token, tried again on a connection failure or HTTP 5xx (reads only), once more
    /// with a new token after a 498, and once as a POST after a 499 to a GET (a server that does not read the
    /// token header finds it in the body then).
    private func exchange(_ operation: String, url: String, _ form: FormParameters, kind: Kind,
                          binary: Bool = false) async throws -> (HTTPAnswer, ArcGISAnswer.Reading) {
        var renewed = false
        var tokenInBody = false
        var attempt = 1
        while true {
            guard !isShutDown else {
                throw RuntimeError(RuntimeError.Identifier.unreachable, "\(operation) at \(url): this RemoteFeatureService was shut down.")
            }
            try Task.checkCancellation()
            let token = try await currentToken()
            let answer: HTTPAnswer
            do {
                answer = try await transport.send(url, form, post: kind == .write || tokenInBody, token: token)
            } catch let failure as HTTPTransport.Failure {
                if kind == .read && failure.retriable && attempt < Self.readAttempts {
                    try await pause(before: &attempt)
                    continue
                }
                let tries = attempt > 1 ? " (tried \(attempt) times)" : ""
                throw RuntimeError(failure.error.identifier, "\(operation): \(failure.error.message)\(tries)")
            }
            let reading = binary ? ArcGISAnswer.readFile(answer) : ArcGISAnswer.read(answer)
            guard case .refusal(let error) = reading else { return (answer, reading) }
            if token != nil, error.code == 498 || answer.status == 498 {
                guard !renewed, case .password = credential else { return (answer, reading) }
                renewed = true
                _ = try await renewToken(replacing: token)
                continue
            }
            if token != nil, error.code == 499 || answer.status == 499, !answer.wasPOST {
                tokenInBody = true
                continue
            }
            if kind == .read && answer.status >= 500 && attempt < Self.readAttempts {
                try await pause(before: &attempt)
                continue
            }
            return (answer, reading)
        }
    }

    private func pause(before attempt: inout Int) async throws {
        try await Task.sleep(for: Self.retryPause * attempt)
        attempt += 1
    }
}
