import AsyncHTTPClient
import Foundation
import WebMap

/// The linter's live metadata GETs (`lint --fetch`, `snapshot`) over the runtime's HTTP transport (AsyncHTTPClient
/// on SwiftNIO): the same bounded exchanges, redirects and words for failures as the editing runtime's requests,
/// and a refused connection fails at once, not after the timeout. The command line wraps `get` into a
/// `LiveMetadataFetcher`.
public enum MetadataOverHTTP {
    /// One GET of `url` as given, within `seconds`.
    public static func get(_ url: String, timeout seconds: TimeInterval) async -> Result<LiveMetadataFetcher.Reply, LiveMetadataFetcher.FetchFailure> {
        let transport = HTTPTransport(client: client, timeout: RemoteFeatureService.duration(seconds: seconds), headers: [("User-Agent", "maprules")])
        do {
            let answer = try await transport.send(url, FormParameters(), post: false)
            return .success(LiveMetadataFetcher.Reply(status: answer.status, body: [UInt8](answer.body)))
        } catch let failure as HTTPTransport.Failure {
            return .failure(LiveMetadataFetcher.FetchFailure(failure.error.message))
        } catch let error as RuntimeError {
            return .failure(LiveMetadataFetcher.FetchFailure(error.message))
        } catch {
            return .failure(LiveMetadataFetcher.FetchFailure("\(error)"))
        }
    }

    /// The process's client for these GETs (a client must be shut down before it goes; this one lives as long as
    /// the process). Per-request deadlines come from the fetcher's timeout.
    private static let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                           configuration: RemoteFeatureService.clientConfiguration(timeout: .seconds(30)))
}
