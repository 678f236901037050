import Arcade
import Testing

/// Arrays and dictionaries are shared references, so an expression can put one inside itself. Writing such a
/// value as text (Text, Concatenate, template literals, `maprules arcade`'s output) must end, with `null` where
/// the value repeats, rather than recurse until the stack overflows.
struct SelfHoldingValueTests {
    @Test func anArrayThatHoldsItselfIsWrittenWithNullWhereItRepeats() throws {
        let value = try ArcadeEvaluator.evaluate("var a = [1]; a[0] = a; Text(a)")
        guard case .text(let text) = value else { Issue.record("not text: \(value)"); return }
        #expect(text == "[null]")
    }

    @Test func aDictionaryThatHoldsItselfToo() throws {
        let value = try ArcadeEvaluator.evaluate("var d = {a: 1}; d.b = d; Text(d)")
        guard case .text(let text) = value else { Issue.record("not text: \(value)"); return }
        #expect(text == #"{"a":1,"b":null}"#)
    }

    @Test func exponentiallySharedValuesStopGrowing() throws {
        // 40 levels of an array holding the previous one twice: 2^40 elements if written out in full.
        let source = "var a = [1]; for (var i = 0; i < 40; i++) { a = [a, a]; } Count(Text(a)) > 0"
        #expect(try ArcadeEvaluator.evaluate(source).booleanValue)
    }
}
