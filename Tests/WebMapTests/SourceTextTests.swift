import Testing
import WebMap

/// Line and column look-ups (scanned for a file's first few, then through the line index) and the
/// eight-bytes-at-a-time test for `{{`, against plain byte-by-byte answers.
@Suite struct SourceTextTests {
    /// The line and column of `offset` counted one byte at a time (columns count Unicode scalars).
    private func naivePosition(_ bytes: [UInt8], _ offset: Int, contentStart: Int) -> SourcePosition {
        var line = 1
        var column = 1
        for byte in bytes[contentStart..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourcePosition(line: line, column: column)
    }

    @Test func everyOffsetBeforeAndAfterTheLineIndexIsBuilt() {
        let text = "\u{FEFF}{\"a\": \"é\",\n  \"b\": [1, 2,\r\n 3],\n\n \"日本\": \"x😀y\", \"c\": {\"d\": null}}\n"
        let bytes = Array(text.utf8)
        // A fresh source per offset answers by scanning; one shared source answers the first few by scanning
        // and the rest through its index.
        let shared = SourceText(bytes: bytes)
        for offset in 0...bytes.count {
            let expected = naivePosition(bytes, max(offset, shared.contentStart), contentStart: shared.contentStart)
            #expect(SourceText(bytes: bytes).position(ofOffset: offset) == expected, "scanned, offset \(offset)")
            #expect(shared.position(ofOffset: offset) == expected, "shared, offset \(offset)")
        }
    }

    /// Across chunks of the continuation-byte table: every offset of a text of several chunks, with multi-byte
    /// characters on both sides of chunk boundaries and lines of all lengths.
    @Test func everyOffsetAcrossContinuationChunks() {
        var text = "\u{FEFF}"
        for k in 0..<5_000 { text += k % 7 == 0 ? "é😀\n" : (k % 3 == 0 ? "日x" : "ab") }
        let bytes = Array(text.utf8)
        #expect(bytes.count > 3 * 4096)
        let source = SourceText(bytes: bytes)
        for _ in 0..<8 { _ = source.position(ofOffset: 0) }
        // What `naivePosition` counts, one byte at a time and in one pass.
        var expected = SourcePosition.start
        for offset in source.contentStart...bytes.count {
            #expect(source.position(ofOffset: offset) == expected, "offset \(offset)")
            guard offset < bytes.count else { break }
            if bytes[offset] == 0x0A {
                expected = SourcePosition(line: expected.line + 1, column: 1)
            } else if bytes[offset] & 0xC0 != 0x80 {
                expected.column += 1
            }
        }
    }

    /// A position at the end of a line of megabytes (a minified map) costs about what one at its start does:
    /// not the length of the text before it, which made lint time grow with the square of the findings.
    @Test(arguments: ["x", "é"])
    func aPositionFarIntoALongLineCostsNoMoreThanOneNearItsStart(filler: String) {
        let bytes = Array(("[" + String(repeating: "\"\(filler)\",", count: 1_000_000) + "0]").utf8)
        let source = SourceText(bytes: bytes)
        for _ in 0..<8 { _ = source.position(ofOffset: 0) }
        let clock = ContinuousClock()
        let count = 2_000
        // The fastest of five rounds each: one round can be preempted for longer than the whole difference.
        func fastest(_ body: () -> Void) -> Duration { (0..<5).map { _ in clock.measure(body) }.min()! }
        let nearStart = fastest { for k in 0..<count { _ = source.position(ofOffset: k) } }
        let nearEnd = fastest { for k in 0..<count { _ = source.position(ofOffset: bytes.count - 1 - k) } }
        #expect(nearEnd < nearStart * 10 + .milliseconds(100), "\(count) positions near the start: \(nearStart), near the end: \(nearEnd)")
        #expect(source.position(ofOffset: bytes.count - 1).column == 1 + (bytes.count - 1) - (filler == "é" ? 1_000_000 : 0))
    }

    @Test func findsDoubleOpeningBraces() {
        #expect(SourceText(string: #"{"a": "{{ x }}"}"#).containsDoubleOpeningBrace)
        #expect(!SourceText(string: #"{"a": "{x} {y}"}"#).containsDoubleOpeningBrace)
        #expect(!SourceText(string: "{").containsDoubleOpeningBrace)
        #expect(SourceText(string: "{{").containsDoubleOpeningBrace)
        #expect(!SourceText(string: "").containsDoubleOpeningBrace)
    }

    @Test func doubleOpeningBracesAreFoundAtEveryAlignment() {
        for length in 0..<40 {
            let plain = [UInt8](repeating: UInt8(ascii: "x"), count: length)
            #expect(!SourceText(bytes: plain).containsDoubleOpeningBrace)
            for first in 0..<length {
                var single = plain
                single[first] = UInt8(ascii: "{")
                #expect(!SourceText(bytes: single).containsDoubleOpeningBrace, "one brace at \(first) of \(length)")
                for second in (first + 1)..<max(first + 1, length) {
                    var two = single
                    two[second] = UInt8(ascii: "{")
                    let adjacent = second == first + 1
                    #expect(SourceText(bytes: two).containsDoubleOpeningBrace == adjacent, "braces at \(first), \(second) of \(length)")
                }
            }
        }
        // Bytes next to "{" in value (z, |) and with the high bit set must not pass for braces.
        #expect(!SourceText(string: "{z{|{\u{FB}{ {x{\u{FB}").containsDoubleOpeningBrace)
        #expect(SourceText(string: "{\"title\": \"{{ region }}\"}").containsDoubleOpeningBrace)
    }
}
