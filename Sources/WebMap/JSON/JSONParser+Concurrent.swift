import Foundation

// Reading the elements of one large array on every core: a web map of 100,000 layers is one array of 100,000
// objects, and parsing it was a second of a lint during which the other cores waited.
//
// First one pass over the array's bytes finds where each element begins (strings skipped, brackets counted,
// nothing checked), then the elements are split into chunks of about equal bytes, and each chunk is read by a
// parser of its own, exactly as the serial parser reads elements. Every chunk must end where the next one
// begins: a chunk that fails or ends elsewhere (the bytes are not JSON, so the quick pass was misled) makes the
// whole array be read again serially, which reports the error where a serial parse does. So the tree, the
// repeated keys, the elided arrays and any error are the ones a serial parse gives.

extension JSONTreeParser {
    /// How deep an array may be to be read concurrently: the document itself (1) or a member of it (2), where
    /// a large document keeps its long lists (`operationalLayers`, `tables`, a feature collection's `features`).
    static let concurrentDepth = 2

    /// What one chunk of elements gave.
    struct ChunkOutcome {
        var elements: [JSONNode]
        var duplicates: [DuplicateKey]
        var elided: [JSONPointer: Int]
    }

    /// Reads the elements of the array whose first element is at `index` (after its `[` and any white space)
    /// on every core. Returns the elements with `index` after the `]`; or nil, with nothing changed, when the
    /// array is too small to be worth it or a chunk does not read as JSON (the caller then reads it serially).
    mutating func parseElementsConcurrently() -> [JSONNode]? {
        let cores = ProcessorCount.active
        guard cores > 1, let layout = Self.elementLayout(buffer, from: index), layout.starts.count >= 2,
              layout.end - index >= options.concurrentMinimumSize / 2 else { return nil }
        let starts = layout.starts
        // More chunks than cores, of about equal bytes: a core that finishes early takes the next one.
        let wanted = min(cores * 4, starts.count)
        let bytes = layout.end - starts[0]
        var firsts = [0]
        for element in 1..<starts.count where firsts.count < wanted {
            if starts[element] - starts[0] >= bytes / wanted * firsts.count { firsts.append(element) }
        }
        firsts.append(starts.count)
        let chunks = firsts.count - 1
        var outcomes = [ChunkOutcome?](repeating: nil, count: chunks)
        let parent = self
        outcomes.withUnsafeMutableBufferPointer { slots in
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                slots[chunk] = parent.parseChunk(firsts[chunk]..<firsts[chunk + 1], starts: starts, end: layout.end)
            }
        }
        let read = outcomes.compactMap { $0 }
        guard read.count == chunks else { return nil }
        var elements: [JSONNode] = []
        elements.reserveCapacity(starts.count)
        for outcome in read {
            elements.append(contentsOf: outcome.elements)
            duplicates.append(contentsOf: outcome.duplicates)
            elided.merge(outcome.elided) { _, chunk in chunk }
        }
        index = layout.end
        lastCount = starts.count
        return elements
    }

    /// Reads elements `range` of the array (element `k` at `starts[k]`) with a parser of its own, in the same
    /// place of the document (depth and path) as this one; nil when they do not read as JSON or do not end
    /// where the next element (or the array) begins.
    func parseChunk(_ range: Range<Int>, starts: [Int], end: Int) -> ChunkOutcome? {
        var parser = JSONTreeParser(buffer: buffer, start: starts[range.lowerBound], options: options)
        parser.depth = depth
        parser.path = path
        parser.isConcurrencyAllowed = false
        var elements: [JSONNode] = []
        elements.reserveCapacity(range.count)
        let last = starts.count - 1
        for element in range {
            parser.path.append(.index(element))
            guard let value = try? parser.parseValue(keep: true) else { return nil }
            elements.append(value)
            parser.path.removeLast()
            parser.skipWhitespace()
            guard parser.index < buffer.count, buffer[parser.index] == UInt8(ascii: element == last ? "]" : ",") else { return nil }
            parser.index += 1
            if element == last {
                guard parser.index == end else { return nil }
            } else {
                parser.skipWhitespace()
                guard parser.index == starts[element + 1] else { return nil }
            }
        }
        return ChunkOutcome(elements: elements, duplicates: parser.duplicates, elided: parser.elided)
    }

    /// Where each element of the array whose first element is at `start` begins, and the offset just past
    /// the array's `]`, found by skipping strings and counting brackets; nil when the bytes end first or a
    /// bracket does not pair. Nothing else is checked here: the chunks' parsers check every byte.
    static func elementLayout(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> (starts: [Int], end: Int)? {
        var starts = [start]
        var open = 0
        var i = start
        let count = buffer.count
        while i < count {
            let byte = buffer[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""):
                while true {
                    i = skipPlainBytes(buffer, from: i, allowNonASCII: true)
                    guard i < count else { return nil }
                    let stop = buffer[i]
                    if stop == UInt8(ascii: "\"") { i += 1; break }
                    i += stop == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if open == 0 { return byte == UInt8(ascii: "]") ? (starts, i) : nil }
                open -= 1
            case UInt8(ascii: ",") where open == 0:
                while i < count, buffer[i] == 0x20 || buffer[i] == 0x0A || buffer[i] == 0x0D || buffer[i] == 0x09 { i += 1 }
                starts.append(i)
            default:
                break
            }
        }
        return nil
    }
}
