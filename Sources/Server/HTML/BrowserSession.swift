import Foundation
import Hummingbird

/// A person's sign-in in a browser: the token the core issued, kept in an `HttpOnly; SameSite=Strict`
/// cookie scoped to `/arcgis` (plus `Secure` over TLS), so that it never shows in a URL or a page.
///
/// The cookie only ever signs in the reading of directory pages: a GET (or HEAD) that asks for HTML on
/// one of the paths that have a page. Operations (edits, version management, replicas) never honour it,
/// so a page elsewhere, even one of the same site that a browser treats as "same-site" (another port of
/// 127.0.0.1), cannot make a signed-in browser change data.
enum BrowserSession {
    static let cookieName = "maprules_token"
    /// How long a browser sign-in lasts (the core caps it with its maximum token lifetime).
    static let lifetimeMinutes = 8 * 60
    /// Where a sign-in goes when no valid `next` came with it.
    static let home = "/arcgis/rest/services"

    /// The cookie's token when the request is the reading of a directory page; nil otherwise.
    static func token(_ request: Request, _ arguments: RequestArguments) -> String? {
        // The header first: clients that send no cookie (every JSON client) pay one header lookup.
        guard let token = cookieToken(request), isPagePath(request.uri.path), HTMLNegotiation.wantsHTML(request, arguments) else { return nil }
        return token
    }

    /// The cookie's token, whatever the request (sign-out reads it to revoke it).
    static func cookieToken(_ request: Request) -> String? {
        guard let value = request.cookies[cookieName]?.value, !value.isEmpty else { return nil }
        return value
    }

    /// The paths that answer a directory page (matched without regard to case or a trailing slash).
    static func isPagePath(_ path: String) -> Bool {
        let parts = path.lowercased().split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[0] == "arcgis", parts[1] == "rest" else { return false }
        if parts.count == 3 { return ["services", "login", "logout"].contains(parts[2]) }
        guard parts[2] == "services", parts.count >= 5 else { return false }
        switch (parts[4], parts.count) {
        case ("featureserver", 5), ("versionmanagementserver", 5): return true
        case ("featureserver", 6): return Int(parts[5]) != nil
        case ("featureserver", 7): return Int(parts[5]) != nil && parts[6] == "query"
        case ("versionmanagementserver", 6): return parts[5] == "versions" || parts[5] == "versioninfos"
        default: return false
        }
    }

    /// The `Set-Cookie` value that signs a browser in.
    static func signInCookie(token: String, maxAgeSeconds: Int, secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: token, maxAge: max(0, maxAgeSeconds), path: "/arcgis", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The `Set-Cookie` value that signs a browser out (an empty cookie that expires at once).
    static func signOutCookie(secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: "", maxAge: 0, path: "/arcgis", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// `next` when it is a local path of this server (`/arcgis/...`), else the catalogue: never an absolute
    /// or protocol-relative URL, a backslash, or anything but printable ASCII (no header injection).
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/arcgis/"), !next.hasPrefix("//"), next.count <= 2048,
              next.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }) else { return home }
        return next
    }

    /// Where the person is now, as a `next` value: the path and query without any `token` parameter.
    static func currentLocation(_ request: Request) -> String {
        let kept = (request.uri.query ?? "").split(separator: "&").filter { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map { RequestArguments.decodeComponent($0) } ?? ""
            return name.lowercased() != "token"
        }
        return safeNext(kept.isEmpty ? request.uri.path : "\(request.uri.path)?\(kept.joined(separator: "&"))")
    }
}
