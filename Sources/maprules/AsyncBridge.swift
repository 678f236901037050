import Foundation
import Runtime
import WebMap

/// Runs async work from a synchronous command and waits for it (the commands are `ParsableCommand`s).
enum AsyncBridge {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }
}

extension LiveMetadataFetcher {
    /// A fetcher whose GETs go over HTTP (`MetadataOverHTTP`), each waited for on the calling thread.
    static func overHTTP(token: String?) -> LiveMetadataFetcher {
        LiveMetadataFetcher(token: token) { url, seconds in
            AsyncBridge.run { await MetadataOverHTTP.get(url, timeout: seconds) }
        }
    }
}
