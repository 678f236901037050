import Foundation

/// The Date category of the function reference (https://developers.arcgis.com/arcade/function-reference/date_functions/).
/// Dates are an instant and a zone; their parts are read in that zone. New dates take the evaluation's default zone
/// (`call.context.defaultTimeZone`, UTC in MapRules); `Now()` is `call.context.now`, fixed for one evaluation.
/// `DateOnly` and `Time` are not here: they need value types of their own (see docs/arcade.md).
extension ArcadeFunctionLibrary {
    static let dateFunctions: [ArcadeFunctionDefinition] = creationFunctions + partFunctions + zoneFunctions
        + arithmeticFunctions

    static let creationFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Date", arity: 0...8) { call in
            let zone = call.context.defaultTimeZone
            switch call.count {
            case 0: return .date(ArcadeDate(epochMilliseconds: call.context.now, timeZone: zone))
            case 1:
                if case .text(let text) = call[0] {
                    return ISODateText.parse(text, defaultZone: zone).map { .date($0) } ?? .null
                }
                if call[0].isNull { return .null }
                guard let date = try call.dateArgument(0) else { return .null }
                return .date(date)
            case 2:
                throw call.failure("takes no argument, an epoch number, an ISO 8601 text, or year, month and day")
            default:
                return .date(try dateFromParts(call))
            }
        },
        ArcadeFunctionDefinition("Now", arity: 0) { call in
            .date(ArcadeDate(epochMilliseconds: call.context.now, timeZone: call.context.defaultTimeZone))
        },
        ArcadeFunctionDefinition("Timestamp", arity: 0) { call in
            .date(ArcadeDate(epochMilliseconds: call.context.now, timeZone: ArcadeDate.utc))
        },
        ArcadeFunctionDefinition("Today", arity: 0) { call in
            let now = ArcadeDate(epochMilliseconds: call.context.now, timeZone: call.context.defaultTimeZone)
            let p = DateParts(now)
            guard let midnight = DateParts.epochMilliseconds(year: p.year, month: p.month, day: p.day, zone: now.timeZone)
            else { throw call.failure("the current date is out of range") }
            return .date(ArcadeDate(epochMilliseconds: midnight, timeZone: now.timeZone))
        },
    ]

    /// `Date(year, month (0-11), day, hour?, minute?, second?, millisecond?, timeZone?)`; parts outside their range
    /// roll over as in JavaScript.
    static func dateFromParts(_ call: ArcadeCall) throws -> ArcadeDate {
        var zone = call.context.defaultTimeZone
        var numbers: [Double] = []
        for index in 0..<min(call.count, 7) {
            if index == call.count - 1, index >= 3, case .text = call[index] {
                zone = try call.timeZoneArgument(index)
                break
            }
            numbers.append(call[index].isNull && index >= 3 ? 0 : call[index].numberValue)
        }
        if call.count == 8 { zone = try call.timeZoneArgument(7) }
        let names = ["year", "month", "day", "hour", "minute", "second", "millisecond"]
        for (index, value) in numbers.enumerated() where !value.isFinite || abs(value) > 1e9 {
            throw call.failure("\(names[index]) must be a finite number of reasonable size, not \(ArcadeValue.formatNumber(value))")
        }
        while numbers.count < 7 { numbers.append(0) }
        let whole = numbers.map { Int($0.rounded(.towardZero)) }
        guard abs(whole[0]) <= 275_000,
              let epoch = DateParts.epochMilliseconds(year: whole[0], month: whole[1] + 1, day: whole[2], hour: whole[3],
                                                      minute: whole[4], second: whole[5],
                                                      millisecond: numbers[6].rounded(.towardZero), zone: zone),
              abs(epoch) <= DateParts.maximumEpochMilliseconds
        else { throw call.failure("the date is outside the range Arcade dates can hold") }
        return ArcadeDate(epochMilliseconds: epoch, timeZone: zone)
    }

    /// A function of one date giving a number read from its parts; null for null.
    static func datePart(_ name: String, _ read: @escaping (DateParts, ArcadeDate) -> Double) -> ArcadeFunctionDefinition {
        ArcadeFunctionDefinition(name, arity: 1) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            guard date.epochMilliseconds.isFinite else { return .number(.nan) }
            return .number(read(DateParts(date), date))
        }
    }

    static let partFunctions: [ArcadeFunctionDefinition] = [
        datePart("Year") { p, _ in Double(p.year) },
        datePart("Month") { p, _ in Double(p.month - 1) },
        datePart("Day") { p, _ in Double(p.day) },
        datePart("Hour") { p, _ in Double(p.hour) },
        datePart("Minute") { p, _ in Double(p.minute) },
        datePart("Second") { p, _ in Double(p.second) },
        datePart("Millisecond") { p, _ in Double(p.millisecond) },
        datePart("Weekday") { p, _ in Double(p.weekday - 1) },
        datePart("ISOWeekday") { p, _ in Double(p.weekday == 1 ? 7 : p.weekday - 1) },
        datePart("ISOMonth") { p, _ in Double(p.month) },
        datePart("ISOWeek") { _, d in Double(isoWeek(d).week) },
        datePart("ISOYear") { _, d in Double(isoWeek(d).year) },
        ArcadeFunctionDefinition("Week", arity: 1...2) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            let startDay = try call.wholeNumberArgument(1, named: "startDay", default: 0)
            guard (0...6).contains(startDay) else { throw call.failure("startDay must be 0 (Sunday) to 6 (Saturday)") }
            let p = DateParts(date)
            // Week 0 runs from 1 January to the day before the first startDay; each startDay begins the next.
            let firstWeekday = ((p.weekday - 1) - (p.dayOfYear - 1) % 7 + 7) % 7   // 0 Sunday, of 1 January
            let offset = (firstWeekday - startDay + 7) % 7
            return .number(Double((p.dayOfYear - 1 + offset) / 7))
        },
    ]

    /// The ISO 8601 week (1-53) and its year: weeks start on Monday, week 1 holds the year's first Thursday.
    static func isoWeek(_ date: ArcadeDate) -> (week: Int, year: Int) {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = date.timeZone
        let c = calendar.dateComponents([.weekOfYear, .yearForWeekOfYear], from: date.foundationDate)
        return (c.weekOfYear ?? 1, c.yearForWeekOfYear ?? DateParts(date).year)
    }

    static let zoneFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("ChangeTimeZone", arity: 2) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            return .date(try changeTimeZone(date, to: call.timeZoneArgument(1), call: call))
        },
        ArcadeFunctionDefinition("ToLocal", arity: 1) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            return .date(try changeTimeZone(date, to: call.context.defaultTimeZone, call: call))
        },
        ArcadeFunctionDefinition("ToUTC", arity: 1) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            return .date(try changeTimeZone(date, to: ArcadeDate.utc, call: call))
        },
        ArcadeFunctionDefinition("TimeZone", arity: 1) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            return .text(ArcadeTimeZones.name(of: date))
        },
        ArcadeFunctionDefinition("TimeZoneOffset", arity: 1) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            if date.hasUnknownTimeZone { return .number(0) }
            return .number(Double(date.timeZone.secondsFromGMT(for: date.foundationDate) / 60))
        },
    ]

    /// The same instant shown in another zone; a date in the unknown zone keeps its wall-clock time instead.
    static func changeTimeZone(_ date: ArcadeDate, to zone: TimeZone, call: ArcadeCall) throws -> ArcadeDate {
        guard date.hasUnknownTimeZone, date.epochMilliseconds.isFinite else {
            return ArcadeDate(epochMilliseconds: date.epochMilliseconds, timeZone: zone)
        }
        let p = DateParts(date)
        guard let epoch = DateParts.epochMilliseconds(year: p.year, month: p.month, day: p.day, hour: p.hour,
                                                      minute: p.minute, second: p.second,
                                                      millisecond: Double(p.millisecond), zone: zone)
        else { throw call.failure("the date is out of range") }
        return ArcadeDate(epochMilliseconds: epoch, timeZone: zone)
    }
}
