import Foundation
import Service
import FeatureServiceModel
import WebMap

/// The pending state of the portal's OAuth 2 sign-in pages (`oauth2/authorize` → `oauth2/signin` →
/// redirect with a token, or an authorization code for `oauth2/token`), which is how the `arcgis`
/// Python package signs in with a user name and password. Kept in memory and short-lived, like the
/// core's tokens; passwords are never kept: tokens are issued by the core at sign-in.
final class OAuthSignIns: @unchecked Sendable {
    /// An `authorize` request waiting for its sign-in.
    struct Pending {
        var clientId: String
        var redirectURI: String
        var responseType: String
        /// The client's `state`, echoed back in the redirect.
        var state: String?
        var expirationMinutes: Int?
        var created: Date
    }

    /// What an authorization code (or a refresh token) stands for.
    struct Grant {
        var username: String
        var accessToken: IssuedToken
        /// A longer-lived core token that refreshes hand out.
        var refreshBacking: IssuedToken
        var created: Date
    }

    private let lock = NSLock()
    private var pending: [String: Pending] = [:]
    private var codes: [String: Grant] = [:]
    private var refreshTokens: [String: Grant] = [:]
    /// How long an oauth_state or an authorization code stays usable.
    let lifetime: TimeInterval = 600

    static func randomToken(bytes count: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    func begin(_ request: Pending) -> String {
        let key = Self.randomToken()
        lock.withLock {
            let now = Date()
            pending = pending.filter { now.timeIntervalSince($0.value.created) < lifetime }
            pending[key] = request
        }
        return key
    }

    func pendingRequest(_ oauthState: String) -> Pending? {
        lock.withLock {
            guard let entry = pending[oauthState], Date().timeIntervalSince(entry.created) < lifetime else { return nil }
            return entry
        }
    }

    func finish(_ oauthState: String) { lock.withLock { pending[oauthState] = nil } }

    /// Stores a grant and answers its one-time authorization code.
    func issueCode(_ grant: Grant) -> String {
        let code = Self.randomToken()
        lock.withLock {
            let now = Date()
            codes = codes.filter { now.timeIntervalSince($0.value.created) < lifetime }
            codes[code] = grant
        }
        return code
    }

    /// Redeems a code once; answers the grant and a refresh token for it.
    func redeem(code: String) -> (Grant, refreshToken: String)? {
        lock.withLock {
            guard let grant = codes.removeValue(forKey: code), Date().timeIntervalSince(grant.created) < lifetime else { return nil }
            let refresh = Self.randomToken(bytes: 32)
            refreshTokens[refresh] = grant
            return (grant, refresh)
        }
    }

    func grant(refreshToken: String) -> Grant? { lock.withLock { refreshTokens[refreshToken] } }

    func revoke(refreshToken: String) { lock.withLock { refreshTokens[refreshToken] = nil } }
}
