import Foundation

/// How the text functions read their arguments. Arcade converts loosely: a text parameter takes any value through
/// `Text()` (numbers, booleans, arrays), a number parameter through `Number()`; a count or position must then be a
/// finite number, and is truncated toward zero.
extension ArcadeCall {
    /// Argument `index` as text (`Text()` without a format); null is "".
    func textArgument(_ index: Int) -> String { self[index].textValue }

    /// Argument `index` as a whole number (truncated toward zero), or `defaultValue` when absent or null.
    /// NaN and infinities are a run error naming the parameter.
    func wholeNumberArgument(_ index: Int, named parameter: String, default defaultValue: Int? = nil) throws -> Int {
        if index >= count || self[index].isNull, let defaultValue { return defaultValue }
        let number = self[index].numberValue
        guard number.isFinite else {
            throw failure("\(parameter) must be a finite number, not \(ArcadeValue.formatNumber(number))")
        }
        // Clamp to a range every text length fits in, so conversions never trap.
        let bounded = min(max(number.rounded(.towardZero), -Double(Int32.max)), Double(Int32.max))
        return Int(bounded)
    }

    /// Fails when a text this function would build is longer than Arcade texts are allowed to be here.
    func checkTextLength(_ utf16Count: Int) throws {
        if utf16Count > ArcadeTextLimits.maximumLength {
            throw failure("the result would be \(utf16Count) characters long; texts are limited to "
                + "\(ArcadeTextLimits.maximumLength) characters")
        }
    }
}

/// Bounds that keep text functions from exhausting memory on hostile input.
enum ArcadeTextLimits {
    /// 64 million UTF-16 code units (128 MB): far above any real field value.
    static let maximumLength = 64 * 1024 * 1024
}

/// Text as Arcade indexes it: positions and lengths count UTF-16 code units, as JavaScript does
/// (`ToCharCode('🌉', 1)` is the second half of the surrogate pair).
struct UTF16Text {
    let units: [UInt16]
    init(_ text: String) { units = Array(text.utf16) }
    var count: Int { units.count }

    /// The units from `start` (clamped to the text) taking at most `length` of them.
    func slice(from start: Int, length: Int) -> String {
        let lower = min(max(start, 0), units.count)
        let upper = min(lower + max(length, 0), units.count)
        return Self.string(units[lower..<upper])
    }

    /// A String of UTF-16 code units, a lone surrogate becoming U+FFFD as `String(decoding:as:)` does. Transcoded
    /// here to UTF-8 because the standard library's UTF-16 decoding is a generic slow path (about 150 ns a unit:
    /// `Left` of a 10 MB text took over a second); this is a plain loop, and ASCII is copied as it is.
    static func string<Units: Collection>(_ units: Units) -> String where Units.Element == UInt16 {
        // First the UTF-8 length, then the bytes written in place (a short piece is stored inline: no allocation).
        var length = 0
        var previousWasHigh = false
        for unit in units {
            switch unit {
            case 0..<0x80: length += 1; previousWasHigh = false
            case 0x80..<0x800: length += 2; previousWasHigh = false
            case 0xD800..<0xDC00: length += 3; previousWasHigh = true
            // A low surrogate after a high one makes the pair's 4 bytes (3 counted already).
            case 0xDC00..<0xE000: length += previousWasHigh ? 1 : 3; previousWasHigh = false
            default: length += 3; previousWasHigh = false
            }
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var at = 0
            func put(_ byte: UInt8) { buffer[at] = byte; at += 1 }
            func replacement() { put(0xEF); put(0xBF); put(0xBD) }
            var iterator = units.makeIterator()
            var pending: UInt16?
            while let unit = pending ?? iterator.next() {
                pending = nil
                switch unit {
                case 0..<0x80:
                    put(UInt8(unit))
                case 0x80..<0x800:
                    put(0xC0 | UInt8(unit >> 6)); put(0x80 | UInt8(unit & 0x3F))
                case 0xD800..<0xDC00:
                    // A high surrogate: a scalar above U+FFFF with the low surrogate that follows, else U+FFFD.
                    guard let low = iterator.next() else { replacement(); break }
                    guard (0xDC00..<0xE000).contains(low) else { replacement(); pending = low; break }
                    let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    put(0xF0 | UInt8(scalar >> 18)); put(0x80 | UInt8((scalar >> 12) & 0x3F))
                    put(0x80 | UInt8((scalar >> 6) & 0x3F)); put(0x80 | UInt8(scalar & 0x3F))
                case 0xDC00..<0xE000:
                    replacement()
                default:
                    put(0xE0 | UInt8(unit >> 12)); put(0x80 | UInt8((unit >> 6) & 0x3F)); put(0x80 | UInt8(unit & 0x3F))
                }
            }
            return at
        }
    }
}
