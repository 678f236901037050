import Foundation
import Testing
@testable import Rules
import WebMap

/// One expression with thousands of findings (a scaled-down `Benchmarks/lint-scale.sh`): every finding is
/// reported at its own character, and what does not depend on the finding is computed once.
@Suite struct ArcadeManyFindingsTests {
    @Test func everyUnknownCallIsReportedAtItsOwnCharacter() throws {
        let lines = 100, callsPerLine = 20
        let expression = String(repeating: String(repeating: "Q();", count: callsPerLine) + "\n", count: lines)
        let map = ArcadeRulesTests.map(rawExpression: JSONText.string(expression), minified: true)
        let found = ArcadeRulesTests.lint(map, rule: "arcade/unknown-function")
        #expect(found.count == lines * callsPerLine)
        // The map is minified: one line, and each call 4 columns after the previous one, `\n` (2 columns in the
        // file) after each twentieth.
        let first = try ArcadeRulesTests.position(of: "Q();", in: map)
        let expected = (0..<lines * callsPerLine).map { first.column + 4 * $0 + 2 * ($0 / callsPerLine) }
        #expect(found.map(\.line) == Array(repeating: 1, count: found.count))
        #expect(found.map(\.column) == expected)
        #expect(found.allSatisfy { $0.message.hasSuffix("Call a function of Arcade's function reference, or declare it in the expression.") })
    }

    /// A name nothing resembles has no suggestion, and that answer is remembered like any other (each search
    /// measures the name against the whole function reference: without the memo, each of 246,900 calls of `Q`
    /// in one expression would search again).
    @Test func aNameWithoutSuggestionIsSearchedOnce() {
        var memo = SuggestionMemo()
        var searches = 0
        for _ in 0..<1_000 {
            let answer = memo.closest(to: "Q") { _ in
                searches += 1
                return nil
            }
            #expect(answer == nil)
        }
        #expect(searches == 1)
        #expect(memo.closest(to: "Uper") { _ in "Upper" } == "Upper")
        #expect(memo.closest(to: "Uper") { _ in "never asked" } == "Upper")
    }
}
