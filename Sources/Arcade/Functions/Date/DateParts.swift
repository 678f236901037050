import Foundation

/// The calendar parts of a date in its own zone, and the reverse: the instant of a wall-clock time in a zone.
/// Every date function reads parts through here, so `Year`, `Hour`, `Text(d, 'HH:mm')` agree.
struct DateParts {
    var year: Int, month: Int, day: Int            // month 1-12
    var hour: Int, minute: Int, second: Int, millisecond: Int
    /// 1 = Sunday ... 7 = Saturday (Foundation's numbering).
    var weekday: Int
    var dayOfYear: Int                              // 1-366

    /// Dates Arcade can hold: JavaScript's range, ±8.64e15 ms (about ±275,000 years).
    static let maximumEpochMilliseconds = 8.64e15

    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    init(_ date: ArcadeDate) {
        // Outside JavaScript's date range (a stored value of 1e300) the parts are those of the range's end.
        let limit = DateParts.maximumEpochMilliseconds
        let milliseconds = date.epochMilliseconds.isFinite ? min(max(date.epochMilliseconds, -limit), limit) : 0
        let seconds = (milliseconds / 1000).rounded(.down)
        let instant = Date(timeIntervalSince1970: seconds)
        let calendar = DateParts.calendar(date.timeZone)
        let c = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute, .second, .weekday], from: instant)
        year = (c.era == 0 ? 1 - (c.year ?? 1) : (c.year ?? 1970))
        month = c.month ?? 1
        day = c.day ?? 1
        hour = c.hour ?? 0
        minute = c.minute ?? 0
        second = c.second ?? 0
        millisecond = Int(milliseconds - seconds * 1000)
        weekday = c.weekday ?? 1
        dayOfYear = calendar.ordinality(of: .day, in: .year, for: instant) ?? 1
    }

    /// The instant (epoch milliseconds) of a wall-clock time in `zone`. Out-of-range parts roll over as in
    /// JavaScript (`Date(2020, 12, 1)` is 1 January 2021); the milliseconds are added as given.
    static func epochMilliseconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                                  millisecond: Double = 0, zone: TimeZone) -> Double? {
        // Normalise the month into the year first (Foundation handles day/hour/minute overflow itself).
        let monthIndex = month - 1
        let yearCarry = Int((Double(monthIndex) / 12).rounded(.down))
        var components = DateComponents()
        components.year = year + yearCarry
        components.month = monthIndex - yearCarry * 12 + 1
        components.day = 1
        if components.year! <= 0 {
            components.era = 0
            components.year = 1 - components.year!
        }
        let calendar = calendar(zone)
        guard let firstOfMonth = calendar.date(from: components) else { return nil }
        let daysInMonth = calendar.range(of: .day, in: .month, for: firstOfMonth)?.count ?? 28
        if (1...daysInMonth).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) {
            // In range: the wall-clock time itself, so a time on a daylight-saving day keeps its hour.
            components.day = day
            components.hour = hour
            components.minute = minute
            components.second = second
            guard let instant = calendar.date(from: components) else { return nil }
            return (instant.timeIntervalSince1970 * 1000).rounded() + millisecond
        }
        var offset = DateComponents()
        offset.day = day - 1
        offset.hour = hour
        offset.minute = minute
        offset.second = second
        guard let instant = calendar.date(byAdding: offset, to: firstOfMonth) else { return nil }
        return (instant.timeIntervalSince1970 * 1000).rounded() + millisecond
    }
}
