import Foundation

// Reading the elements of one large array on every core: a web map of 100,000 layers is one array of 100,000
// objects, and parsing it was a second of a lint during which the other cores waited.
//
// The array's bytes are cut at about equal distances, each cut moved forward to the first place that looks like
// the start of an element object (`}`, `,`, `{` with white space between), and each part is read at once by a
// parser of its own, exactly as the serial parser reads elements, until it reaches the next part's start. A guess
// can be wrong (those bytes inside a string, or past the array's end), so a part counts only if the part before it
// ended exactly where it begins, after a `,`: the first part begins at the array's first element, so every part
// kept begins at an element. A part that fails, or a chain that breaks before the array's `]`, makes the whole
// array be read again serially, which reports any error where a serial parse does. So the tree, the repeated keys,
// the elided arrays and any error are the ones a serial parse gives.
//
// An earlier version first found where each element begins in one pass over the whole array (strings skipped,
// brackets counted) and cut there: certain, but a serial pass over the map's bytes (100-200 ms on the 119 MB map)
// while the other cores waited.

extension JSONTreeParser {
    /// How deep an array may be to be read concurrently: the document itself (1) or a member of it (2), where
    /// a large document keeps its long lists (`operationalLayers`, `tables`, a feature collection's `features`).
    static let concurrentDepth = 2

    /// What one part of the elements gave.
    struct ChunkOutcome {
        var elements: [JSONNode]
        /// Their pointers count elements from the part's first (rebased when the parts are joined).
        var duplicates: [DuplicateKey]
        var elided: [JSONPointer: Int]
        /// The offset after the array's `]` when the part ended there; nil when it ended at the next part's start.
        var arrayEnd: Int?
    }

    /// Which parts have met a `]` closing the array: the parts after the first such one stop early (they read
    /// past the array, and none of them is kept).
    final class ArrayEnd: @unchecked Sendable {
        private let lock = NSLock()
        private var firstPart = Int.max

        func found(inPart part: Int) {
            lock.lock()
            firstPart = min(firstPart, part)
            lock.unlock()
        }

        func isPast(_ part: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return part > firstPart
        }
    }

    /// Reads the elements of the array whose first element is at `index` (after its `[` and any white space)
    /// on every core. Returns the elements with `index` after the `]`; or nil, with nothing changed, when the
    /// array is too small to be worth it or the parts do not join up (the caller then reads it serially).
    mutating func parseElementsConcurrently() -> [JSONNode]? {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let remaining = buffer.count - index
        guard cores > 1, remaining >= options.concurrentMinimumSize / 2 else { return nil }
        // Most arrays of a large document are short (all but its one long list): one that closes within its
        // first bytes is read serially, without guessing over the rest of the document.
        if Self.closes(buffer, arrayAt: index, before: index + options.concurrentMinimumSize / 8) { return nil }
        // More parts than cores, of about equal bytes: a core that finishes early takes the next one.
        let wanted = cores * 4
        var starts = [index]
        for part in 1..<wanted {
            let guess = index + remaining / wanted * part
            guard guess > starts[starts.count - 1] else { continue }
            guard let start = Self.likelyElementStart(buffer, after: guess) else { break }
            if start > starts[starts.count - 1] { starts.append(start) }
        }
        guard starts.count >= 2 else { return nil }
        let parts = starts.count
        var outcomes = [ChunkOutcome?](repeating: nil, count: parts)
        let parent = self
        let arrayEnd = ArrayEnd()
        outcomes.withUnsafeMutableBufferPointer { slots in
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                slots[part] = parent.parsePart(part, from: starts[part], until: part + 1 < parts ? starts[part + 1] : nil,
                                               arrayEnd: arrayEnd)
            }
        }
        // The parts in order while each ends where the next begins, up to the one that ends at the `]`.
        var elements: [JSONNode] = []
        var joined: [(outcome: ChunkOutcome, base: Int)] = []
        var end: Int?
        for outcome in outcomes {
            guard let outcome else { return nil }
            joined.append((outcome, elements.count))
            elements.append(contentsOf: outcome.elements)
            if let arrayEnd = outcome.arrayEnd {
                end = arrayEnd
                break
            }
        }
        guard let end else { return nil }
        let position = path.count
        for (outcome, base) in joined {
            duplicates.append(contentsOf: outcome.duplicates.map { duplicate in
                var rebased = duplicate
                rebased.pointer = Self.rebased(duplicate.pointer, at: position, by: base)
                return rebased
            })
            for (pointer, count) in outcome.elided { elided[Self.rebased(pointer, at: position, by: base)] = count }
        }
        index = end
        lastCount = elements.count
        return elements
    }

    /// Reads the elements from `start` with a parser of its own, in the same place of the document (depth and
    /// path) as this one, until the next part's start `next` (nil for the last part) or the array's `]`; nil when
    /// they do not read as JSON, do not land exactly on `next`, or lie past a `]` another part found first.
    func parsePart(_ part: Int, from start: Int, until next: Int?, arrayEnd: ArrayEnd) -> ChunkOutcome? {
        var parser = JSONTreeParser(buffer: buffer, start: start, options: options)
        parser.depth = depth
        parser.path = path
        parser.isConcurrencyAllowed = false
        var elements: [JSONNode] = []
        while true {
            parser.path.append(.index(elements.count))
            guard let value = try? parser.parseValue(keep: true) else { return nil }
            elements.append(value)
            parser.path.removeLast()
            parser.skipWhitespace()
            guard parser.index < buffer.count else { return nil }
            if buffer[parser.index] == UInt8(ascii: "]") {
                arrayEnd.found(inPart: part)
                return ChunkOutcome(elements: elements, duplicates: parser.duplicates, elided: parser.elided, arrayEnd: parser.index + 1)
            }
            guard buffer[parser.index] == UInt8(ascii: ",") else { return nil }
            parser.index += 1
            parser.skipWhitespace()
            if let next {
                if parser.index == next {
                    return ChunkOutcome(elements: elements, duplicates: parser.duplicates, elided: parser.elided, arrayEnd: nil)
                }
                if parser.index > next { return nil }
            }
            if arrayEnd.isPast(part) { return nil }
        }
    }

    /// `pointer` with its element index at token `position` (counted from a part's first element) moved by `base`.
    static func rebased(_ pointer: JSONPointer, at position: Int, by base: Int) -> JSONPointer {
        guard base != 0, position < pointer.tokens.count, let index = Int(pointer.tokens[position]) else { return pointer }
        var tokens = pointer.tokens
        tokens[position] = String(index + base)
        return JSONPointer(tokens)
    }

    /// The first `{` at or after `guess` whose previous bytes, white space aside, are `}` and `,`: where an
    /// element object would begin in an array of objects. Only a guess: the bytes may lie inside a string.
    static func likelyElementStart(_ buffer: UnsafeBufferPointer<UInt8>, after guess: Int) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var i = guess
        while i < buffer.count {
            guard let found = memchr(base + i, Int32(UInt8(ascii: "{")), buffer.count - i) else { return nil }
            let open = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var j = open - 1
            while j >= 0, isSpace(buffer[j]) { j -= 1 }
            if j >= 0, buffer[j] == UInt8(ascii: ",") {
                j -= 1
                while j >= 0, isSpace(buffer[j]) { j -= 1 }
                if j >= 0, buffer[j] == UInt8(ascii: "}") { return open }
            }
            i = open + 1
        }
        return nil
    }

    /// True when the array whose first element is at `start` closes before `limit`, found by skipping strings
    /// and counting brackets; false when it does not, or the bytes are not JSON (the parsers check every byte).
    static func closes(_ buffer: UnsafeBufferPointer<UInt8>, arrayAt start: Int, before limit: Int) -> Bool {
        var open = 0
        var i = start
        let count = min(buffer.count, limit)
        while i < count {
            let byte = buffer[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""):
                while true {
                    i = skipPlainBytes(buffer, from: i, allowNonASCII: true)
                    guard i < count else { return false }
                    let stop = buffer[i]
                    if stop == UInt8(ascii: "\"") { i += 1; break }
                    i += stop == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if open == 0 { return byte == UInt8(ascii: "]") }
                open -= 1
            default:
                break
            }
        }
        return false
    }
}
