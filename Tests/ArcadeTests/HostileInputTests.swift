import Arcade
import Foundation
import Testing

/// Hostile input: never a crash or a hang; a clear error or result, each within a second in a debug build.
/// Seconds are the test thread's processor time: on this shared machine (load average above 10 while others build)
/// wall-clock time measures the neighbours, not the evaluator.
@Suite struct HostileInputTests {
    func timed<T>(_ work: () throws -> T) rethrows -> (T, Double) {
        let start = threadSeconds()
        let value = try work()
        return (value, threadSeconds() - start)
    }

    func threadSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    func syntaxError(_ source: String) -> ArcadeError? {
        if case .failure(let errors) = ArcadeParser.parse(source) { return errors.errors.first }
        return nil
    }

    @Test(arguments: ["(", "[", "{", "-", "!", "`${", "x = ", "+", "++", "f("])
    func aMegabyteOfOpeningsIsNestedTooDeeply(_ piece: String) throws {
        let source = String(repeating: piece, count: (1 << 20) / piece.utf8.count)
        let (error, seconds) = timed { syntaxError(source) }
        let found = try #require(error)
        #expect(found.ruleId == "arcade/syntax")
        #expect(found.message.contains("nested too deeply") || found.message.contains("end"), "\(piece): \(found.message)")
        #expect(seconds < 1)
    }

    /// Generated expressions chain operators of one precedence by the thousand: one flat node, however long.
    @Test func longFlatChainsParseAndEvaluate() throws {
        let sum = Array(repeating: "1", count: 900).joined(separator: " + ")
        #expect(try CoreTest.number(sum) == 900)
        let long = Array(repeating: "1", count: 100_000).joined(separator: "+")
        let (value, seconds) = try timed { try CoreTest.number(long) }
        #expect(value == 100_000)
        #expect(seconds < 1)
        let (analysis, _) = timed { try? ArcadeAnalysis.analyze(long).get() }
        #expect(analysis?.calls.isEmpty == true)
    }

    @Test func longChainsOfEveryPrecedence() throws {
        func chain(_ term: String, _ op: String, _ count: Int) -> String { Array(repeating: term, count: count).joined(separator: op) }
        #expect(try CoreTest.number(chain("2", " * ", 50)) == 1_125_899_906_842_624)
        #expect(try CoreTest.number("100 - " + chain("1", " - ", 3000)) == -2900)
        #expect(try CoreTest.boolean(chain("true", " && ", 20_000)) == true)
        #expect(try CoreTest.boolean(chain("false", " || ", 20_000) + " || true") == true)
        #expect(try CoreTest.number(chain("1", " | ", 5000)) == 1)
        #expect(try CoreTest.text(chain("'ab'", " + ", 10_000))?.count == 20_000)
        // Mixed precedences: each run of one precedence is its own chain.
        #expect(try CoreTest.number(chain("2 * 3", " + ", 2000) + " - " + chain("1", " * ", 2000)) == 11_999)
        // && stops at the first false, || at the first true: the index out of range after it is never read.
        #expect(try CoreTest.boolean("true && false && [1][5] == 1 && true") == false)
        #expect(try CoreTest.boolean("false || true || [1][5] == 1 || false") == true)
        #expect(CoreTest.error("true && true && [1][5] == 1 && true")?.ruleId == "arcade/runtime-error")
    }

    /// A step of a chain fails where the nested tree's step would: the chain from its start through that operand.
    @Test func anErrorInAChainIsAtItsStep() throws {
        let short = ArcadeEvaluationContext(limits: ArcadeLimits(maximumTextLength: 10))
        let error = try #require(CoreTest.error("var n = 1\nvar s = 'abcdef' + 'x' + 'abcdef' + 'y'", short))
        #expect(error.ruleId == "arcade/too-long")
        #expect(error.line == 2)
        #expect(error.column == 9)
        #expect(error.length == 25)   // 'abcdef' + 'x' + 'abcdef': the step that made the text too long
        let condition = try #require(CoreTest.error("true && true && 1 && false"))
        #expect(condition.ruleId == "arcade/runtime-error")
        #expect(condition.column == 17)
    }

    @Test func realNestingIsStillRefused() throws {
        let deep = String(repeating: "(", count: 1 << 20) + "1" + String(repeating: ")", count: 1 << 20)
        #expect(syntaxError(deep)?.message.contains("nested too deeply") == true)
        let members = "a" + String(repeating: ".b", count: 5000)
        #expect(syntaxError(members)?.message.contains("nested too deeply") == true)
    }

    @Test func aHundredThousandIterationsAreFine() throws {
        let (value, seconds) = try timed { try CoreTest.number("var t = 0; for (var i = 0; i < 100000; i++) { t += i } t") }
        #expect(value == 4_999_950_000)
        #expect(seconds < 1)
    }

    @Test func endlessLoopsStop() throws {
        for source in ["while (true) { }", "for (;;) { }", "var i = 0; while (i >= 0) { i++ }"] {
            let (error, seconds) = timed { CoreTest.error(source) }
            #expect(error?.ruleId == "arcade/too-long", "\(source)")
            #expect(seconds < 1)
        }
        let fewSteps = ArcadeEvaluationContext(limits: ArcadeLimits(maximumSteps: 1000))
        #expect(CoreTest.error("var i = 0; while (i < 2000) { i++ }", fewSteps)?.ruleId == "arcade/too-long")
    }

    @Test func deepRecursionStops() throws {
        let (error, seconds) = timed { CoreTest.error("function f(n) { return f(n + 1) }\nf(0)") }
        #expect(error?.ruleId == "arcade/too-long")
        #expect(error?.line == 1)
        #expect(seconds < 1)
        #expect(try CoreTest.number("function f(n) { if (n == 0) { return 0 } return 1 + f(n - 1) } f(200)") == 200)
        // Mutual recursion, and recursion through a value.
        #expect(CoreTest.error("function a(n) { return b(n) } function b(n) { return a(n) } a(1)")?.ruleId == "arcade/too-long")
    }

    @Test func tenMegabyteText() throws {
        let body = String(repeating: "abcdefghij", count: 1_000_000)
        let (value, seconds) = try timed { try CoreTest.text("'" + body + "'") }
        #expect(value?.utf8.count == 10_000_000)
        #expect(seconds < 1)
        let (length, _) = try timed { try CoreTest.boolean("var s = '" + body + "'; s + s == s + s") }
        #expect(length == true)
        #expect(CoreTest.error("var s = 'x'; while (true) { s += s }")?.ruleId == "arcade/too-long")
    }

    @Test func notANumberAndInfinities() throws {
        #expect(try CoreTest.number("Infinity - Infinity")?.isNaN == true)
        #expect(try CoreTest.number("Infinity * -1") == -.infinity)
        #expect(try CoreTest.number("(0/0) % 2")?.isNaN == true)
        #expect(try CoreTest.number("5 % 0")?.isNaN == true)
        #expect(try CoreTest.number("Infinity | 0") == 0)
        #expect(try CoreTest.number("1e300 << 1e300") == 0)
        #expect(try CoreTest.text("'' + (0/0) + Infinity") == "NaNInfinity")
        #expect(try CoreTest.boolean("(0/0) == (0/0)") == false)
        #expect(CoreTest.error("[1][0/0]")?.ruleId == "arcade/runtime-error")
        #expect(CoreTest.error("[1][Infinity]")?.ruleId == "arcade/runtime-error")
        #expect(CoreTest.error("[1][1e300]")?.ruleId == "arcade/runtime-error")
    }

    @Test func valuesThatHoldThemselves() throws {
        #expect(try CoreTest.text("var a = [1]; a[0] = a; TypeOf(a)") == "Array")
        #expect(CoreTest.error("var a = [1]; a[0] = a; '' + a")?.message.contains("holds itself") == true)
        #expect(CoreTest.error("var d = {}; d.x = d; `${d}`")?.ruleId == "arcade/runtime-error")
        #expect(CoreTest.error("var a = []; for (var i = 0; i < 10000; i++) { a = [a] } '' + a")?.ruleId == "arcade/runtime-error")
        #expect(try CoreTest.text("'' + [[1], {a: [2]}]") == "[[1],{\"a\":[2]}]")
    }

    @Test func oddTexts() throws {
        for source in ["\u{0}", "'\u{0}'", "\u{FEFF}1", "1\u{2028}2", "`", "${", "}", "'\\u{110000}'", "'\\uZZZZ'", "0x", "1..2",
                       "$", "var", "function", "function f(", "for (var k in", "return return", "\"\\", "/*/", "a.1"] {
            _ = ArcadeParser.parse(source)
            _ = CoreTest.error(source)
        }
        #expect(try CoreTest.number("\u{FEFF}1 + 1") == 2)
    }
}
