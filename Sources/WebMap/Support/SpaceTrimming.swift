/// Trimming spaces without Foundation: `trimmingCharacters(in: .whitespaces)` bridges through NSString and
/// copies the string twice, and the rules trim every URL and placeholder of every map. Same set of
/// characters as `CharacterSet.whitespaces`: the tab and every Unicode space separator (category Zs).
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (Unicode space separators included).
    public func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let before = scalars.index(before: end)
            guard Self.isSpace(scalars[before]) else { break }
            end = before
        }
        if start == startIndex, end == endIndex, let whole = self as? String { return whole }
        return String(self[start..<end])
    }

    /// True when the text starts with `prefix`, ASCII letters compared without regard to case
    /// (`prefix` must be ASCII).
    public func hasASCIIPrefixIgnoringCase(_ prefix: String) -> Bool {
        var text = utf8.makeIterator()
        for expected in prefix.utf8 {
            guard let byte = text.next() else { return false }
            if byte == expected { continue }
            let folded = byte | 0x20
            guard folded == expected | 0x20, folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z") else { return false }
        }
        return true
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || scalar.value == 0x09 }
        return scalar.properties.generalCategory == .spaceSeparator
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs; the text itself, not a copy, when its first and
    /// last bytes are ASCII other than space and tab (the common case, answered without decoding it).
    public func trimmingSpaces() -> String {
        var copy = self
        let untouched = copy.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && byte != 0x09 }
            return plain(first) && plain(last)
        }
        return untouched ? self : self[...].trimmingSpaces()
    }
}
