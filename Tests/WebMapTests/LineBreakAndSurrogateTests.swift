import Testing
import WebMap

/// Positions with old Mac OS line endings, and the parser's option for lone surrogate escapes (issue 31,
/// item 10: the linter and the LSP must agree on lines; an editor's lone surrogate must not lose a document).
@Suite struct LineBreakAndSurrogateTests {
    @Test func aLoneCarriageReturnEndsALine() {
        let text = SourceText(string: "a\rb\r\nc\nd\r")
        let offsets = [0, 2, 5, 7]  // a, b, c, d
        #expect(offsets.map { text.position(ofOffset: $0) } == [
            SourcePosition(line: 1, column: 1), SourcePosition(line: 2, column: 1),
            SourcePosition(line: 3, column: 1), SourcePosition(line: 4, column: 1),
        ])
        // The same after the line index is built (positions past the first few use it).
        for _ in 0..<5 { _ = text.position(ofOffset: 0) }
        #expect(text.position(ofOffset: 7) == SourcePosition(line: 4, column: 1))
        // CR LF stays one break; LF alone as before.
        #expect(SourceText(string: "a\r\nb").position(ofOffset: 3) == SourcePosition(line: 2, column: 1))
        #expect(SourceText(string: "a\nb").position(ofOffset: 2) == SourcePosition(line: 2, column: 1))
    }

    @Test func loneSurrogatesAreRefusedUnlessAskedToBeReplaced() throws {
        for text in [#""\ud83c""#, #""\udf33x""#, #""\ud83c\u0041""#] {
            #expect(throws: JSONParseError.self) { _ = try JSONParser.parse(text) }
        }
        var options = JSONParser.Options()
        options.replaceLoneSurrogates = true
        #expect(try JSONParser.parse(#""\ud83c""#, options: options).root.string == "\u{FFFD}")
        #expect(try JSONParser.parse(#""\udf33x""#, options: options).root.string == "\u{FFFD}x")
        #expect(try JSONParser.parse(#""\ud83c\u0041""#, options: options).root.string == "\u{FFFD}A")
        #expect(try JSONParser.parse(#""\ud83c\udf33""#, options: options).root.string == "🌳")
    }
}
