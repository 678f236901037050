import Foundation

/// Comparisons of names done on UTF-8 bytes in place. Case-insensitive comparison of names (fields,
/// capabilities) as the services compare them has an ASCII fast path: `lowercased()` allocates two new strings
/// per comparison, and the rules compare field names of every pop-up entry of every map. Non-ASCII text falls
/// back to `lowercased()`, so the answers are the same.
extension String {
    /// The same as `lowercased()`, without allocating when the text is ASCII with no upper-case letter.
    public func lowercasedCheaply() -> String {
        var copy = self
        let unchanged = copy.withUTF8 { bytes in
            bytes.allSatisfy { $0 < 0x80 && ($0 &- UInt8(ascii: "A")) >= 26 }
        }
        return unchanged ? self : lowercased()
    }

    /// The same as `lowercased() == other.lowercased()`.
    public func equalsIgnoringCase(_ other: String) -> Bool {
        var a = self
        var b = other
        let ascii: Bool? = a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                guard x.count == y.count else {
                    // Different lengths of ASCII text never lower-case to the same text.
                    return x.allSatisfy { $0 < 0x80 } && y.allSatisfy { $0 < 0x80 } ? false : nil
                }
                for k in 0..<x.count {
                    let p = x[k]
                    let q = y[k]
                    if p == q { continue }
                    // Beyond ASCII, lower-casing can change lengths and `==` compares canonical equivalence.
                    if (p | q) >= 0x80 { return nil }
                    guard (p | 0x20) == (q | 0x20), ((p | 0x20) &- UInt8(ascii: "a")) < 26 else { return false }
                }
                return true
            }
        }
        return ascii ?? (lowercased() == other.lowercased())
    }

    /// The same as `utf8.starts(with: prefix.utf8)`, comparing bytes in place.
    public func hasASCIIPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard count > 0 else { return true }
        guard utf8.count >= count else { return false }
        var copy = self
        return copy.withUTF8 { bytes in memcmp(bytes.baseAddress!, prefix.utf8Start, count) == 0 }
    }
}
