import Foundation

/// The URLs one remote feature service is reached at, derived from the URL a caller gives:
/// `https://host/arcgis/rest/services/Folder/Name/FeatureServer`, with or without a trailing slash or
/// query (`?f=json`), or a layer's URL (`.../FeatureServer/3`), which names its service.
struct ServiceURLs: Sendable, Equatable {
    /// `.../FeatureServer`, no trailing slash, no query.
    let featureServer: String
    /// `.../rest`: where `info` and (ArcGIS Server's conventional) token service are found.
    let restRoot: String?
    /// `.../VersionManagementServer` (the FeatureServer URL with that one word replaced).
    let versionManagementServer: String
    /// The service's name: the path between `/services/` and `/FeatureServer` (`Folder/Name`).
    let serviceName: String

    /// Reads `text`; nil when it is not an http(s) URL that names a `FeatureServer`.
    init?(_ text: String) {
        var base = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let cut = base.firstIndex(where: { $0 == "?" || $0 == "#" }) { base = String(base[..<cut]) }
        while base.hasSuffix("/") { base.removeLast() }
        guard let components = URLComponents(string: base), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else { return nil }
        // The last path component spelled FeatureServer (any case), followed by nothing or a layer id.
        var parts = base.components(separatedBy: "/")
        guard let index = parts.lastIndex(where: { $0.caseInsensitiveCompare("FeatureServer") == .orderedSame }),
              index >= 3 else { return nil }
        let rest = parts[(index + 1)...]
        guard rest.isEmpty || (rest.count == 1 && Int(rest.first!) != nil) else { return nil }
        parts.removeSubrange((index + 1)...)
        featureServer = parts.joined(separator: "/")
        var management = parts
        management[index] = "VersionManagementServer"
        versionManagementServer = management.joined(separator: "/")
        let before = parts[..<index]
        if let services = before.lastIndex(where: { $0.caseInsensitiveCompare("services") == .orderedSame }),
           services > before.startIndex, parts[services - 1].caseInsensitiveCompare("rest") == .orderedSame {
            serviceName = parts[(services + 1)..<index].joined(separator: "/")
            restRoot = parts[..<services].joined(separator: "/")
        } else {
            serviceName = before.last ?? ""
            restRoot = nil
        }
    }

    /// `.../FeatureServer/<layer>`.
    func layer(_ id: Int) -> String { "\(featureServer)/\(id)" }

    /// The site root (`.../arcgis`, the parent of `rest`), where ArcGIS Server's `tokens/generateToken` and a
    /// portal's `sharing/rest` live.
    var siteRoot: String? {
        guard let restRoot, let slash = restRoot.lastIndex(of: "/") else { return nil }
        return String(restRoot[..<slash])
    }

    /// Where to ask for a token when `rest/info` does not say: `<rest root>/generateToken`... then ArcGIS
    /// Server's `tokens/generateToken` and the portal's `sharing/rest/generateToken`, in that order.
    var conventionalTokenServices: [String] {
        var urls: [String] = []
        if let siteRoot {
            urls.append("\(siteRoot)/tokens/generateToken")
            urls.append("\(siteRoot)/sharing/rest/generateToken")
        }
        if let restRoot { urls.insert("\(restRoot)/generateToken", at: 0) }
        return urls
    }

    /// The origin (`https://host:port`), sent as the token's `referer`.
    var origin: String {
        guard let components = URLComponents(string: featureServer), let scheme = components.scheme, let host = components.host else {
            return featureServer
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return components.port.map { "\(scheme)://\(shownHost):\($0)" } ?? "\(scheme)://\(shownHost)"
    }
}
