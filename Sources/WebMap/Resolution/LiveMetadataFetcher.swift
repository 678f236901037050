import Foundation

/// Fetches layer and service metadata over HTTP (`?f=json`, with an optional token), used only when the user
/// asks for it (`--fetch`, `maprules snapshot`). Results are cached per URL for the life of the fetcher.
///
/// The HTTP exchange itself is the caller's (`get`): this module parses and stays free of a network stack
/// (the command line passes one over Foundation's URLSession, `MetadataOverURLSession`).
public final class LiveMetadataFetcher: @unchecked Sendable {
    /// What one GET answered: the HTTP status and the whole body.
    public struct Reply: Sendable {
        public var status: Int
        public var body: [UInt8]
        public init(status: Int, body: [UInt8]) {
            self.status = status
            self.body = body
        }
    }

    /// One GET of the URL as given (query string written), within `timeout` seconds: the reply, or a sentence
    /// saying why none came (connection refused, timeout...).
    public typealias Get = @Sendable (_ url: String, _ timeout: TimeInterval) -> Result<Reply, FetchFailure>

    /// Why a GET had no reply, in words.
    public struct FetchFailure: Error, Sendable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    public let token: String?
    /// The time all GETs of this fetcher have together (`--timeout`), counted from its creation: a server that
    /// accepts connections and never answers costs the run this much, not this much per layer.
    public let timeout: TimeInterval
    /// When `timeout` runs out.
    public let deadline: Date
    private let get: Get
    private var cache: [String: Result<JSONNode, DocumentError>] = [:]
    private let lock = NSLock()

    public init(token: String? = nil, timeout: TimeInterval = 60, get: @escaping Get) {
        self.token = token
        self.timeout = timeout
        self.deadline = Date().addingTimeInterval(timeout)
        self.get = get
    }

    /// The JSON at `url?f=json`, or an error saying what went wrong (HTTP status, ArcGIS error, bad JSON).
    public func fetchJSON(url: String) -> Result<JSONNode, DocumentError> {
        let key = ServiceURL.normalize(url)
        lock.lock()
        if let cached = cache[key] { lock.unlock(); return cached }
        lock.unlock()
        let result = fetchUncached(key)
        lock.lock()
        cache[key] = result
        lock.unlock()
        return result
    }

    /// The JSON text at `url?f=json`, checked to parse and not to be an ArcGIS error, for snapshot files.
    public func fetchRaw(url: String) -> Result<String, DocumentError> {
        fetchJSON(url: url).flatMap { _ in
            lock.lock()
            defer { lock.unlock() }
            if let text = rawTexts[ServiceURL.normalize(url)] { return .success(text) }
            return .failure(DocumentError(path: url, message: "no answer"))
        }
    }

    private var rawTexts: [String: String] = [:]

    /// "60 s", "1.5 s", "200 ms".
    static func describe(_ seconds: TimeInterval) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        return "\(Double(milliseconds) / 1000) s"
    }

    private func fetchUncached(_ url: String) -> Result<JSONNode, DocumentError> {
        guard var components = URLComponents(string: url) else {
            return .failure(DocumentError(path: url, message: "not a valid URL"))
        }
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "f", value: "json"))
        if let token { items.append(URLQueryItem(name: "token", value: token)) }
        components.queryItems = items
        guard let requestURL = components.url else { return .failure(DocumentError(path: url, message: "not a valid URL")) }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0.001 else {
            return .failure(DocumentError(path: url, message: """
                not fetched: the \(Self.describe(timeout)) that --timeout gives all requests of the run were used up \
                before it (raise it with --timeout)
                """))
        }
        let reply: Reply
        switch get(requestURL.absoluteString, remaining) {
        case .success(let answer): reply = answer
        case .failure(let failure): return .failure(DocumentError(path: url, message: "request failed: \(failure.reason)"))
        }
        guard (200..<300).contains(reply.status) else {
            return .failure(DocumentError(path: url, message: "HTTP status \(reply.status)"))
        }
        do {
            let root = try JSONParser.parse(SourceText(bytes: reply.body)).root
            if let error = root["error"] {
                let code = error["code"]?.integer.map(String.init) ?? "?"
                return .failure(DocumentError(path: url, message: "the service answered error \(code): \(error["message"]?.string ?? "")"))
            }
            lock.lock()
            rawTexts[url] = String(decoding: reply.body, as: UTF8.self)
            lock.unlock()
            return .success(root)
        } catch {
            return .failure(DocumentError(path: url, message: "the answer is not JSON: \(error.message)"))
        }
    }
}
