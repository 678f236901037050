import WebMap

/// A place in an open document as LSP counts it: the line from 0 and the character in UTF-16 code units.
struct DocumentPosition: Comparable {
    var line: Int
    var character: Int

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// Read from a message's `{"line": L, "character": C}`; nil unless both are integers.
    init?(_ json: JSON?) {
        guard let line = json?["line"]?.integer, let character = json?["character"]?.integer else { return nil }
        self.init(line: line, character: character)
    }

    var json: JSON { .members(["line": .int(line), "character": .int(character)]) }

    static func < (a: DocumentPosition, b: DocumentPosition) -> Bool {
        (a.line, a.character) < (b.line, b.character)
    }
}

/// A span of an open document in LSP's units, both ends included when asking what it contains.
struct DocumentRange {
    var start: DocumentPosition
    var end: DocumentPosition

    init(start: DocumentPosition, end: DocumentPosition) {
        self.start = start
        self.end = end
    }

    /// Read from a message's `{"start": position, "end": position}`; nil unless both positions are.
    init?(_ json: JSON?) {
        guard let start = DocumentPosition(json?["start"]), let end = DocumentPosition(json?["end"]) else { return nil }
        self.init(start: start, end: end)
    }

    var json: JSON { .members(["start": start.json, "end": end.json]) }

    func contains(_ position: DocumentPosition) -> Bool {
        start <= position && position <= end
    }

    /// True when the two ranges share at least one position (touching ends count).
    func meets(_ other: DocumentRange) -> Bool {
        start <= other.end && other.start <= end
    }
}
