import AsyncHTTPClient
import Foundation
import WebMap

extension LiveMetadataFetcher {
    /// A fetcher whose GETs go through the runtime's HTTP transport (AsyncHTTPClient on SwiftNIO): the same
    /// bounded exchanges, redirects and words for failures as the editing runtime's requests (a refused
    /// connection fails at once, not after the timeout). Blocks the calling thread for each GET: for the command
    /// line's synchronous commands, not for a task's thread.
    public static func overHTTP(token: String? = nil, timeout: TimeInterval = 30) -> LiveMetadataFetcher {
        LiveMetadataFetcher(token: token, timeout: timeout) { url, seconds in
            let transport = HTTPTransport(client: metadataClient, timeout: .milliseconds(Int64(seconds * 1_000)),
                                          headers: [("User-Agent", "maprules")])
            let outcome = ReplyBox()
            let done = DispatchSemaphore(value: 0)
            Task {
                defer { done.signal() }
                do {
                    let answer = try await transport.send(url, FormParameters(), post: false)
                    outcome.set(.success(Reply(status: answer.status, body: [UInt8](answer.body))))
                } catch let failure as HTTPTransport.Failure {
                    outcome.set(.failure(FetchFailure(failure.error.message)))
                } catch let error as RuntimeError {
                    outcome.set(.failure(FetchFailure(error.message)))
                } catch {
                    outcome.set(.failure(FetchFailure("\(error)")))
                }
            }
            done.wait()
            return outcome.value
        }
    }
}

/// The process's client for metadata GETs (a client must be shut down before it goes; this one lives as long as
/// the process). Per-request deadlines come from the fetcher's timeout.
private let metadataClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                        configuration: RemoteFeatureService.clientConfiguration(timeout: .seconds(30)))

/// The reply handed from the task that made the request to the thread waiting for it.
private final class ReplyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<LiveMetadataFetcher.Reply, LiveMetadataFetcher.FetchFailure> = .failure(.init("no answer"))

    func set(_ value: Result<LiveMetadataFetcher.Reply, LiveMetadataFetcher.FetchFailure>) {
        lock.lock()
        result = value
        lock.unlock()
    }

    var value: Result<LiveMetadataFetcher.Reply, LiveMetadataFetcher.FetchFailure> {
        lock.lock()
        defer { lock.unlock() }
        return result
    }
}
