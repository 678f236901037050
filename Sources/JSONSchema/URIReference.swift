/// A URI reference split into its RFC 3986 components, with reference resolution (section 5.2) and dot-segment
/// removal. Written here rather than using Foundation's `URL`, whose resolution of non-hierarchical bases
/// (`urn:`, `tag:`) and of empty or fragment-only references differs between platforms.
struct URIReference: Hashable, CustomStringConvertible {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits `text` with the regular expression of RFC 3986 appendix B; every string is some URI reference.
    init(_ text: String) {
        var rest = Substring(text)
        fragment = nil
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        query = nil
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        scheme = nil
        if let colon = rest.firstIndex(of: ":") {
            let candidate = rest[..<colon]
            if !candidate.isEmpty, !candidate.contains("/"), candidate.first!.isLetter,
               candidate.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
                scheme = candidate.lowercased()
                rest = rest[rest.index(after: colon)...]
            }
        }
        authority = nil
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    var isAbsolute: Bool { scheme != nil }

    var description: String {
        var out = ""
        if let scheme { out += scheme + ":" }
        if let authority { out += "//" + authority }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// This reference without its fragment.
    var withoutFragment: URIReference {
        var copy = self
        copy.fragment = nil
        return copy
    }

    /// `reference` resolved against this (absolute) base, as RFC 3986 section 5.2.2 says.
    func resolving(_ reference: URIReference) -> URIReference {
        var target = URIReference(scheme: nil, authority: nil, path: "", query: nil, fragment: reference.fragment)
        if let scheme = reference.scheme {
            target.scheme = scheme
            target.authority = reference.authority
            target.path = Self.removeDotSegments(reference.path)
            target.query = reference.query
            return target
        }
        target.scheme = scheme
        if reference.authority != nil {
            target.authority = reference.authority
            target.path = Self.removeDotSegments(reference.path)
            target.query = reference.query
            return target
        }
        target.authority = authority
        if reference.path.isEmpty {
            target.path = path
            target.query = reference.query ?? query
        } else {
            if reference.path.hasPrefix("/") {
                target.path = Self.removeDotSegments(reference.path)
            } else {
                target.path = Self.removeDotSegments(merge(reference.path))
            }
            target.query = reference.query
        }
        return target
    }

    func resolving(_ text: String) -> URIReference { resolving(URIReference(text)) }

    private func merge(_ relative: String) -> String {
        if authority != nil && path.isEmpty { return "/" + relative }
        guard let slash = path.lastIndex(of: "/") else { return relative }
        return String(path[...slash]) + relative
    }

    static func removeDotSegments(_ input: String) -> String {
        guard input.contains(".") else { return input }
        var segments: [Substring] = []
        let parts = input.split(separator: "/", omittingEmptySubsequences: false)
        let absolute = input.hasPrefix("/")
        for (index, part) in parts.enumerated() {
            if index == 0 && absolute { continue }
            let isLast = index == parts.count - 1
            switch part {
            case ".":
                if isLast { segments.append("") }
            case "..":
                if !segments.isEmpty { segments.removeLast() }
                if isLast { segments.append("") }
            default:
                segments.append(part)
            }
        }
        return (absolute ? "/" : "") + segments.joined(separator: "/")
    }

    /// Decodes `%XX` escapes (used in JSON Pointer fragments); malformed escapes are left as written.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < utf8.count {
            if utf8[i] == 0x25, i + 2 < utf8.count, let h = hex(utf8[i + 1]), let l = hex(utf8[i + 2]) {
                bytes.append(h << 4 | l)
                i += 3
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
