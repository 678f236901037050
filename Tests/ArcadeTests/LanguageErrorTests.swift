import Arcade
import Testing

/// Syntax errors and run errors at their line and column (columns and offsets in Unicode scalars).
@Suite struct LanguageErrorTests {
    func syntax(_ source: String) -> ArcadeError? {
        if case .failure(let errors) = ArcadeParser.parse(source) { return errors.errors.first }
        return nil
    }

    @Test func syntaxErrorsAtTheirPlace() throws {
        let unterminated = try #require(syntax("var a = 1\nvar b = 'abc"))
        #expect(unterminated.ruleId == "arcade/syntax")
        #expect(unterminated.line == 2 && unterminated.column == 9 && unterminated.offset == 18)
        #expect(unterminated.message.contains("unterminated"))

        let template = try #require(syntax("`abc ${1"))
        #expect(template.message.contains("template") || template.message.contains("'}'"))
        #expect(try #require(syntax("/* never closed")).message.contains("comment"))
        #expect(try #require(syntax("`never closed")).message.contains("template"))

        // An unterminated string whose text ends at a multiple of eight bytes (the lexer skips eight at a time):
        // found by fuzzing, it read past the end.
        for length in 0..<24 {
            let open = try #require(syntax("'" + String(repeating: "x", count: length)), "\(length)")
            #expect(open.message.contains("unterminated") && open.column == 1)
            #expect(syntax("return 'a' + '" + String(repeating: "y", count: length))?.column == 14)
        }
        let fuzzed = "// Uper() in a comment does not count\nreturn Uper($featumm') + ' ' + DateDiff(Nowroper($feature.Condition)"
        #expect(syntax(fuzzed)?.message.contains("unterminated") == true)

        let paren = try #require(syntax("Left(1,\n  2"))
        // Never closed: reported at the opener (the message names both ends).
        #expect(paren.line == 1 && paren.column == 5 && paren.message.contains("')'"))
        #expect(paren.message.contains("line 1, column 5"))

        let extra = try #require(syntax("1 + 2)"))
        #expect(extra.column == 6 && extra.message.contains("')'"))

        let unexpected = try #require(syntax("var = 3"))
        #expect(unexpected.column == 5)
        #expect(try #require(syntax("a b")).column == 3)
        #expect(try #require(syntax("[1, 2")).message.contains("']'"))
        #expect(try #require(syntax("x = {a: 1")).message.contains("'}'"))
        #expect(try #require(syntax("1 = 2")).message.contains("cannot be assigned"))
        #expect(try #require(syntax("x = #")).message.contains("'#'"))
        #expect(try #require(syntax("else { }")).message.contains("else"))
        #expect(try #require(syntax("var a = 1\nbreak")).message.contains("outside a loop"))
        #expect(try #require(syntax("while (true) { function f() { continue } }")).message.contains("outside a loop"))
        #expect(syntax("for (var k in [1]) { if (k == 0) { continue } break }") == nil)
    }

    @Test func offsetsAreUnicodeScalars() throws {
        // "é" and "😀" are one scalar each (two and four UTF-8 bytes, "😀" two UTF-16 units).
        let error = try #require(syntax("'é😀' + #"))
        #expect(error.offset == 7 && error.column == 8)
        if case .success(let script) = ArcadeParser.parse("var s = '😀'; s") {
            #expect(script.makeStatements()[1].range.start == 13)
        } else {
            Issue.record("did not parse")
        }
    }

    @Test func runErrorsAtTheirPlace() throws {
        let error = try #require(CoreTest.error("var d = {a: 1}\nvar x = 1\n  d.b"))
        #expect(error.ruleId == "arcade/runtime-error")
        #expect(error.line == 3 && error.column == 3)
        let index = try #require(CoreTest.error("var a = [1]; a[5]"))
        #expect(index.message.contains("out of range") && index.column == 14)
        #expect(CoreTest.error("null.x")?.message.contains("null") == true)
        #expect(CoreTest.error("undeclared + 1")?.message.contains("undeclared") == true)
        let unknown = try #require(CoreTest.error("\n IIff(true, 1, 2)"))
        #expect(unknown.ruleId == "arcade/unknown-function" && unknown.line == 2 && unknown.column == 2)
        #expect(unknown.message.contains("IIf"))
        // Found before the expression runs, even where it would never be reached (arcade.md: "a name that is no
        // Arcade function at all is an error at parse time")...
        let unreached = try #require(CoreTest.error("if (false) {\n  return Lefft('abc', 1)\n}\n1"))
        #expect(unreached.ruleId == "arcade/unknown-function" && unreached.line == 2 && unreached.column == 10)
        // ...but never for a function the expression declares, before or after the call.
        #expect(try CoreTest.number("function twice(x) { return 2 * x }\ntwice(2)") == 4)
        #expect(try CoreTest.number("var f = Abs; f(-3)") == 3 || CoreTest.error("var f = Abs; f(-3)")?.ruleId != "arcade/unknown-function")
    }

    @Test func unsupportedFunctionsAreNamed() throws {
        let error = try #require(CoreTest.error("var x = 1\nBufferGeodetic(x, 10, 'meters')"))
        #expect(error.ruleId == "arcade/unsupported-function")
        #expect(error.message.contains("BufferGeodetic") && error.line == 2 && error.column == 1)
    }

    @Test func libraryFailuresCarryTheCallsPlace() throws {
        let error = try #require(CoreTest.error("var a = 1\n  IIf(1, 2, 3)"))
        #expect(error.ruleId == "arcade/runtime-error" && error.line == 2 && error.column == 3)
        let arity = try #require(CoreTest.error("IIf(true, 1)"))
        #expect(arity.message.contains("3 arguments"))
    }
}
