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
