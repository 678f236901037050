import Foundation

/// Service URLs: normalising them for snapshot look-ups and recognising feature layer URLs.
public enum ServiceURL {
    /// Scheme and host lower case, no query string or fragment, no trailing slash.
    public static func normalize(_ url: String) -> String {
        var text = url.trimmingCharacters(in: .whitespaces)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        while text.hasSuffix("/") { text.removeLast() }
        guard let schemeEnd = text.range(of: "://") else { return text }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        let rest = text[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        return scheme + "://" + rest[..<hostEnd].lowercased() + rest[hostEnd...]
    }

    /// True for `http(s)://host/.../FeatureServer/<n>` or `.../MapServer/<n>` (query string allowed).
    public static func isLayerURL(_ url: String) -> Bool { layerComponents(url) != nil }

    /// Splits a layer URL into its service URL and layer id.
    public static func layerComponents(_ url: String) -> (service: String, layerId: Int)? {
        let text = normalize(url)
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, let id = Int(parts[parts.count - 1]), id >= 0,
              ["featureserver", "mapserver"].contains(parts[parts.count - 2].lowercased()),
              !parts[2].isEmpty else { return nil }
        return (parts.dropLast().joined(separator: "/"), id)
    }

    /// True when the URL carries a secret: a `token=` or an API key parameter.
    public static func carriesSecret(_ url: String) -> Bool {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            return ["token", "apikey", "api_key", "key"].contains(name)
        }
    }
}
