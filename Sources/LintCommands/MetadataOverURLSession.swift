import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WebMap

/// The linter's live metadata GETs (`lint --fetch`, `inspect --fetch`, `snapshot`) over Foundation's URLSession.
///
/// Written here rather than reusing the runtime's AsyncHTTPClient transport on purpose: the lint commands are
/// one executable built over WebMap, Rules and Report only, so that a new user's first `swift run maprules lint`
/// does not compile SwiftNIO and BoringSSL. URLSession comes with the toolchain. The words for failures are
/// the runtime's (`Cannot reach URL: connection refused (...)`, `No answer from URL within 30 s`), redirects are
/// followed up to 5 times, and a refused connection fails at once.
enum MetadataOverURLSession {
    /// A fetcher whose GETs are waited for on the calling thread, all of them within `timeout` seconds from now.
    static func fetcher(token: String?, timeout: TimeInterval = 60) -> LiveMetadataFetcher {
        LiveMetadataFetcher(token: token, timeout: timeout) { url, seconds in get(url, timeout: seconds) }
    }

    /// One GET of `url` as given, within `seconds`.
    static func get(_ url: String, timeout seconds: TimeInterval) -> Result<LiveMetadataFetcher.Reply, LiveMetadataFetcher.FetchFailure> {
        guard let requestURL = URL(string: url), let scheme = requestURL.scheme?.lowercased(), scheme == "http" || scheme == "https",
              requestURL.host != nil else {
            return .failure(.init("\(url) is not a valid URL"))
        }
        var request = URLRequest(url: requestURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        request.setValue("maprules", forHTTPHeaderField: "User-Agent")
        let exchange = Exchange()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        task.resume()
        // The whole exchange, body included, within the timeout (plus a moment for URLSession's own timer).
        if exchange.done.wait(timeout: .now() + seconds + 1) == .timedOut {
            task.cancel()
            return .failure(.init("No answer from \(url) within \(describe(seconds)) (the time left of --timeout; raise it with --timeout)."))
        }
        return exchange.result(url: url, timeout: seconds)
    }

    static func describe(_ seconds: TimeInterval) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        return "\(Double(milliseconds) / 1000) s"
    }

    /// The largest answer read.
    static let largestAnswer = 256 * 1024 * 1024

    /// Collects one exchange's answer; signals `done` when it is over.
    private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var status = 0
        private var body = Data()
        private var error: Error?
        private var redirects = 0
        private var tooLarge = false

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            lock.withLock { status = (response as? HTTPURLResponse)?.statusCode ?? 0 }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.withLock {
                body.append(data)
                if body.count > MetadataOverURLSession.largestAnswer { tooLarge = true; dataTask.cancel() }
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            let follow = lock.withLock { () -> Bool in
                redirects += 1
                return redirects <= 5
            }
            completionHandler(follow ? request : nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            lock.withLock { self.error = error }
            done.signal()
        }

        func result(url: String, timeout: TimeInterval) -> Result<LiveMetadataFetcher.Reply, LiveMetadataFetcher.FetchFailure> {
            lock.lock()
            defer { lock.unlock() }
            if tooLarge { return .failure(.init("\(url) answered more than \(MetadataOverURLSession.largestAnswer / 1_048_576) MB.")) }
            if let error {
                let nsError = error as NSError
                if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
                    return .failure(.init("No answer from \(url) within \(MetadataOverURLSession.describe(timeout)) (the time left of --timeout; raise it with --timeout)."))
                }
                return .failure(.init("Cannot reach \(url): \(Self.reason(nsError))."))
            }
            return .success(.init(status: status, body: [UInt8](body)))
        }

        /// What went wrong, in words: connection refused, name not resolved, TLS...
        static func reason(_ error: NSError) -> String {
            let text = error.localizedDescription
            switch error.code {
            case NSURLErrorCannotConnectToHost: return "connection refused (\(text))"
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "the host name could not be resolved (\(text))"
            case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
                 NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorClientCertificateRejected:
                return "TLS failed (\(text))"
            case NSURLErrorHTTPTooManyRedirects: return "too many redirects (\(text))"
            default: return text
            }
        }
    }
}
