import Foundation

/// `Text(date, pattern)`: the date's parts in its own zone, in English (en-US), token by token as the reference's
/// table lists them (https://developers.arcgis.com/arcade/function-reference/text_functions/#text): `Y` full year,
/// `YY` two digits, `YYYY` four; `M`/`MM`/`MMM`/`MMMM` month; `D`/`DD` day, `DDD`/`DDDD` day of the year; `d` ISO
/// day of the week (1 Monday ... 7 Sunday), `ddd`/`dddd` its name; `H`/`HH` 0-23, `h`/`hh` 1-12, `A`/`a` AM/PM;
/// `m`/`mm`, `s`/`ss`, `S`/`SS`/`SSS` fractions of a second; `Z` (+07:00), `ZZ` (+0700), `ZZZ` (PDT); `X`/`x` epoch
/// seconds/milliseconds. Text in `[brackets]` is written as is, as is every other character.
enum DatePattern {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// Tokens longest first, so `MMMM` wins over `MM`.
    static let tokens = ["YYYY", "MMMM", "DDDD", "dddd", "SSS", "ZZZ", "YY", "MMM", "DDD", "ddd", "MM", "DD", "HH",
                         "hh", "mm", "ss", "SS", "ZZ", "Y", "M", "D", "d", "H", "h", "m", "s", "S", "A", "a", "Z",
                         "X", "x"]

    static func format(_ date: ArcadeDate, pattern: String) -> String {
        guard date.epochMilliseconds.isFinite, abs(date.epochMilliseconds) <= DateParts.maximumEpochMilliseconds
        else { return "Invalid Date" }
        let parts = DateParts(date)
        let characters = Array(pattern)
        var out = ""
        var i = 0
        while i < characters.count {
            if characters[i] == "[" {
                if let close = characters[(i + 1)...].firstIndex(of: "]") {
                    out += String(characters[(i + 1)..<close])
                    i = close + 1
                    continue
                }
            }
            var matched = false
            for token in tokens where token.count <= characters.count - i {
                if String(characters[i..<(i + token.count)]) == token {
                    out += value(of: token, parts, date)
                    i += token.count
                    matched = true
                    break
                }
            }
            if !matched {
                out.append(characters[i])
                i += 1
            }
        }
        return out
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func value(of token: String, _ p: DateParts, _ date: ArcadeDate) -> String {
        let hour12 = p.hour % 12 == 0 ? 12 : p.hour % 12
        switch token {
        case "Y": return String(p.year)
        case "YY": return pad(((p.year % 100) + 100) % 100, 2)
        case "YYYY": return pad(p.year, 4)
        case "M": return String(p.month)
        case "MM": return pad(p.month, 2)
        case "MMM": return String(monthNames[p.month - 1].prefix(3))
        case "MMMM": return monthNames[p.month - 1]
        case "D": return String(p.day)
        case "DD": return pad(p.day, 2)
        case "DDD": return String(p.dayOfYear)
        case "DDDD": return pad(p.dayOfYear, 3)
        case "d": return String(p.weekday == 1 ? 7 : p.weekday - 1)
        case "ddd": return String(dayNames[p.weekday - 1].prefix(3))
        case "dddd": return dayNames[p.weekday - 1]
        case "H": return String(p.hour)
        case "HH": return pad(p.hour, 2)
        case "h": return String(hour12)
        case "hh": return pad(hour12, 2)
        case "A": return p.hour < 12 ? "AM" : "PM"
        case "a": return p.hour < 12 ? "am" : "pm"
        case "m": return String(p.minute)
        case "mm": return pad(p.minute, 2)
        case "s": return String(p.second)
        case "ss": return pad(p.second, 2)
        case "S": return String(p.millisecond / 100)
        case "SS": return pad(p.millisecond / 10, 2)
        case "SSS": return pad(p.millisecond, 3)
        case "Z", "ZZ": return offset(date, separator: token == "Z" ? ":" : "")
        case "ZZZ":
            if date.hasUnknownTimeZone { return "" }
            return date.timeZone.abbreviation(for: date.foundationDate) ?? offset(date, separator: ":")
        case "X": return ArcadeValue.formatNumber((date.epochMilliseconds / 1000).rounded(.down))
        case "x": return ArcadeValue.formatNumber(date.epochMilliseconds)
        default: return token
        }
    }

    /// The zone's offset at the date, e.g. "-07:00" (or "-0700"); "" for the unknown zone.
    static func offset(_ date: ArcadeDate, separator: String) -> String {
        if date.hasUnknownTimeZone { return "" }
        let seconds = date.timeZone.secondsFromGMT(for: date.foundationDate)
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + pad(minutes / 60, 2) + separator + pad(minutes % 60, 2)
    }
}
