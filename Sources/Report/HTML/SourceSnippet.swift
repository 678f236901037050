/// A few source lines around a diagnostic's position, the position marked, for the HTML report.
///
/// Columns are 1-based and count Unicode scalars, as the linter's positions do. Long lines (a minified web map
/// is one line of megabytes) are cut to a window around the column, with an ellipsis on each cut side.
struct SourceSnippet: Sendable {
    struct Line: Sendable {
        var number: Int
        var before: String
        var marked: String
        var after: String
        var isTarget: Bool
    }

    var lines: [Line]

    /// Lines kept before and after the diagnostic's line.
    static let context = 2
    /// Scalars shown on each side of the column in a long line.
    static let window = 70

    /// The lines of a file, split once for all of its diagnostics (at `\n` and `\r\n`, as the linter counts lines).
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    /// The snippet around `line`:`column` of a file split by ``lines(of:)``, or nil when the line is not in it.
    init?(lines text: [Substring], line: Int, column: Int) {
        guard line >= 1, line <= text.count else { return nil }
        let first = max(1, line - Self.context)
        let last = min(text.count, line + Self.context)
        lines = (first...last).map { number in
            Self.line(text[number - 1], number: number, column: number == line ? column : nil)
        }
    }

    private static func line(_ source: Substring, number: Int, column: Int?) -> Line {
        let scalars = Array(source.unicodeScalars.drop(while: { $0 == "\u{FEFF}" && number == 1 }))
        // A target column past the end marks the place after the last character.
        let markAt = column.map { min(max($0 - 1, 0), scalars.count) }
        let center = markAt ?? 0
        let lower = scalars.count > 2 * Self.window + 20 ? max(0, center - Self.window) : 0
        let upper = scalars.count > 2 * Self.window + 20 ? min(scalars.count, max(center, lower) + Self.window) : scalars.count
        func text(_ range: Range<Int>) -> String {
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[range].map { $0 == "\t" ? " " : $0 })
            return TextSanitizing.visibleControlCharacters(String(out))
        }
        let prefix = lower > 0 ? "…" : ""
        let suffix = upper < scalars.count ? "…" : ""
        guard let markAt, column != nil else {
            return Line(number: number, before: prefix + text(lower..<upper) + suffix, marked: "", after: "", isTarget: false)
        }
        let markEnd = min(markAt + 1, scalars.count)
        let marked = markAt < scalars.count ? text(markAt..<markEnd) : " "
        return Line(number: number, before: prefix + text(lower..<markAt), marked: marked,
                    after: text(markEnd..<max(markEnd, upper)) + suffix, isTarget: true)
    }
}
