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
        return String(decoding: units[lower..<upper], as: UTF16.self)
    }
}
