import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import Service
import FeatureServiceModel
import WebMap

/// The view models of the directory pages, built from the answers of the same `ServiceCore` calls the JSON
/// routes make, and the rendering of a page with its security headers. Views hold text only; every value
/// is escaped by the templates.
enum HTMLPages {
    /// `Content-Security-Policy` of every page: nothing but this server's stylesheet and forms; no script,
    /// no framing, no `<base>`.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// Renders `template` with `model` as an HTML answer.
    static func render(_ template: String, _ model: Any, status: HTTPResponse.Status = .ok, extraHeaders: HTTPFields = [:]) throws -> Response {
        guard let html = HTMLTemplates.library.render(model, withTemplate: template) else {
            throw ServiceError.internal("The HTML template '\(template)' is missing.")
        }
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: contentSecurityPolicy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("X-Frame-Options")!: "DENY",
            HTTPField.Name("Referrer-Policy")!: "same-origin",
            // Pages may show what one signed-in user may see: never kept by a shared cache.
            .cacheControl: "no-store",
            .vary: "Accept, Cookie",
        ]
        headers.append(contentsOf: extraHeaders)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    // MARK: What every page has

    struct Crumb {
        var label: String
        var href: String?
    }

    struct Fact {
        var term: String
        var detail: String
    }

    /// The header bar, breadcrumbs and title.
    struct Chrome {
        var title: String
        var kind: String?
        var crumbs: [Crumb]
        var signedInAs: String?
        /// True when the sign-in is this browser's cookie (so there is something to sign out of).
        var canSignOut: Bool
        var signInHref: String
        var jsonHref: String?
    }

    static func chrome(_ request: Request, _ context: MapRulesRequestContext, title: String, kind: String? = nil, crumbs: [Crumb],
                       jsonHref: String?) -> Chrome {
        Chrome(title: title, kind: kind, crumbs: crumbs, signedInAs: context.caller.username,
               canSignOut: context.caller.username != nil && BrowserSession.cookieToken(request) != nil,
               signInHref: link("/arcgis/rest/login", [("next", BrowserSession.currentLocation(request))]), jsonHref: jsonHref)
    }

    // MARK: Links

    /// `/arcgis/rest/services/<service>/...` with each component percent-encoded.
    static func servicePath(_ service: String, _ components: String...) -> String {
        (["/arcgis/rest/services", encodePathComponent(service)] + components.map(encodePathComponent)).joined(separator: "/")
    }

    static func encodePathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `path?name=value&...`, values encoded as form parameters (`+` and `&` in a where clause survive).
    static func link(_ path: String, _ parameters: [(String, String)]) -> String {
        let query = parameters.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }.joined(separator: "&")
        return query.isEmpty ? path : "\(path)?\(query)"
    }

    private static let unreserved: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~")
        return set
    }()

    static let home = Crumb(label: "Home", href: BrowserSession.home)

    // MARK: Text of values

    /// `esriFieldTypeString` → `String`, `esriGeometryPolygon` → `Polygon`.
    static func shortType(_ text: String?) -> String {
        guard let text else { return "" }
        for prefix in ["esriFieldType", "esriGeometry"] where text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
        return text
    }

    /// `Create,Query , Update` → `["Create", "Query", "Update"]`.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `{"wkid": 102100, "latestWkid": 3857}` → `102100 (3857)`.
    static func spatialReference(_ json: JSON?) -> String? {
        guard let json, let wkid = json["wkid"]?.int else { return nil }
        if let latest = json["latestWkid"]?.int, latest != wkid { return "\(wkid) (\(latest))" }
        return "\(wkid)"
    }

    static func yesNo(_ value: Bool?) -> String {
        guard let value else { return "" }
        return value ? "Yes" : "No"
    }

    /// Epoch milliseconds as `2024-05-01 13:45:00` (UTC).
    static func date(millis: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    /// A JSON scalar as a person reads it (strings as they are, numbers without a trailing `.0`).
    static func text(_ json: JSON) -> String {
        switch json {
        case .string(let s): return s
        case .null: return "null"
        default: return json.text
        }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }
}

// MARK: The error page

extension HTMLPages {
    struct ErrorPage {
        var chrome: Chrome
        var message: String
        var code: Int
        var details: [String]
        var hasDetails: Bool
        var needsSignIn: Bool
        var signInLink: String
        var version = SiteInfo.serverFullVersion
    }

    static func error(_ error: ServiceError, chrome: Chrome) -> ErrorPage {
        ErrorPage(chrome: chrome, message: error.message, code: error.code, details: error.details, hasDetails: !error.details.isEmpty,
                  needsSignIn: error.code == 499 || error.code == 498 || (error.code == 404 && chrome.signedInAs == nil),
                  signInLink: chrome.signInHref)
    }
}
