import Foundation

/// ISO 8601 text as `Date(text)` reads it: `2016-10-20`, `2016-10-20T17:41:37`, `2016-10-20T17:41:37.5Z`,
/// `2016-10-20T17:41:37+00:00` (also `+0000`, `+00`, and a space instead of `T`). Without an offset the time is
/// in the default zone. The date keeps the default zone for its parts.
enum ISODateText {
    static func parse(_ text: String, defaultZone: TimeZone) -> ArcadeDate? {
        let chars = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard chars.count <= 40 else { return nil }
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= chars.count else { return nil }
            var value = 0
            for c in chars[i..<(i + width)] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += width
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            if i < chars.count && chars[i] == c { i += 1; return true }
            return false
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        var millisecond = 0.0
        var zone = defaultZone
        var offsetSeconds: Int?
        if i < chars.count && (chars[i] == 84 || chars[i] == 32) {   // "T" or " "
            i += 1
            guard let h = number(2), expect(58), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(58) {
                guard let s = number(2) else { return nil }
                second = s
                if expect(46) || expect(44) {
                    var fraction = "0."
                    while i < chars.count, chars[i] >= 48 && chars[i] <= 57 { fraction.append(Character(UnicodeScalar(chars[i]))); i += 1 }
                    guard fraction.count > 2 else { return nil }
                    millisecond = ((Double(fraction) ?? 0) * 1000).rounded(.down)
                }
            }
            guard hour <= 24, minute <= 59, second <= 59 else { return nil }
            if i < chars.count {
                if chars[i] == 90 {   // "Z"
                    i += 1
                    offsetSeconds = 0
                } else if chars[i] == 43 || chars[i] == 45 {
                    let text = String(decoding: chars[i...], as: UTF8.self)
                    guard let fixed = ArcadeTimeZones.offsetZone(text) else { return nil }
                    offsetSeconds = fixed.secondsFromGMT()
                    i = chars.count
                }
            }
        }
        guard i == chars.count else { return nil }
        if let offsetSeconds {
            zone = TimeZone(secondsFromGMT: offsetSeconds) ?? ArcadeDate.utc
        }
        guard let epoch = DateParts.epochMilliseconds(year: year, month: month, day: day, hour: hour, minute: minute,
                                                      second: second, millisecond: millisecond, zone: zone)
        else { return nil }
        return ArcadeDate(epochMilliseconds: epoch, timeZone: defaultZone)
    }
}
