import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// The portal's OAuth 2 sign-in (`/arcgis/sharing/rest/oauth2/authorize`, `/arcgis/sharing/oauth2/signin`,
/// `/arcgis/sharing/rest/oauth2/token`): how portal clients such as the `arcgis` Python package sign
/// in with a user name and password. Both the implicit flow (`response_type=token`, the token comes
/// back in the redirect's fragment) and the authorization-code flow (`response_type=code`; with the
/// out-of-band redirect the code is shown in the page title `SUCCESS code=...`) are served. The pages
/// are minimal HTML carrying `var oAuthInfo = {...}` as ArcGIS's do. Tokens are the core's.
struct OAuthRoutes {
    static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"
    let core: ServiceCore
    let site: SiteInfo
    let signIns: OAuthSignIns

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        for prefix in ["arcgis/sharing/rest/oauth2", "arcgis/sharing/oauth2"] {
            let group = router.group(RouterPath(prefix))
            group.getAndPost("authorize", use: authorize)
            group.getAndPost("signin", use: signIn)
            group.getAndPost("token", use: token)
        }
    }

    @Sendable func authorize(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        guard let clientId = a.string("client_id") else { return Self.page(title: "Error", info: .object([("messages", .array([.string("Error: Invalid client_id")]))])) }
        let redirect = a.string("redirect_uri") ?? Self.outOfBand
        guard isAllowed(redirect: redirect, request: request) else {
            return Self.page(title: "Error", info: .object([("messages", .array([.string("Invalid redirect_uri")]))]),
                             extra: "Invalid redirect_uri: only \(Self.outOfBand) or this server's own address are accepted.")
        }
        let responseType = (a.string("response_type") ?? "code").lowercased()
        guard responseType == "code" || responseType == "token" else {
            return Self.page(title: "Error", info: .object([("messages", .array([.string("Unsupported response_type '\(responseType.prefix(20))'.")]))]))
        }
        let oauthState = signIns.begin(.init(clientId: clientId, redirectURI: redirect, responseType: responseType, state: a.string("state"),
                                             expirationMinutes: try? a.int("expiration"), created: Date()))
        return Self.page(title: "Sign in to MapRules", info: Self.info(oauthState: oauthState, clientId: clientId))
    }

    @Sendable func signIn(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        guard request.method == .post else {
            throw ServiceError.invalidParameter("Sign in with POST: the password must not travel in a URL.")
        }
        guard let oauthState = a.string("oauth_state"), let pending = signIns.pendingRequest(oauthState) else {
            return Self.page(title: "Error", info: .object([("messages", .array([.string("The sign-in has expired or is unknown: start again at oauth2/authorize.")]))]))
        }
        let username = a.string("username") ?? ""
        let password = a.string("password") ?? ""
        let minutes = pending.expirationMinutes ?? (try? a.int("expiration")) ?? nil
        let access: IssuedToken
        do {
            access = try await core.generateToken(username: username, password: password, expirationMinutes: minutes)
        } catch let error as ServiceError where error.code == 400 {
            return Self.page(title: "Sign in to MapRules", info: Self.info(oauthState: oauthState, clientId: pending.clientId,
                                                                              messages: ["Invalid username or password."]))
        }
        context.notes.username = username
        signIns.finish(oauthState)
        let canonicalName = (try? await core.caller(token: access.token).username) ?? username
        let expiresIn = max(1, Int((access.expires - Int64(Date().timeIntervalSince1970 * 1000)) / 1000))

        if pending.responseType == "token" {
            var fragment = [("access_token", access.token), ("expires_in", String(expiresIn)), ("username", canonicalName),
                            ("ssl", site.tls ? "true" : "false"), ("persist", "false")]
            if let state = pending.state { fragment.append(("state", state)) }
            return Self.redirect(to: pending.redirectURI + "#" + Self.encode(fragment))
        }
        let backing = try await core.generateToken(username: username, password: password, expirationMinutes: Int.max)
        let code = signIns.issueCode(.init(username: canonicalName, accessToken: access, refreshBacking: backing, created: Date()))
        if pending.redirectURI == Self.outOfBand {
            return Self.page(title: "SUCCESS code=\(code)", info: Self.info(oauthState: oauthState, clientId: pending.clientId))
        }
        var query = [("code", code)]
        if let state = pending.state { query.append(("state", state)) }
        return Self.redirect(to: pending.redirectURI + (pending.redirectURI.contains("?") ? "&" : "?") + Self.encode(query))
    }

    @Sendable func token(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        switch a.string("grant_type")?.lowercased() {
        case "authorization_code":
            guard let code = a.string("code"), let (grant, refresh) = signIns.redeem(code: code) else {
                return Self.oauthError("invalid_grant", "Invalid authorization code.")
            }
            context.notes.username = grant.username
            return ArcGISResponse.document(.object([
                ("access_token", .string(grant.accessToken.token)),
                ("expires_in", .int(Int(max(1, (grant.accessToken.expires - now) / 1000)))),
                ("username", .string(grant.username)),
                ("ssl", .bool(site.tls)),
                ("refresh_token", .string(refresh)),
                ("refresh_token_expires_in", .int(Int(max(1, (grant.refreshBacking.expires - now) / 1000)))),
            ]), context: context)
        case "refresh_token":
            guard let refresh = a.string("refresh_token"), let grant = signIns.grant(refreshToken: refresh),
                  (try? await core.caller(token: grant.refreshBacking.token)) != nil else {
                return Self.oauthError("invalid_grant", "Invalid or expired refresh_token.")
            }
            context.notes.username = grant.username
            return ArcGISResponse.document(.object([
                ("access_token", .string(grant.refreshBacking.token)),
                ("expires_in", .int(Int(max(1, (grant.refreshBacking.expires - now) / 1000)))),
                ("username", .string(grant.username)),
                ("ssl", .bool(site.tls)),
            ]), context: context)
        case "suspend_session":
            if let refresh = a.string("refresh_token") { signIns.revoke(refreshToken: refresh) }
            return ArcGISResponse.document(.object([("success", .bool(true))]), context: context)
        default:
            return Self.oauthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.")
        }
    }

    /// The out-of-band URN, or a URL on this very server.
    private func isAllowed(redirect: String, request: Request) -> Bool {
        if redirect == Self.outOfBand { return true }
        guard let url = URL(string: redirect), let host = url.host else { return false }
        let own = site.baseURL(for: request)
        guard let ownURL = URL(string: own), let ownHost = ownURL.host else { return false }
        return host.caseInsensitiveCompare(ownHost) == .orderedSame && (url.port == nil || url.port == ownURL.port)
    }

    static func info(oauthState: String, clientId: String, messages: [String] = []) -> JSON {
        var members: [(String, JSON)] = [("oauth_state", .string(oauthState)), ("client_id", .string(clientId)),
                                         ("appTitle", .string("MapRules")), ("locale", .string("en-US"))]
        if !messages.isEmpty { members.append(("messages", .array(messages.map(JSON.string)))) }
        return .object(members)
    }

    /// A sign-in page: the `oAuthInfo` object alone on its line (clients find it with a regular
    /// expression), and a plain form for a person.
    static func page(title: String, info: JSON, extra: String = "") -> Response {
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(escape(title))</title></head>
            <body>
            <script>
            var oAuthInfo = \(info.text.replacingOccurrences(of: "</", with: "<\\/"));
            </script>
            <p>\(escape(extra))</p>
            <form method="post" action="signin">
            <input type="hidden" name="oauth_state" value="\(escape(info["oauth_state"]?.string ?? ""))">
            <label>User name <input name="username"></label>
            <label>Password <input name="password" type="password"></label>
            <button type="submit">Sign in</button>
            </form>
            </body></html>
            """
        return ArcGISResponse.bytes(Data(html.utf8), contentType: "text/html; charset=utf-8")
    }

    static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    static func oauthError(_ code: String, _ message: String) -> Response {
        ArcGISResponse.bytes(Data(JSON.object([("error", .object([
            ("code", .int(400)), ("error", .string(code)), ("error_description", .string(message)),
            ("message", .string(message)), ("details", .array([])),
        ]))]).text.utf8), contentType: "application/json; charset=utf-8")
    }

    static func encode(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
