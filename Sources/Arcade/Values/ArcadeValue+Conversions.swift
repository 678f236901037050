import Foundation

/// Arcade's implicit conversions (the language reference, "Type casting",
/// https://developers.arcgis.com/arcade/guide/type-casting/): what `Number(x)`, `Text(x)` and `Boolean(x)` answer
/// without a format, and what operators and functions use when they need a number, text or boolean.
extension ArcadeValue {
    /// `Number(value)`: text is parsed as a decimal number (leading and trailing white space ignored, "" is 0,
    /// "Infinity" and "-Infinity" as written; anything else that is not a number is NaN), booleans are 1 or 0,
    /// dates their epoch milliseconds, null 0; everything else NaN.
    public var numberValue: Double {
        switch self {
        case .number(let n): return n
        case .boolean(let b): return b ? 1 : 0
        case .null: return 0
        case .date(let d): return d.epochMilliseconds
        case .text(let t): return ArcadeValue.parseNumber(t)
        default: return .nan
        }
    }

    static func parseNumber(_ text: String) -> Double {
        // Bounded: a number is never longer than a few hundred characters; a 10 MB text is not a number.
        if text.utf8.count > 4096 {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.utf8.count > 4096 { return .nan }
            return parseNumber(trimmed)
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return 0 }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        // Swift's Double(String) also takes "nan", "inf" and hexadecimal floats, which Arcade does not.
        let allowed = Set("0123456789+-.eE")
        guard trimmed.allSatisfy({ allowed.contains($0) }), let value = Double(trimmed) else { return .nan }
        return value
    }

    /// `Boolean(value)`: true for `true`, non-zero numbers (not NaN), the text "true" (any case); false otherwise.
    public var booleanValue: Bool {
        switch self {
        case .boolean(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .text(let t): return t.count == 4 && t.lowercased() == "true"
        default: return false
        }
    }

    /// `Text(value)` without a format: numbers as JavaScript writes them (`1`, `0.5`, `1e+21`, `1e-7`), dates
    /// in ISO 8601 with milliseconds and their zone's offset (`2019-04-21T00:00:00.000Z` in UTC,
    /// `2019-04-21T02:00:00.000+02:00` elsewhere), arrays and dictionaries as JSON, null as "".
    public var textValue: String {
        switch self {
        case .null: return ""
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return ArcadeValue.formatNumber(n)
        case .text(let t): return t
        case .date(let d): return ArcadeValue.isoText(d)
        case .array, .dictionary, .feature, .geometry: return jsonText
        case .featureSet: return "FeatureSet"
        case .function(let f): return "Function " + f.name
        case .featureSetCollection: return "FeatureSetCollection"
        }
    }

    /// Numbers as JavaScript's `Number.prototype.toString` writes them (Arcade runs on JavaScript): the shortest
    /// digits that read back to the same number, in plain notation from 1e-7 to 1e21 and in exponent notation
    /// (`1.5e+21`, `1e-7`) outside; `NaN`, `Infinity`, `-Infinity`; negative zero as `0`.
    static func formatNumber(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        if n == 0 { return "0" }
        let (digits, exponent) = shortestDigits(abs(n))
        let sign = n < 0 ? "-" : ""
        // ECMAScript Number::toString: value = 0.d1d2...dk × 10^point, with point = exponent + 1.
        let k = digits.count
        let point = exponent + 1
        if k <= point && point <= 21 {
            return sign + digits + String(repeating: "0", count: point - k)
        }
        if 0 < point && point <= 21 {
            let index = digits.index(digits.startIndex, offsetBy: point)
            return sign + digits[..<index] + "." + digits[index...]
        }
        if -6 < point && point <= 0 {
            return sign + "0." + String(repeating: "0", count: -point) + digits
        }
        let e = point - 1
        let exponentText = e < 0 ? "-\(-e)" : "+\(e)"
        if k == 1 { return sign + digits + "e" + exponentText }
        return sign + String(digits.prefix(1)) + "." + String(digits.dropFirst()) + "e" + exponentText
    }

    /// The shortest round-trip decimal digits of a positive finite number (no leading or trailing zeros) and the
    /// decimal exponent of the first digit, read from Swift's shortest representation.
    static func shortestDigits(_ n: Double) -> (digits: String, exponent: Int) {
        let text = "\(n)"   // e.g. "1234.5", "1e-07", "1.2345e+20", "5e-324"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var integerPart = mantissa
        var fractionPart: Substring = ""
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fractionPart = mantissa[mantissa.index(after: dot)...]
        }
        var all = String(integerPart) + String(fractionPart)
        var firstExponent = exponent + integerPart.count - 1
        while all.hasPrefix("0") && all.count > 1 {
            all.removeFirst()
            firstExponent -= 1
        }
        while all.hasSuffix("0") && all.count > 1 { all.removeLast() }
        return (all, firstExponent)
    }

    /// A date in ISO 8601 with milliseconds and its zone's offset, as `Text(date)` shows it:
    /// "2019-04-21T00:00:00.000Z" in UTC, "2019-04-21T02:00:00.000+02:00" elsewhere, no offset in the "unknown"
    /// zone.
    static func isoText(_ d: ArcadeDate) -> String {
        // JavaScript's range: ±8.64e15 ms; beyond it a date is invalid.
        guard d.epochMilliseconds.isFinite, abs(d.epochMilliseconds) <= 8.64e15 else { return "Invalid Date" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = d.timeZone
        let date = d.foundationDate
        let parts = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute, .second], from: date)
        var year = parts.year ?? 0
        if parts.era == 0 { year = 1 - year }
        let millisecond = Int((d.epochMilliseconds - (d.epochMilliseconds / 1000).rounded(.down) * 1000).rounded(.down))
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let yearText = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(year, 6)
        let offsetSeconds = d.timeZone.secondsFromGMT(for: date)
        let zone: String
        if d.timeZone.identifier == ArcadeDate.unknownTimeZone.identifier {
            zone = ""   // "unknown" zone (ChangeTimeZone): the wall-clock time, no offset
        } else if d.isUTC {
            zone = "Z"
        } else {
            let minutes = abs(offsetSeconds) / 60
            zone = (offsetSeconds < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
        }
        return "\(yearText)-\(pad(parts.month ?? 1, 2))-\(pad(parts.day ?? 1, 2))T\(pad(parts.hour ?? 0, 2)):"
            + "\(pad(parts.minute ?? 0, 2)):\(pad(parts.second ?? 0, 2)).\(pad(millisecond, 3))\(zone)"
    }

    /// The value as JSON text (`Text(dictionary)`, `Text(array)`). An array or dictionary that holds itself is
    /// written `null` where it repeats (JSON has no cycles), and the text stops growing at `JSONWriter.limit` (4 MB)
    /// characters, so a self-holding or exponentially shared value can neither overflow the stack nor exhaust memory.
    public var jsonText: String {
        let writer = JSONWriter()
        writer.write(self)
        return writer.text
    }

    /// Writes values as JSON, remembering the containers on the current path and the size written.
    final class JSONWriter {
        static let limit = 4 * 1024 * 1024
        private(set) var text = ""
        private var path: Set<ObjectIdentifier> = []

        private var full: Bool { text.utf8.count >= JSONWriter.limit }

        func write(_ value: ArcadeValue) {
            guard !full else { return }
            switch value {
            case .null: text += "null"
            case .text(let t): text += ArcadeValue.quoteJSON(t)
            case .number(let n): text += n.isFinite ? ArcadeValue.formatNumber(n) : "null"
            case .boolean, .featureSet, .function, .featureSetCollection: text += value.textValue
            case .date(let d): text += ArcadeValue.quoteJSON(ArcadeValue.isoText(d))
            case .array(let a):
                container(a) {
                    text += "["
                    for (i, element) in a.values.enumerated() {
                        if i > 0 { text += "," }
                        write(element)
                        if full { break }
                    }
                    text += "]"
                }
            case .dictionary(let d):
                container(d) {
                    text += "{"
                    for (i, pair) in d.pairs.enumerated() {
                        if i > 0 { text += "," }
                        text += ArcadeValue.quoteJSON(pair.key) + ":"
                        write(pair.value)
                        if full { break }
                    }
                    text += "}"
                }
            case .feature(let f):
                container(f) {
                    text += "{\"geometry\":" + (f.geometry.map { ArcadeValue.geometryJSON($0) } ?? "null") + ",\"attributes\":"
                    write(.dictionary(f.attributes))
                    text += "}"
                }
            case .geometry(let g): text += ArcadeValue.geometryJSON(g)
            }
        }

        private func container(_ object: AnyObject, _ body: () -> Void) {
            let id = ObjectIdentifier(object)
            // Deeper than any JSON a person writes: also bounds the recursion of values nested without a cycle.
            guard !path.contains(id), path.count < 256 else { text += "null"; return }
            path.insert(id)
            body()
            path.remove(id)
        }
    }

    static func quoteJSON(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func geometryJSON(_ g: ArcadeGeometry) -> String {
        func sr(_ wkid: Int?) -> String { wkid.map { ",\"spatialReference\":{\"wkid\":\($0)}" } ?? "" }
        func point(_ p: ArcadePoint) -> String { "[\(formatNumber(p.x)),\(formatNumber(p.y))]" }
        func path(_ ps: [ArcadePoint]) -> String { "[" + ps.map(point).joined(separator: ",") + "]" }
        switch g {
        case .point(let p): return "{\"x\":\(formatNumber(p.x)),\"y\":\(formatNumber(p.y))\(sr(p.wkid))}"
        case .multipoint(let ps, let wkid): return "{\"points\":\(path(ps))\(sr(wkid))}"
        case .polyline(let paths, let wkid): return "{\"paths\":[\(paths.map(path).joined(separator: ","))]\(sr(wkid))}"
        case .polygon(let rings, let wkid): return "{\"rings\":[\(rings.map(path).joined(separator: ","))]\(sr(wkid))}"
        case .extent(let a, let b, let c, let d, let wkid):
            return "{\"xmin\":\(formatNumber(a)),\"ymin\":\(formatNumber(b)),\"xmax\":\(formatNumber(c)),\"ymax\":\(formatNumber(d))\(sr(wkid))}"
        }
    }
}

extension ArcadeDate {
    /// The zone Arcade calls "unknown" (`Date(2011, 10, 11, 8, 0, 0, 0, 'unknown')`): the date's parts are its
    /// wall-clock time and no offset is shown. Stored as the zone "Etc/Greenwich" (offset 0), which no other zone
    /// name maps to (`ChangeTimeZone(d, 'Greenwich')` is UTC).
    public static let unknownTimeZone = TimeZone(identifier: "Etc/Greenwich") ?? TimeZone(secondsFromGMT: 1)!

    /// Whether the date's zone is UTC (Foundation on Linux names `TimeZone(identifier: "UTC")` "GMT").
    public var isUTC: Bool { ["UTC", "GMT", ArcadeDate.utc.identifier].contains(timeZone.identifier) }

    /// Whether the date's zone is "unknown".
    public var hasUnknownTimeZone: Bool { timeZone.identifier == ArcadeDate.unknownTimeZone.identifier }
}
