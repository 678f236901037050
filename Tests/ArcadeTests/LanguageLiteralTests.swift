import Arcade
import Testing

/// Literals, template literals, comments and optional semicolons
/// (https://developers.arcgis.com/arcade/guide/template-literals/, .../guide/types/).
@Suite struct LanguageLiteralTests {
    @Test func numbersTextsAndConstants() throws {
        #expect(try CoreTest.number("1") == 1)
        #expect(try CoreTest.number("1.5") == 1.5)
        #expect(try CoreTest.number("1e3") == 1000)
        #expect(try CoreTest.number(".5") == 0.5)
        #expect(try CoreTest.text("'it\\'s'") == "it's")
        #expect(try CoreTest.text(#""say \"hi\"""#) == "say \"hi\"")
        #expect(try CoreTest.text(#"'a\nb\tc\\d'"#) == "a\nb\tc\\d")
        #expect(try CoreTest.text(#"'\u00e9\u0041'"#) == "éA")
        #expect(try CoreTest.boolean("true") == true)
        #expect(try CoreTest.boolean("FALSE") == false)
        #expect(try CoreTest.isNull("null"))
        #expect(try CoreTest.number("PI") == Double.pi)
        #expect(try CoreTest.number("-Infinity") == -Double.infinity)
    }

    @Test func arraysAndDictionaries() throws {
        #expect(try CoreTest.number("var a = [1, 'a', [2, 3]]; a[2][1]") == 3)
        #expect(try CoreTest.text("var a = [1, 'a']; a[-1]") == "a")
        #expect(try CoreTest.number(#"var d = { "a": 1, b: 2 }; d.a + d["B"]"#) == 3)
        // Arrays grow by one at their end, not further (https://developers.arcgis.com/arcade/guide/types/).
        #expect(try CoreTest.number("var z = [1,2,3]; z[3] = 24; z[3]") == 24)
        #expect(CoreTest.error("var z = [1,2,3]; z[1000] = 23")?.ruleId == "arcade/runtime-error")
        // Arrays and dictionaries are shared: a change through one variable shows through the other.
        #expect(try CoreTest.number("var a = [1]; var b = a; b[0] = 5; a[0]") == 5)
    }

    /// https://developers.arcgis.com/arcade/guide/template-literals/
    @Test func templateLiterals() throws {
        #expect(try CoreTest.text("`Hello World`") == "Hello World")
        #expect(try CoreTest.text("var message = `My name is \"Dave\"`; message") == "My name is \"Dave\"")
        #expect(try CoreTest.text("`Corn: 5,000\nWheat: 4,000`") == "Corn: 5,000\nWheat: 4,000")
        let context = CoreTest.context([("STUDENTS", .text("15,000")), ("UNIVERSITY", .text("the University of California"))])
        #expect(try CoreTest.text("`There are ${$feature.STUDENTS} students at ${$feature.UNIVERSITY}.`", context)
                == "There are 15,000 students at the University of California.")
        #expect(try CoreTest.text("`a ${`b ${1 + 1} c`} d ${ {x: 1}.x }`") == "a b 2 c d 1")
        #expect(try CoreTest.text(#"`\${not} \` ${'}'}`"#) == "${not} ` }")
    }

    @Test func constantsAreNotSharedBetweenEvaluations() throws {
        #expect(try CoreTest.text("TextFormatting.NewLine") == "\n")
        #expect(try CoreTest.text("var t = TextFormatting; t.NewLine = 'x'; t.NewLine") == "x")
        #expect(try CoreTest.text("TextFormatting.NewLine") == "\n")
        #expect(try CoreTest.text("var TextFormatting = {NewLine: 'mine'}; TextFormatting.NewLine") == "mine")
    }

    @Test func commentsAndSemicolons() throws {
        #expect(try CoreTest.number("// a comment\nvar x = 1 /* inline */ + 1\n/* multi\nline */ x") == 2)
        #expect(try CoreTest.number("var x = 1\nvar y = 2\nx + y") == 3)
        #expect(try CoreTest.number("var x = 1; var y = 2; x + y;") == 3)
    }

    @Test func identifiersAreCaseInsensitive() throws {
        #expect(try CoreTest.number("var Total = 2; TOTAL + total") == 4)
        #expect(try CoreTest.number("function Twice(n) { return n * 2 } TWICE(3)") == 6)
        #expect(try CoreTest.text("IIF(true, 'a', 'b')") == "a")
        #expect(try CoreTest.number("VAR x = 1; IF (X == 1) { RETURN 7 } x") == 7)
    }
}
