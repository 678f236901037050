import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// What every route may need to know about the site itself: the scheme it serves, the address to fall
/// back on, and the ArcGIS versions it claims.
public struct SiteInfo: Sendable {
    /// The ArcGIS Enterprise release the REST answers follow.
    public static let serverVersion = 11.1
    public static let serverFullVersion = "11.1.0"
    /// The portal (sharing API) version of that release.
    public static let portalVersion = "11.1"

    public var tls: Bool
    /// `host:port` used when a request carries no Host header.
    public var fallbackAuthority: String

    public init(tls: Bool, fallbackAuthority: String) {
        self.tls = tls
        self.fallbackAuthority = fallbackAuthority
    }

    public var scheme: String { tls ? "https" : "http" }

    /// `http(s)://host:port/arcgis` as the client reached this server (its Host header), so that
    /// URLs handed out (token service, portal web maps) work from where the client stands.
    public func baseURL(for request: Request) -> String {
        // Only a plain host[:port] is echoed back; anything else falls back to the bound address.
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        let authority = request.head.authority.flatMap { value in
            value.isEmpty || value.unicodeScalars.contains { !allowed.contains($0) } ? nil : value
        } ?? fallbackAuthority
        return "\(scheme)://\(authority)/arcgis"
    }
}
