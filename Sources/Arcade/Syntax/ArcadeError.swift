/// An error of an Arcade expression: a syntax error, a run error, a bound reached or a function MapRules does
/// not evaluate. `line` and `column` are 1-based in the expression's text (columns in Unicode scalars); `offset`
/// is the Unicode-scalar offset of the place and `length` how many scalars it covers (at least 1 when known).
public struct ArcadeError: Error, Equatable, CustomStringConvertible, Sendable {
    /// "arcade/syntax", "arcade/unknown-function", "arcade/runtime-error", "arcade/too-long" or
    /// "arcade/unsupported-function".
    public let ruleId: String
    public let message: String
    public let line: Int
    public let column: Int
    public let offset: Int
    public let length: Int

    public init(ruleId: String, message: String, line: Int, column: Int, offset: Int, length: Int = 1) {
        self.ruleId = ruleId
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.length = length
    }

    init(_ ruleId: String, _ message: String, at range: ArcadeSourceRange) {
        self.init(ruleId: ruleId, message: message, line: range.line, column: range.column, offset: range.start,
                  length: max(1, range.length))
    }

    public static let syntax = "arcade/syntax"
    public static let runtimeError = "arcade/runtime-error"
    public static let tooLong = "arcade/too-long"
    public static let unsupportedFunction = "arcade/unsupported-function"
    /// A call of a name that is no Arcade function and that the expression does not declare: found before it runs.
    public static let unknownFunction = "arcade/unknown-function"

    public var description: String { "\(ruleId) at line \(line), column \(column): \(message)" }
}
