import Foundation

// Hand-written `application/x-www-form-urlencoded` encoding (what a URL library would normally do).
// Foundation's `URLComponents` leaves `+` (and other sub-delimiters) unescaped in query values, and a form decoder
// then reads a `+` as a space: `a+b > 1` in a where clause, or base64 attachment data, would arrive changed.
// Here every byte outside RFC 3986's unreserved set is escaped, the same for query strings and POST bodies.

/// Request parameters in the order they are added (a name may appear once).
struct FormParameters: Sendable, Equatable {
    private(set) var pairs: [(name: String, value: String)] = []

    init(_ pairs: [(String, String)] = []) {
        for (name, value) in pairs { self[name] = value }
    }

    static func == (lhs: FormParameters, rhs: FormParameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// Sets `name` (replacing an earlier value); nil removes it.
    subscript(name: String) -> String? {
        get { pairs.first { $0.name == name }?.value }
        set {
            if let index = pairs.firstIndex(where: { $0.name == name }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((name, newValue))
            }
        }
    }

    /// `a=1&b=x%20y`.
    var encoded: String {
        pairs.map { "\(Self.escape($0.name))=\(Self.escape($0.value))" }.joined(separator: "&")
    }

    /// Percent-escapes everything but the unreserved characters of RFC 3986 (`A-Z a-z 0-9 - . _ ~`).
    static func escape(_ text: String) -> String {
        // Bytes in, bytes out: a sync's edits are megabytes, and appending to a String per character was a tenth of it.
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + text.utf8.count / 4)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
