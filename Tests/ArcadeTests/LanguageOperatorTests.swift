import Arcade
import Testing

/// Operators, precedence, coercions and short-circuits (https://developers.arcgis.com/arcade/guide/operators/,
/// https://developers.arcgis.com/arcade/guide/type-casting/).
@Suite struct LanguageOperatorTests {
    @Test func arithmeticAndPrecedence() throws {
        #expect(try CoreTest.number("5+5") == 10)
        #expect(try CoreTest.number("10 % 3") == 1)
        #expect(try CoreTest.number("1 + 2 * 3") == 7)
        #expect(try CoreTest.number("(1 + 2) * 3") == 9)
        #expect(try CoreTest.number("10 - 4 - 3") == 3)
        #expect(try CoreTest.number("2 * 3 % 4") == 2)
        #expect(try CoreTest.number("-2 * -3") == 6)
        #expect(try CoreTest.number("+'3' + 1") == 4)
        #expect(try CoreTest.number("1 / 0") == .infinity)
        #expect(try CoreTest.number("0 / 0")?.isNaN == true)
        #expect(try CoreTest.number("'6' * '7'") == 42)
        #expect(try CoreTest.boolean("1 + 2 == 3 && 2 * 2 > 3") == true)
        #expect(try CoreTest.number("5 & 3 | 8 ^ 1") == 9)
        #expect(try CoreTest.number("1 << 4 >> 2") == 4)
        #expect(try CoreTest.number("-1 >>> 28") == 15)
        #expect(try CoreTest.number("~5") == -6)
    }

    @Test func plusJoinsWhenEitherSideIsText() throws {
        #expect(try CoreTest.text("'a' + 1") == "a1")
        #expect(try CoreTest.text("1 + 'a'") == "1a")
        #expect(try CoreTest.text("1 + 2 + 'a'") == "3a")
        #expect(try CoreTest.text("'a' + 1 + 2") == "a12")
        #expect(try CoreTest.text("'x' + null") == "x")
        #expect(try CoreTest.text("'x' + true") == "xtrue")
        #expect(try CoreTest.text("'' + 0.1 + 0.2") == "0.10.2")
        #expect(try CoreTest.text("'' + (0.1 + 0.2)") == "0.30000000000000004")
        #expect(try CoreTest.number("true + 1") == 2)
        #expect(try CoreTest.number("null + 1") == 1)
    }

    @Test func equalityDoesNotCast() throws {
        #expect(try CoreTest.boolean("1 == '1'") == false)
        #expect(try CoreTest.boolean("1 != '1'") == true)
        #expect(try CoreTest.boolean("'a' == 'a'") == true)
        #expect(try CoreTest.boolean("'a' == 'A'") == false)
        #expect(try CoreTest.boolean("null == null") == true)
        #expect(try CoreTest.boolean("null == ''") == false)
        #expect(try CoreTest.boolean("true == 1") == false)
        #expect(try CoreTest.boolean("var a = [1]; var b = [1]; [a == a, a == b][0] && !(a == b)") == true)
    }

    @Test func comparisons() throws {
        #expect(try CoreTest.boolean("2 < 10") == true)
        #expect(try CoreTest.boolean("'2' < '10'") == false)   // texts compare as texts
        #expect(try CoreTest.boolean("'b' > 'a'") == true)
        #expect(try CoreTest.boolean("2 <= 2 && 3 >= 4") == false)
        #expect(try CoreTest.boolean("(0/0) < 1 || (0/0) >= 1") == false)
    }

    @Test func logicalOperatorsShortCircuit() throws {
        // The right side would fail if evaluated.
        #expect(try CoreTest.boolean("false && [][1] == 1") == false)
        #expect(try CoreTest.boolean("true || [][1] == 1") == true)
        #expect(try CoreTest.boolean("var n = 0; function bump() { n += 1; return true } false && bump(); true || bump(); n == 0") == true)
        #expect(try CoreTest.boolean("!true") == false)
        #expect(try CoreTest.boolean("!!true") == true)
        #expect(CoreTest.error("1 && true")?.ruleId == "arcade/runtime-error")
    }
}
