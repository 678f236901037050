import Foundation

/// Service URLs: normalising them for snapshot look-ups and recognising feature layer URLs.
public enum ServiceURL {
    /// Scheme and host lower case, no query string or fragment, no trailing slash.
    public static func normalize(_ url: String) -> String {
        if isNormalized(url) { return url }
        var text = url.trimmingSpaces()
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
        var text = url
        return text.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20, last != UInt8(ascii: "/") else { return false }
            var slashes = 0
            for byte in bytes {
                // Lower-case letters, most of a URL, need no test.
                if byte >= UInt8(ascii: "a") { continue }
                if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == 0x09 { return false }
                if byte == UInt8(ascii: "/") { slashes += 1 }
                // Scheme and host end at the third slash; nothing upper case before it.
                if slashes < 3 && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return false }
            }
            return true
        }
    }

    /// True for `http(s)://host/.../FeatureServer/<n>` or `.../MapServer/<n>` (query string allowed).
    public static func isLayerURL(_ url: String) -> Bool {
        var text = normalize(url)
        return text.withUTF8 { layerParts($0) } != nil
    }

    /// Splits a layer URL into its service URL (normalised) and layer id.
    public static func layerComponents(_ url: String) -> (service: String, layerId: Int)? {
        var text = normalize(url)
        return text.withUTF8 { bytes in
            layerParts(bytes).map { (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<$0.serviceEnd]), as: UTF8.self), $0.layerId) }
        }
    }

    /// Reads a normalised URL from its end, byte by byte and without allocating (this runs for every layer of
    /// every map): the length of the service URL (up to the last slash) and the layer id after it.
    private static func layerParts(_ bytes: UnsafeBufferPointer<UInt8>) -> (serviceEnd: Int, layerId: Int)? {
        guard bytes.count > 8 else { return nil }
        let schemeLength: Int
        if startsIgnoringCase(bytes, at: 0, with: "https://") {
            schemeLength = 8
        } else if startsIgnoringCase(bytes, at: 0, with: "http://") {
            schemeLength = 7
        } else {
            return nil
        }
        // Layer id: the digits after the last slash.
        guard let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")), lastSlash > schemeLength, lastSlash + 1 < bytes.count else { return nil }
        var id = 0
        for b in bytes[(lastSlash + 1)...] {
            guard b >= 48 && b <= 57, id < Int.max / 10 - 10 else { return nil }
            id = id * 10 + Int(b - 48)
        }
        // Service type: the segment before it.
        guard let typeSlash = bytes[..<lastSlash].lastIndex(of: UInt8(ascii: "/")), typeSlash > schemeLength else { return nil }
        let typeLength = lastSlash - typeSlash - 1
        guard (typeLength == 13 && startsIgnoringCase(bytes, at: typeSlash + 1, with: "featureserver"))
                || (typeLength == 9 && startsIgnoringCase(bytes, at: typeSlash + 1, with: "mapserver")) else { return nil }
        // A host before the service path.
        guard let hostEnd = bytes[schemeLength...].firstIndex(of: UInt8(ascii: "/")), hostEnd > schemeLength, hostEnd <= typeSlash else { return nil }
        return (lastSlash, id)
    }

    /// True when `bytes` hold `lowercase` (lower-case ASCII) at `offset`, ASCII letters compared without case.
    private static func startsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, with lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let expected = lowercase.utf8Start
        for k in 0..<count {
            let b = bytes[offset + k]
            if (b >= 65 && b <= 90 ? b + 32 : b) != expected[k] { return false }
        }
        return true
    }

    /// True when the URL carries a secret: a `token=` or an API key parameter.
    public static func carriesSecret(_ url: String) -> Bool {
        // Most URLs have no query string: a byte scan answers those without splitting.
        guard url.utf8.contains(UInt8(ascii: "?")),
              let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            return ["token", "apikey", "api_key", "key"].contains(name)
        }
    }
}
