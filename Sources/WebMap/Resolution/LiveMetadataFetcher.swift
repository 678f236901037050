import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches layer and service metadata over HTTP (`?f=json`, with an optional token), used only when the user
/// asks for it (`--fetch`, `maprules snapshot`). Results are cached per URL for the life of the fetcher.
public final class LiveMetadataFetcher: @unchecked Sendable {
    public let token: String?
    public let timeout: TimeInterval
    private var cache: [String: Result<JSONNode, DocumentError>] = [:]
    private let lock = NSLock()

    public init(token: String? = nil, timeout: TimeInterval = 30) {
        self.token = token
        self.timeout = timeout
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

    private func fetchUncached(_ url: String) -> Result<JSONNode, DocumentError> {
        guard var components = URLComponents(string: url) else {
            return .failure(DocumentError(path: url, message: "not a valid URL"))
        }
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "f", value: "json"))
        if let token { items.append(URLQueryItem(name: "token", value: token)) }
        components.queryItems = items
        guard let requestURL = components.url else { return .failure(DocumentError(path: url, message: "not a valid URL")) }
        var request = URLRequest(url: requestURL, timeoutInterval: timeout)
        request.setValue("maprules", forHTTPHeaderField: "User-Agent")
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<JSONNode, DocumentError> = .failure(DocumentError(path: url, message: "no answer"))
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            defer { semaphore.signal() }
            if let error {
                outcome = .failure(DocumentError(path: url, message: "request failed: \(error.localizedDescription)"))
                return
            }
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                outcome = .failure(DocumentError(path: url, message: "HTTP status \(http.statusCode)"))
                return
            }
            let text = SourceText(bytes: [UInt8](data ?? Data()))
            do {
                let root = try JSONParser.parse(text).root
                if let error = root["error"] {
                    let code = error["code"]?.integer.map(String.init) ?? "?"
                    outcome = .failure(DocumentError(path: url, message: "the service answered error \(code): \(error["message"]?.string ?? "")"))
                } else {
                    outcome = .success(root)
                    self.lock.lock()
                    self.rawTexts[url] = String(decoding: data ?? Data(), as: UTF8.self)
                    self.lock.unlock()
                }
            } catch let error as JSONParseError {
                outcome = .failure(DocumentError(path: url, message: "the answer is not JSON: \(error.message)"))
            } catch {
                outcome = .failure(DocumentError(path: url, message: "\(error)"))
            }
        }
        task.resume()
        semaphore.wait()
        return outcome
    }
}
