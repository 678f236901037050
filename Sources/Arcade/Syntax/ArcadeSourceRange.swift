/// Where a piece of an Arcade expression is: offsets in Unicode scalars into the expression's text (`start`
/// inclusive, `end` exclusive) and the 1-based line and column (in scalars) of `start`.
///
/// Offsets are in Unicode scalars, not UTF-16 units or bytes, so the linter can map them to positions in a JSON
/// file through the string's escapes.
public struct ArcadeSourceRange: Equatable, Hashable, Sendable {
    public var start: Int
    public var end: Int
    public var line: Int
    public var column: Int

    public init(start: Int, end: Int, line: Int, column: Int) {
        self.start = start
        self.end = end
        self.line = line
        self.column = column
    }

    /// From the start of `self` to the end of `other`.
    public func through(_ other: ArcadeSourceRange) -> ArcadeSourceRange {
        ArcadeSourceRange(start: start, end: max(end, other.end), line: line, column: column)
    }

    public var length: Int { end - start }
}
