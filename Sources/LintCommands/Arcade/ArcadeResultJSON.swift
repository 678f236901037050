import Arcade

/// The JSON `maprules arcade --format json` prints: `{"value", "type"}` (dates as ISO 8601 in UTC with
/// milliseconds) or `{"error": {"ruleId", "message", "line", "column"}}`.
public enum ArcadeResultJSON {
    public static func value(_ value: ArcadeValue) -> String {
        "{\"value\":\(inUTC(value).jsonText),\"type\":\(quote(value.typeName))}"
    }

    public static func error(_ error: ArcadeError) -> String {
        "{\"error\":{\"ruleId\":\(quote(error.ruleId)),\"message\":\(quote(error.message)),\"line\":\(error.line),\"column\":\(error.column)}}"
    }

    static func quote(_ text: String) -> String { ArcadeValue.text(text).jsonText }

    /// Dates shown in UTC (the instant is the same).
    static func inUTC(_ value: ArcadeValue) -> ArcadeValue {
        guard case .date(let date) = value else { return value }
        return .date(ArcadeDate(epochMilliseconds: date.epochMilliseconds))
    }
}
