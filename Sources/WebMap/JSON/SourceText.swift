import Foundation

/// A 1-based line and column. Columns count Unicode scalars, so a position is the same whatever the encoding
/// width of the characters before it; a byte-order mark is not a column.
public struct SourcePosition: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static let start = SourcePosition(line: 1, column: 1)

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// The bytes of a source file and an index of its line starts, turning byte offsets into line and column.
/// The index is built on first use: most files produce no diagnostic and never need it.
public final class SourceText: @unchecked Sendable {
    public let bytes: [UInt8]
    /// Offset of the first byte after a UTF-8 byte-order mark (0 when there is none).
    public let contentStart: Int
    private var lineStarts: [Int]?
    /// `continuationsBefore[k]`: the UTF-8 continuation bytes in `bytes[0 ..< k * chunkSize]`; empty when the
    /// file has none. Built with `lineStarts`, so that a column costs at most one chunk of counting, however
    /// far into its line it is: a minified map is one line of megabytes, and counting from the line's start
    /// made each diagnostic cost as much as all the text before it.
    private var continuationsBefore: [Int] = []
    static let chunkSize = 4096
    /// Positions found by scanning from the start instead of through `lineStarts`: the first few of a file
    /// are (most files with a finding have one or two, near the start); after that the index pays.
    private var positionsScanned = 0
    private static let positionsScannedBeforeIndexing = 4
    private let lock = NSLock()

    /// A carriage return not followed by a line feed ends a line somewhere (old Mac OS line endings). LSP and
    /// editors count `\r`, `\n` and `\r\n` as line breaks, and so do positions then; without one, lines are
    /// found by the faster search for `\n` alone (`\r\n` ends its line at the `\n` either way).
    private let hasLoneCarriageReturn: Bool

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        contentStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        hasLoneCarriageReturn = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var offset = 0
            while offset < buffer.count, let found = memchr(base + offset, 0x0D, buffer.count - offset) {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if at + 1 == buffer.count || buffer[at + 1] != 0x0A { return true }
                offset = at + 1
            }
            return false
        }
    }

    /// True when the bytes contain "{{" anywhere (a cheap test before looking for template placeholders).
    public var containsDoubleOpeningBrace: Bool {
        bytes.withUnsafeBufferPointer(TemplatePlaceholders.containsDoubleOpeningBrace)
    }

    public convenience init(string: String) { self.init(bytes: Array(string.utf8)) }

    private func lineIndex() -> (lineStarts: [Int], continuationsBefore: [Int]) {
        lock.lock()
        defer { lock.unlock() }
        if let lineStarts { return (lineStarts, continuationsBefore) }
        var starts = [contentStart]
        var before: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            // memchr from newline to newline: minified maps are one long line.
            guard let base = buffer.baseAddress else { return }
            var offset = contentStart
            if hasLoneCarriageReturn {
                while offset < buffer.count {
                    let byte = buffer[offset]
                    if byte == 0x0A || (byte == 0x0D && (offset + 1 == buffer.count || buffer[offset + 1] != 0x0A)) {
                        starts.append(offset + 1)
                    }
                    offset += 1
                }
            }
            while offset < buffer.count, let found = memchr(base + offset, 0x0A, buffer.count - offset) {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                starts.append(at + 1)
                offset = at + 1
            }
            before = Self.continuationTable(buffer)
        }
        lineStarts = starts
        continuationsBefore = before
        return (starts, before)
    }

    /// The running count of continuation bytes at every `chunkSize` boundary, or [] when there is none at all.
    private static func continuationTable(_ buffer: UnsafeBufferPointer<UInt8>) -> [Int] {
        var table = [0]
        table.reserveCapacity(buffer.count / chunkSize + 1)
        var total = 0
        var start = 0
        while start + chunkSize <= buffer.count {
            total += countContinuationBytes(buffer, from: start, to: start + chunkSize)
            table.append(total)
            start += chunkSize
        }
        return total > 0 || countContinuationBytes(buffer, from: start, to: buffer.count) > 0 ? table : []
    }

    /// The continuation bytes in `buffer[0 ..< offset]`, from the table and at most one chunk of counting.
    private static func continuations(_ buffer: UnsafeBufferPointer<UInt8>, before offset: Int, table: [Int]) -> Int {
        guard !table.isEmpty else { return 0 }
        let chunk = offset / chunkSize
        return table[chunk] + countContinuationBytes(buffer, from: chunk * chunkSize, to: offset)
    }

    /// The line and column of the byte at `offset` (clamped to the file).
    public func position(ofOffset offset: Int) -> SourcePosition {
        let offset = min(max(offset, contentStart), bytes.count)
        lock.lock()
        let scan = !hasLoneCarriageReturn && lineStarts == nil && positionsScanned < Self.positionsScannedBeforeIndexing
        if scan { positionsScanned += 1 }
        lock.unlock()
        if scan { return scannedPosition(ofOffset: offset) }
        let (starts, table) = lineIndex()
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let lineStart = starts[low]
        let continuations = bytes.withUnsafeBufferPointer { buffer in
            Self.continuations(buffer, before: offset, table: table) - Self.continuations(buffer, before: lineStart, table: table)
        }
        return SourcePosition(line: low + 1, column: offset - lineStart - continuations + 1)
    }

    /// The position of `offset` found by counting the newlines before it (memchr from one to the next).
    private func scannedPosition(ofOffset offset: Int) -> SourcePosition {
        bytes.withUnsafeBufferPointer { buffer in
            var line = 1
            var lineStart = contentStart
            if let base = buffer.baseAddress {
                while lineStart < offset, let found = memchr(base + lineStart, 0x0A, offset - lineStart) {
                    line += 1
                    lineStart = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                }
            }
            let continuations = Self.countContinuationBytes(buffer, from: lineStart, to: offset)
            return SourcePosition(line: line, column: offset - lineStart - continuations + 1)
        }
    }

    /// How many UTF-8 continuation bytes (10xxxxxx) lie in `buffer[start..<end]`: the column is the byte
    /// count minus those. Eight bytes at a time: the table of `continuationsBefore` is built with it over the
    /// whole file, and the first few positions of a file are scanned from its start.
    private static func countContinuationBytes(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard let base = buffer.baseAddress, start < end else { return 0 }
        let high: UInt64 = 0x8080_8080_8080_8080
        // Most text before a finding is ASCII: one OR per eight bytes answers that before any counting.
        var any: UInt64 = 0
        var i = start
        while i + 8 <= end {
            any |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < end {
            any |= UInt64(base[i])
            i += 1
        }
        guard any & high != 0 else { return 0 }
        var count = 0
        i = start
        while i + 8 <= end {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // Bit 7 set and bit 6 clear in a byte: shifting left by one puts each byte's bit 6 in its bit 7.
            count += (word & ~(word << 1) & high).nonzeroBitCount
            i += 8
        }
        while i < end {
            if base[i] & 0xC0 == 0x80 { count += 1 }
            i += 1
        }
        return count
    }
}
