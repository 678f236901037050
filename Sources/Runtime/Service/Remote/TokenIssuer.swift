import Foundation
import FeatureServiceModel
import WebMap

/// A token that `generateToken` issued, and when it expires.
struct IssuedToken: Sendable, Equatable {
    var token: String
    /// Epoch milliseconds; nil when the service did not say.
    var expires: Int64?

    /// True when the token has expired or will within a minute (it is renewed before it is refused).
    func expiresSoon(now: Date = Date()) -> Bool {
        guard let expires else { return false }
        return Int64(now.timeIntervalSince1970 * 1000) + 60_000 >= expires
    }
}

/// Exchanges a user name and password for a token: `generateToken` (POST, form body: `username`,
/// `password`, `client=referer`, `referer`, `expiration`, `f=json`) at the token service that the site's
/// `rest/info` names in `authInfo.tokenServicesUrl`, else at the conventional places (`<rest>/generateToken`,
/// `tokens/generateToken`, `sharing/rest/generateToken`). Refusals are `runtime/authentication`.
struct TokenIssuer: Sendable {
    let urls: ServiceURLs
    let transport: HTTPTransport
    /// Minutes the token is asked to live (the service may give less).
    var expirationMinutes = 60

    /// The token services to try, the advertised one first.
    func tokenServices() async throws -> [String] {
        var candidates = urls.conventionalTokenServices
        if let restRoot = urls.restRoot {
            let answer = try await transport.send("\(restRoot)/info", FormParameters([("f", "json")]), post: false)
            // A password never goes over plain HTTP because a service reached over HTTPS says so.
            if case .document(let info) = ArcGISAnswer.read(answer), let advertised = info["authInfo"]?["tokenServicesUrl"]?.string,
               !advertised.isEmpty, !(urls.featureServer.lowercased().hasPrefix("https:") && !advertised.lowercased().hasPrefix("https:")) {
                candidates.removeAll { $0 == advertised }
                candidates.insert(advertised, at: 0)
            }
        }
        return candidates
    }

    /// Signs in at the first token service that answers; `known` is the one that worked before.
    func generate(user: String, password: String, known: String?) async throws -> (token: IssuedToken, service: String) {
        do {
            return try await attempt(user: user, password: password, known: known)
        } catch let failure as HTTPTransport.Failure {
            throw RuntimeError(failure.error.identifier, "Sign-in as '\(user)': \(failure.error.message)")
        }
    }

    private func attempt(user: String, password: String, known: String?) async throws -> (token: IssuedToken, service: String) {
        let candidates: [String]
        if let known { candidates = [known] } else { candidates = try await tokenServices() }
        let form = FormParameters([("username", user), ("password", password), ("client", "referer"), ("referer", urls.origin),
                                   ("expiration", String(expirationMinutes)), ("f", "json")])
        var tried: [String] = []
        for service in candidates {
            let answer = try await transport.send(service, form, post: true)
            switch ArcGISAnswer.read(answer) {
            case .document(let document):
                guard let token = document["token"]?.string, !token.isEmpty else {
                    tried.append("\(service) (no token in its answer)")
                    continue
                }
                return (IssuedToken(token: token, expires: document["expires"]?.int.map(Int64.init)), service)
            case .refusal(let error) where error.code == 404 || error.code == 405 || answer.status == 404 || answer.status == 405:
                tried.append("\(service) (\(error.code))")
            case .notJSON:
                tried.append("\(service) (not a token service)")
            case .refusal(let error):
                throw RuntimeError(RuntimeError.Identifier.authentication,
                                   "Sign-in as '\(user)' at \(service) was refused: \(error.description)", serviceCode: error.code)
            }
        }
        throw RuntimeError(RuntimeError.Identifier.authentication,
                           "Sign-in as '\(user)' failed: no token service answered (tried \(tried.joined(separator: ", "))).")
    }
}
