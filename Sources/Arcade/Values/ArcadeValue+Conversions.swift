import Foundation

/// Arcade's implicit conversions (the language reference, "Type casting"): what `Number(x)`, `Text(x)` and
/// `Boolean(x)` answer without a format, and what operators and functions use when they need a number, text or
/// boolean.
extension ArcadeValue {
    /// `Number(value)`: text is parsed (leading and trailing spaces ignored; "" is 0; anything else that is not a
    /// number is NaN), booleans are 1 or 0, dates their epoch milliseconds, null 0; everything else NaN.
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
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return 0 }
        // Swift's Double(String) also takes "nan", "inf" and hexadecimal floats, which Arcade does not.
        let allowed = Set("0123456789+-.eE")
        guard trimmed.allSatisfy({ allowed.contains($0) }), let value = Double(trimmed) else { return .nan }
        return value
    }

    /// `Boolean(value)`: true for `true`, non-zero numbers (not NaN), the text "true" (any case) ; false otherwise.
    public var booleanValue: Bool {
        switch self {
        case .boolean(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .text(let t): return t.lowercased() == "true"
        default: return false
        }
    }

    /// `Text(value)` without a format.
    public var textValue: String {
        switch self {
        case .null: return ""
        case .boolean(let b): return b ? "true" : "false"
        case .number(let n): return ArcadeValue.formatNumber(n)
        case .text(let t): return t
        case .date(let d): return ArcadeValue.isoText(d)
        case .array(let a): return "[" + a.values.map { $0.jsonText }.joined(separator: ",") + "]"
        case .dictionary, .feature, .geometry: return jsonText
        case .featureSet: return "FeatureSet"
        case .function(let f): return "Function " + f.name
        case .featureSetCollection: return "FeatureSetCollection"
        }
    }

    /// Numbers as Arcade writes them: integers without a decimal point, others with the shortest digits that
    /// read back to the same number.
    static func formatNumber(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        if n == n.rounded(), abs(n) < 1e21 { return String(format: "%.0f", n) }
        return "\(n)"
    }

    /// A date in ISO 8601 with its zone's offset, as `Text(date)` shows it: "2019-04-21T00:00:00Z" in UTC,
    /// "2019-04-21T02:00:00+02:00" elsewhere.
    static func isoText(_ d: ArcadeDate) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = d.timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: d.foundationDate)
    }

    /// The value as JSON text (`Text(dictionary)`, `Text(array)`).
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .text(let t): return ArcadeValue.quoteJSON(t)
        case .number(let n): return n.isFinite ? ArcadeValue.formatNumber(n) : "null"
        case .boolean, .featureSet, .function, .featureSetCollection: return textValue
        case .date(let d): return ArcadeValue.quoteJSON(ArcadeValue.isoText(d))
        case .array(let a): return "[" + a.values.map { $0.jsonText }.joined(separator: ",") + "]"
        case .dictionary(let d):
            return "{" + d.pairs.map { ArcadeValue.quoteJSON($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        case .feature(let f):
            var text = "{\"geometry\":" + (f.geometry.map { ArcadeValue.geometry($0).jsonText } ?? "null")
            text += ",\"attributes\":" + ArcadeValue.dictionary(f.attributes).jsonText + "}"
            return text
        case .geometry(let g): return ArcadeValue.geometryJSON(g)
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
