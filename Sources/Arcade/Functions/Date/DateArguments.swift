import Foundation

/// How the date functions read their arguments and zones.
extension ArcadeCall {
    /// Argument `index` as a date: a date as is, an epoch number or ISO 8601 text converted in the default zone;
    /// nil for null. Anything else is a run error.
    func dateArgument(_ index: Int) throws -> ArcadeDate? {
        switch self[index] {
        case .null: return nil
        case .date(let date): return date
        case .number(let number):
            guard number.isFinite, abs(number) <= DateParts.maximumEpochMilliseconds else {
                throw failure("\(ArcadeValue.formatNumber(number)) is not a date")
            }
            return ArcadeDate(epochMilliseconds: number, timeZone: context.defaultTimeZone)
        case .text(let text):
            guard let date = ISODateText.parse(text, defaultZone: context.defaultTimeZone) else {
                throw failure("'\(text.prefix(60))' is not an ISO 8601 date")
            }
            return date
        default:
            throw failure("expected a date, got \(self[index].typeName)")
        }
    }

    /// A zone as Arcade names it: an IANA name ("America/New_York"), an offset ("+07:00", "-03"), "UTC",
    /// "system" and "default" (both the zone of the evaluation: UTC in MapRules unless the layer says otherwise),
    /// "unknown".
    func timeZoneArgument(_ index: Int) throws -> TimeZone {
        let name = textArgument(index).trimmingCharacters(in: .whitespaces)
        guard let zone = ArcadeTimeZones.zone(named: name, defaultZone: context.defaultTimeZone) else {
            throw failure("unknown time zone '\(name.prefix(60))'; use an IANA name such as 'America/New_York', an "
                + "offset such as '+07:00', or 'UTC', 'system', 'default', 'unknown'")
        }
        return zone
    }
}

enum ArcadeTimeZones {
    static func zone(named name: String, defaultZone: TimeZone) -> TimeZone? {
        switch name.lowercased() {
        case "utc", "gmt", "etc/utc", "etc/gmt", "z", "greenwich", "etc/greenwich", "etc/gmt-0", "etc/gmt+0":
            return ArcadeDate.utc
        case "system", "default", "local": return defaultZone
        case "unknown": return ArcadeDate.unknownTimeZone
        default: break
        }
        if let first = name.first, first == "+" || first == "-" {
            return offsetZone(name)
        }
        guard name.count <= 64, name.contains("/"), let zone = TimeZone(identifier: name) else { return nil }
        return zone
    }

    /// "+07:00", "-0330", "+07" as a fixed zone; an offset of zero is UTC.
    static func offsetZone(_ text: String) -> TimeZone? {
        let sign = text.first == "-" ? -1 : 1
        let digits = text.dropFirst().filter { $0 != ":" }
        guard (digits.count == 2 || digits.count == 4), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let hours = Int(digits.prefix(2)) ?? 0
        let minutes = digits.count == 4 ? Int(digits.suffix(2)) ?? 0 : 0
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = sign * (hours * 3600 + minutes * 60)
        return seconds == 0 ? ArcadeDate.utc : TimeZone(secondsFromGMT: seconds)
    }

    /// How `TimeZone(date)` names a zone: "UTC", "Unknown", "+07:00" for a fixed offset, else its IANA name.
    static func name(of date: ArcadeDate) -> String {
        if date.hasUnknownTimeZone { return "Unknown" }
        let identifier = date.timeZone.identifier
        if date.isUTC { return "UTC" }
        if identifier.hasPrefix("GMT+") || identifier.hasPrefix("GMT-") {
            return DatePattern.offset(date, separator: ":")
        }
        return identifier
    }
}
