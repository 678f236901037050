import Foundation

/// `Filter(features, sql)` with `@name` variables. The where clause the source receives (one more entry of
/// `ArcadeFeatureQuery.whereClauses`, ANDed with the others) is the expression's text with each `@name` outside
/// quoted text replaced by the SQL literal of the Arcade variable `name` visible at the call:
/// - Text: in single quotes, a quote inside doubled (`O'Brien` → `'O''Brien'`);
/// - Number: its digits as `Text()` writes them (`10000`, `2.5`); NaN or infinity is a run error;
/// - Boolean: `1` or `0`; null: `NULL`;
/// - Date: `timestamp 'YYYY-MM-DD HH:MM:SS'` in UTC;
/// - Array: a parenthesised list of these literals, for `IN @codes` (`('A', 'B')`); an empty array is `(NULL)`.
/// Other values, and a name no variable has, are run errors. Nothing else in the text is changed.
enum FilterVariables {
    static func substitute(_ sql: String, call: ArcadeCall) throws -> String {
        let scalars = Array(sql.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        var inQuote = false
        while index < scalars.count {
            let c = scalars[index]
            if c == "'" { inQuote.toggle() }
            if c == "@", !inQuote {
                var end = index + 1
                while end < scalars.count, CharacterSet.alphanumerics.contains(scalars[end]) || scalars[end] == "_" { end += 1 }
                if end > index + 1 {
                    let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                    guard let value = call.context.variable(named: name) else {
                        throw call.failure("the SQL expression uses @\(name), but no variable \(name) is visible here")
                    }
                    out.append(contentsOf: try literal(value, name: name, call: call).unicodeScalars)
                    index = end
                    continue
                }
            }
            out.append(c)
            index += 1
        }
        return String(out)
    }

    static func literal(_ value: ArcadeValue, name: String, call: ArcadeCall) throws -> String {
        switch value {
        case .null: return "NULL"
        case .text(let t): return "'" + t.replacingOccurrences(of: "'", with: "''") + "'"
        case .boolean(let b): return b ? "1" : "0"
        case .number(let n):
            guard n.isFinite else { throw call.failure("@\(name) is \(ArcadeValue.formatNumber(n)), which SQL cannot compare") }
            return ArcadeValue.formatNumber(n)
        case .date(let d):
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = ArcadeDate.utc
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            return "timestamp '" + formatter.string(from: d.foundationDate) + "'"
        case .array(let array):
            if array.values.isEmpty { return "(NULL)" }
            return "(" + (try array.values.map { try literal($0, name: name, call: call) }).joined(separator: ", ") + ")"
        default:
            throw call.failure("@\(name) is a \(value.typeName), which cannot be written into SQL")
        }
    }
}
