import Foundation

/// Service URLs: normalising them for snapshot look-ups and recognising feature layer URLs.
public enum ServiceURL {
    /// Scheme and host lower case, no query string or fragment, no trailing slash.
    public static func normalize(_ url: String) -> String {
        if isNormalized(url) { return url }
        var text = url.trimmingCharacters(in: .whitespaces)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        while text.hasSuffix("/") { text.removeLast() }
        guard let schemeEnd = text.range(of: "://") else { return text }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        let rest = text[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        return scheme + "://" + rest[..<hostEnd].lowercased() + rest[hostEnd...]
    }

    /// The common case, checked byte by byte: no surrounding space, no query or fragment, no trailing
    /// slash, and a lower-case scheme and host.
    private static func isNormalized(_ url: String) -> Bool {
        let bytes = url.utf8
        guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20, last != UInt8(ascii: "/") else { return false }
        var slashes = 0
        for byte in bytes {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == 0x09 { return false }
            if byte == UInt8(ascii: "/") { slashes += 1 }
            // Scheme and host end at the third slash; nothing upper case before it.
            if slashes < 3 && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return false }
        }
        return true
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
