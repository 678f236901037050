import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// The request context of the MapRules server: Hummingbird's core storage plus what the middleware
/// chain learns about the request before a handler runs.
///
/// - `arguments`: the merged, case-insensitive parameters (`ArgumentsMiddleware`).
/// - `caller`: who is calling (`AuthenticationMiddleware`); anonymous without a token.
/// - `notes`: a shared box the request log reads after the response (the user name), since a context
///   is a value and inner middleware cannot hand changes back outward.
public struct MapRulesRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var arguments = RequestArguments()
    public var caller: Caller = .anonymous
    /// Whether a token came with the request (the token itself is never kept here).
    public var hasToken = false
    public let notes = RequestNotes()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Hummingbird's own decoding limit; bodies are read by `ArgumentsMiddleware` with the server's limit.
    public var maxUploadSize: Int { 64 * 1024 * 1024 }
}

/// What inner middleware tells the request log (never a token or password).
public final class RequestNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var _username: String?

    public init() {}

    /// The signed-in user, once known.
    public var username: String? {
        get { lock.withLock { _username } }
        set { lock.withLock { _username = newValue } }
    }
}
