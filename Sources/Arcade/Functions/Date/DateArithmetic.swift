import Foundation

/// `DateAdd` and `DateDiff` (https://developers.arcgis.com/arcade/function-reference/date_functions/#dateadd).
/// Arcade computes them with Luxon: milliseconds to hours are fixed lengths; days, weeks, months and years are
/// calendar steps in the date's zone (1 month after 31 January is the last day of February), and a fraction of a
/// calendar unit counts as 30 days a month, 365 days a year, 7 days a week, 24 hours a day.
extension ArcadeFunctionLibrary {
    enum DateUnit: String, CaseIterable {
        case milliseconds, seconds, minutes, hours, days, weeks, months, years

        /// "days", "day", "Days" (and Luxon's "millisecond"/"ms").
        init?(name: String) {
            var key = name.lowercased()
            if key == "ms" { key = "milliseconds" }
            if !key.hasSuffix("s") { key += "s" }
            self.init(rawValue: key)
        }

        /// Fixed length in milliseconds (calendar units: the casual length used for fractions).
        var milliseconds: Double {
            switch self {
            case .milliseconds: return 1
            case .seconds: return 1000
            case .minutes: return 60_000
            case .hours: return 3_600_000
            case .days: return 86_400_000
            case .weeks: return 7 * 86_400_000
            case .months: return 30 * 86_400_000
            case .years: return 365 * 86_400_000
            }
        }
    }

    static func unitArgument(_ call: ArcadeCall, _ index: Int) throws -> DateUnit {
        if call[index].isNull { return .milliseconds }
        let name = call.textArgument(index)
        guard let unit = DateUnit(name: name) else {
            throw call.failure("unknown unit '\(name.prefix(40))'; use one of "
                + DateUnit.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))
        }
        return unit
    }

    static let arithmeticFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("DateAdd", arity: 2...3) { call in
            guard let date = try call.dateArgument(0) else { return .null }
            let amount = call[1].numberValue
            let unit = try unitArgument(call, 2)
            guard amount.isFinite, abs(amount * unit.milliseconds) <= 2 * DateParts.maximumEpochMilliseconds else {
                throw call.failure("cannot add \(ArcadeValue.formatNumber(amount)) \(unit.rawValue) to a date")
            }
            guard let result = dateAdding(amount, unit, to: date), abs(result) <= DateParts.maximumEpochMilliseconds else {
                throw call.failure("the result is outside the range Arcade dates can hold")
            }
            return .date(ArcadeDate(epochMilliseconds: result, timeZone: date.timeZone))
        },
        ArcadeFunctionDefinition("DateDiff", arity: 2...4) { call in
            guard var first = try call.dateArgument(0), var second = try call.dateArgument(1) else { return .null }
            let unit = try unitArgument(call, 2)
            if !call[3].isNull {
                let zone = try call.timeZoneArgument(3)
                first.timeZone = zone
                second.timeZone = zone
            }
            return .number(dateDifference(first, second, unit))
        },
    ]

    /// The instant `amount` units after `date`; nil when out of range.
    static func dateAdding(_ amount: Double, _ unit: DateUnit, to date: ArcadeDate) -> Double? {
        let whole = amount.rounded(.towardZero)
        switch unit {
        case .milliseconds, .seconds, .minutes, .hours:
            return date.epochMilliseconds + amount * unit.milliseconds
        case .days, .weeks, .months, .years:
            let p = DateParts(date)
            var year = p.year, month = p.month, day = p.day
            let steps = Int(whole)
            switch unit {
            case .years: year += steps
            case .months:
                let index = month - 1 + steps
                year += Int((Double(index) / 12).rounded(.down))
                month = ((index % 12) + 12) % 12 + 1
            default: break
            }
            if unit == .years || unit == .months {
                day = min(day, daysIn(year: year, month: month))
            }
            if unit == .days { day += steps }
            if unit == .weeks { day += steps * 7 }
            guard abs(year) <= 300_000, let moved = DateParts.epochMilliseconds(
                year: year, month: month, day: day, hour: p.hour, minute: p.minute, second: p.second,
                millisecond: Double(p.millisecond), zone: date.timeZone)
            else { return nil }
            return moved + (amount - whole) * unit.milliseconds
        }
    }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `first - second` in `unit`: fixed units exactly; calendar units as whole calendar steps from the earlier
    /// date plus the rest as a fraction (Luxon's `diff`).
    static func dateDifference(_ first: ArcadeDate, _ second: ArcadeDate, _ unit: DateUnit) -> Double {
        let delta = first.epochMilliseconds - second.epochMilliseconds
        guard delta.isFinite else { return .nan }
        let limit = DateParts.maximumEpochMilliseconds
        if unit.milliseconds >= DateUnit.days.milliseconds,
           abs(first.epochMilliseconds) > limit || abs(second.epochMilliseconds) > limit { return .nan }
        switch unit {
        case .milliseconds, .seconds, .minutes, .hours: return delta / unit.milliseconds
        case .days, .weeks, .months, .years:
            let later = delta >= 0 ? first : second
            var earlier = delta >= 0 ? second : first
            earlier.timeZone = first.timeZone
            let a = DateParts(earlier), b = DateParts(ArcadeDate(epochMilliseconds: later.epochMilliseconds, timeZone: first.timeZone))
            var steps: Int
            switch unit {
            case .years: steps = b.year - a.year
            case .months: steps = (b.year - a.year) * 12 + (b.month - a.month)
            default:
                let days = Int(((later.epochMilliseconds - earlier.epochMilliseconds) / 86_400_000).rounded(.down))
                steps = unit == .weeks ? days / 7 : days
            }
            func moved(_ n: Int) -> Double {
                let amount = Double(n)
                return dateAdding(amount, unit, to: earlier) ?? .infinity
            }
            var cursor = moved(steps)
            while steps > 0 && cursor > later.epochMilliseconds { steps -= 1; cursor = moved(steps) }
            while moved(steps + 1) <= later.epochMilliseconds { steps += 1; cursor = moved(steps) }
            let result = Double(steps) + (later.epochMilliseconds - cursor) / unit.milliseconds
            return delta >= 0 ? result : -result
        }
    }
}
