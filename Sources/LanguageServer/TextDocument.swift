import Foundation
import WebMap

/// An open document's text, edited by `didChange` (whole or by ranges), with positions in LSP's units: lines
/// from 0 and characters counted in UTF-16 code units.
struct TextDocument {
    var uri: String
    var version: Int
    var text: String

    /// Applies one `contentChanges` entry: with a `range`, replaces that range; without, the whole text.
    mutating func apply(_ change: JSON) throws {
        guard let newText = change["text"]?.string else { throw LanguageServerError.invalidParams("a content change without text") }
        guard let range = change["range"], range.objectMembers != nil else {
            text = newText
            return
        }
        guard let range = DocumentRange(range) else {
            throw LanguageServerError.invalidParams("a content change with a malformed range")
        }
        let lower = index(of: range.start), upper = index(of: range.end)
        guard lower <= upper else { throw LanguageServerError.invalidParams("a content change whose range ends before it starts") }
        text.replaceSubrange(lower..<upper, with: newText)
    }

    /// The index of a position, clamped to the line's end and the text's end (as LSP asks). Lines are found on
    /// the UTF-8 bytes; only the position's own line is walked in UTF-16.
    func index(of position: DocumentPosition) -> String.Index {
        let utf8 = text.utf8
        var lineStart = utf8.startIndex
        var line = 0
        while line < position.line {
            guard let next = LineBreaks.line(in: utf8, from: lineStart).next else { return text.endIndex }
            lineStart = next
            line += 1
        }
        let lineEnd = LineBreaks.line(in: utf8, from: lineStart).end
        let utf16 = text.utf16
        return utf16.index(lineStart, offsetBy: max(position.character, 0), limitedBy: lineEnd) ?? lineEnd
    }
}

/// LSP's line breaks: `\n`, `\r\n` and a lone `\r` (old Mac OS files). The linter counts the same
/// (`SourceText`), so that a position means the same line on both sides.
enum LineBreaks {
    /// The line starting at `start`: where its text ends (before the break) and where the next line starts
    /// (nil for the last line).
    static func line(in utf8: String.UTF8View, from start: String.Index) -> (end: String.Index, next: String.Index?) {
        guard let found = utf8[start...].firstIndex(where: { $0 == 10 || $0 == 13 }) else { return (utf8.endIndex, nil) }
        let after = utf8.index(after: found)
        if utf8[found] == 13, after < utf8.endIndex, utf8[after] == 10 { return (found, utf8.index(after: after)) }
        return (found, after)
    }
}

/// Lines of a text for converting the linter's positions (1-based lines, columns in Unicode scalars) to LSP's
/// ranges (0-based lines, UTF-16 characters). Positions are converted in one pass per line, in order, so a
/// minified map (one line of megabytes) with many findings costs one walk of that line, not one per finding.
struct LineTable {
    private let lines: [Substring]
    /// The text starts with a byte order mark: the linter's columns do not count it, LSP's characters do.
    private let startsWithBOM: Bool

    /// Split on the UTF-8 bytes: splitting by `Character` runs grapheme breaking over the whole text (tens of
    /// milliseconds for a 2 MB map).
    init(_ text: String) {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        while true {
            let (end, next) = LineBreaks.line(in: utf8, from: start)
            lines.append(text[start..<end])
            guard let next else { break }
            start = next
        }
        self.lines = lines
        startsWithBOM = text.unicodeScalars.first == "\u{FEFF}"
    }

    /// The LSP position of each linter position (line and column in scalars, 1-based; a column past the line's end
    /// is the line's end).
    func positions(_ positions: [(line: Int, column: Int)]) -> [DocumentPosition] {
        walk(positions).map { DocumentPosition(line: $0.line, character: $0.character) }
    }

    /// The LSP range of the JSON token at each linter position: a whole string, number or literal, or the bracket
    /// of an object or array.
    func tokenRanges(_ positions: [(line: Int, column: Int)]) -> [DocumentRange] {
        walk(positions).map { place in
            // At the end of a line (a syntax error at the end of the text) there is no token: the range covers the
            // line's last character instead of reaching past the line.
            let start = place.tokenLength == 0 ? max(place.character - 1, 0) : place.character
            return DocumentRange(start: DocumentPosition(line: place.line, character: start),
                                 end: DocumentPosition(line: place.line, character: place.character + place.tokenLength))
        }
    }

    /// Each position's line, UTF-16 character and the UTF-16 length of the JSON token there, found in one walk
    /// of each line, in order.
    private func walk(_ positions: [(line: Int, column: Int)]) -> [(line: Int, character: Int, tokenLength: Int)] {
        var result = [(line: Int, character: Int, tokenLength: Int)](repeating: (0, 0, 0), count: positions.count)
        guard !lines.isEmpty else { return result }
        let order = positions.indices.sorted { (positions[$0].line, positions[$0].column) < (positions[$1].line, positions[$1].column) }
        var current = -1
        var view = lines[0].unicodeScalars
        var index = view.startIndex
        var column = 1, character = 0
        for i in order {
            let line = min(max(positions[i].line - 1, 0), lines.count - 1)
            if line != current {
                current = line
                view = lines[line].unicodeScalars
                index = view.startIndex
                column = 1
                character = 0
                if line == 0 && startsWithBOM && index < view.endIndex {
                    view.formIndex(after: &index)
                    character = 1
                }
            }
            while column < positions[i].column, index < view.endIndex {
                character += view[index].utf16.count
                view.formIndex(after: &index)
                column += 1
            }
            result[i] = (line, character, Self.tokenLength(view, from: index))
        }
        return result
    }

    /// UTF-16 length of the token starting at `start`: a string with its quotes, a number or literal, else one
    /// scalar.
    private static func tokenLength(_ view: Substring.UnicodeScalarView, from start: Substring.UnicodeScalarView.Index) -> Int {
        guard start < view.endIndex else { return 0 }
        let first = view[start]
        var length = first.utf16.count
        var index = view.index(after: start)
        if first == "\"" {
            var escaped = false
            while index < view.endIndex {
                let scalar = view[index]
                length += scalar.utf16.count
                view.formIndex(after: &index)
                if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { break }
            }
        } else if "-0123456789tfn".unicodeScalars.contains(first) {
            while index < view.endIndex, !",]} \t\r\n:".unicodeScalars.contains(view[index]) {
                length += view[index].utf16.count
                view.formIndex(after: &index)
            }
        }
        return length
    }
}
