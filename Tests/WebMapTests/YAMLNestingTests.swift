import Testing
import WebMap

/// `YAMLNesting.upperBound` never under-counts, whatever form the nesting takes, and does not count what only
/// looks like nesting (brackets in quotes, comments and block scalars).
struct YAMLNestingTests {
    @Test(arguments: [
        ("steps: " + String(repeating: "[", count: 50) + String(repeating: "]", count: 50), 50),
        ("steps:\n" + String(repeating: "- ", count: 50) + "x\n", 50),
        ("a: &anchor [[[1]]]\nb: !!seq [[2]]\nc: [ &x [ !tag [3] ] ]\n", 3),
        ("a:\n  b:\n    c:\n      - d: [e, {f: [g]}]\n", 6),
        ("{\"a\":[{\"b\":[1]}]}\n", 4),
    ])
    func itBoundsTheDepth(text: String, depth: Int) {
        #expect(YAMLNesting.upperBound(of: text) >= depth, "\(text.prefix(60))")
    }

    @Test func bracketsInQuotesCommentsAndBlockScalarsAreText() {
        let text = """
            a: "[[[[ \\" [[[["
            b: '[[[[ '' [[[['
            c: plain[[[[ text
            # [[[[[[[[[[
            d: |
              [[[[[[[[[[
              - - - - - -
            e: ok
            """
        #expect(YAMLNesting.upperBound(of: text) <= 3)
    }

    @Test func aHundredThousandLevelsAreSeenWithoutRecursion() {
        #expect(YAMLNesting.upperBound(of: "steps: " + String(repeating: "[", count: 100_000)) > YAMLNesting.limit)
        #expect(YAMLNesting.upperBound(of: "steps:\n" + String(repeating: "- ", count: 100_000) + "x") > YAMLNesting.limit)
    }
}
