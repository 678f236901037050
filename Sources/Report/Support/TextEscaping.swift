/// Escaping text for an output format in one pass over its UTF-8 bytes. The text formats escape every message
/// they write, and a report may hold hundreds of thousands: appending scalar by scalar cost more than the lint
/// itself (a 1 MB expression with 250,000 findings). Here the runs of text that need no escape are copied at once.
enum TextEscaping {
    /// Appends `text` to `out`, each Unicode scalar for which `replacement` answers a text written as that
    /// text, the others as they are. `isPlainASCII` says which ASCII bytes need no question (they are copied
    /// without asking `replacement`); every other ASCII byte and every non-ASCII scalar is asked.
    static func append(_ text: String, to out: inout String, isPlainASCII: (UInt8) -> Bool,
                       replacement: (Unicode.Scalar) -> String?) {
        var copy = text
        copy.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let lead = bytes[i]
                if lead < 0x80 && isPlainASCII(lead) {
                    i += 1
                    continue
                }
                let (scalar, length) = decode(bytes, at: i)
                guard let substitute = replacement(scalar) else {
                    i += length
                    continue
                }
                if runStart < i { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<i]), as: UTF8.self) }
                out += substitute
                i += length
                runStart = i
            }
            if runStart == 0 {
                out += text
            } else if runStart < bytes.count {
                out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]), as: UTF8.self)
            }
        }
    }

    /// `text` escaped as ``append(_:to:isPlainASCII:replacement:)`` does.
    static func escaped(_ text: String, isPlainASCII: (UInt8) -> Bool, replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out, isPlainASCII: isPlainASCII, replacement: replacement)
        return out
    }

    /// The scalar whose UTF-8 encoding starts at `i` of valid UTF-8 `bytes`, and the length of that encoding.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[i])
        let value: UInt32
        let length: Int
        if lead < 0x80 {
            (value, length) = (lead, 1)
        } else if lead < 0xE0 {
            (value, length) = ((lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2)
        } else if lead < 0xF0 {
            (value, length) = ((lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        } else {
            (value, length) = ((lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                               | UInt32(bytes[i + 3] & 0x3F), 4)
        }
        // Valid UTF-8 (a Swift string's) always decodes to a scalar; U+FFFD guards the impossible.
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}
