import Foundation

/// An open document's text, edited by `didChange` (whole or by ranges), with positions in LSP's units: lines
/// from 0 and characters counted in UTF-16 code units.
struct TextDocument {
    var uri: String
    var version: Int
    var text: String

    /// Applies one `contentChanges` entry: with a `range`, replaces that range; without, the whole text.
    mutating func apply(_ change: [String: Any]) throws {
        guard let newText = change["text"] as? String else { throw LanguageServerError.invalidParams("a content change without text") }
        guard let range = change["range"] as? [String: Any] else {
            text = newText
            return
        }
        guard let start = Self.position(range["start"]), let end = Self.position(range["end"]) else {
            throw LanguageServerError.invalidParams("a content change with a malformed range")
        }
        let utf16 = text.utf16
        let lower = offset(of: start), upper = offset(of: end)
        guard lower <= upper else { throw LanguageServerError.invalidParams("a content change whose range ends before it starts") }
        let a = utf16.index(utf16.startIndex, offsetBy: lower), b = utf16.index(utf16.startIndex, offsetBy: upper)
        text.replaceSubrange(a..<b, with: newText)
    }

    /// The UTF-16 offset of a position, clamped to the line's end and the text's end (as LSP asks).
    func offset(of position: (line: Int, character: Int)) -> Int {
        var line = 0, offset = 0
        let units = Array(text.utf16)
        while line < position.line {
            guard let newline = units[offset...].firstIndex(of: 10) else { return units.count }
            offset = newline + 1
            line += 1
        }
        let lineEnd = units[offset...].firstIndex(of: 10) ?? units.count
        return min(offset + max(position.character, 0), lineEnd)
    }

    static func position(_ value: Any?) -> (line: Int, character: Int)? {
        guard let object = value as? [String: Any], let line = object["line"] as? Int, let character = object["character"] as? Int else { return nil }
        return (line, character)
    }
}

/// Lines of a text for converting the linter's positions (1-based lines, columns in Unicode scalars) to LSP's.
struct LineTable {
    private let lines: [Substring]

    init(_ text: String) {
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    /// The LSP position of a linter position.
    func position(line: Int, column: Int) -> [String: Int] {
        let index = min(max(line - 1, 0), max(lines.count - 1, 0))
        guard index < lines.count else { return ["line": 0, "character": 0] }
        var character = 0
        for scalar in lines[index].unicodeScalars.prefix(max(column - 1, 0)) { character += scalar.utf16.count }
        return ["line": index, "character": character]
    }

    /// The LSP range of the JSON token starting at a linter position: a whole string, number or literal, or the
    /// bracket of an object or array.
    func tokenRange(line: Int, column: Int) -> [String: Any] {
        let start = position(line: line, column: column)
        let index = start["line"]!
        guard index < lines.count else { return ["start": start, "end": start] }
        let scalars = Array(lines[index].unicodeScalars.dropFirst(max(column - 1, 0)))
        var length = 0
        if let first = scalars.first {
            if first == "\"" {
                var i = 1, escaped = false
                while i < scalars.count {
                    if escaped { escaped = false } else if scalars[i] == "\\" { escaped = true } else if scalars[i] == "\"" { i += 1; break }
                    i += 1
                }
                length = scalars[0..<min(i, scalars.count)].reduce(0) { $0 + $1.utf16.count }
            } else if "-0123456789tfn".unicodeScalars.contains(first) {
                length = scalars.prefix { !",]} \t\r\n".unicodeScalars.contains($0) }.reduce(0) { $0 + $1.utf16.count }
            } else {
                length = first.utf16.count
            }
        }
        return ["start": start, "end": ["line": index, "character": start["character"]! + max(length, 1)]]
    }
}
