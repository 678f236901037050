import Foundation
import WebMap

/// GUIDs as the service writes them: braced upper-case `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}`; accepted
/// in any case, braced or not.
public enum GUIDText {
    /// The canonical form of `text`, or nil when it is not a GUID.
    /// (Read byte by byte rather than through Foundation's `UUID(uuidString:)` and `trimmingCharacters`:
    /// every add and every edit by global id passes here, and the Foundation path was a quarter of an apply.)
    public static func normalize(_ text: String) -> String? {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        if bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}") { bytes = bytes.dropFirst().dropLast() }
        guard bytes.count == 36 else { return nil }
        var canonical: [UInt8] = [UInt8(ascii: "{")]
        canonical.reserveCapacity(38)
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                canonical.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"): canonical.append(byte)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): canonical.append(byte - 0x20)
            default: return nil
            }
        }
        canonical.append(UInt8(ascii: "}"))
        return String(decoding: canonical, as: UTF8.self)
    }

    /// A new random GUID in canonical form.
    /// (A version-4 UUID from the system's random source, as `UUID()` makes, written without Foundation,
    /// whose `UUID()` opens the random device for every one.)
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            var word: UInt64 = generator.next()
            for i in 0..<8 { bytes[half * 8 + i] = UInt8(truncatingIfNeeded: word); word >>= 8 }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = [UInt8(ascii: "{")]
        text.reserveCapacity(38)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        text.append(UInt8(ascii: "}"))
        return String(decoding: text, as: UTF8.self)
    }
}
