import Arcade
import Testing

/// Statements: var, assignment, if/else, loops, for-in, functions, implicit return
/// (https://developers.arcgis.com/arcade/guide/logic/, .../guide/loops/, .../guide/functions/, .../guide/variables/).
@Suite struct LanguageStatementTests {
    @Test func variablesAndAssignment() throws {
        #expect(try CoreTest.number("var a = 1, b, c = 3; b = 2; a + b + c") == 6)
        #expect(try CoreTest.isNull("var a; a"))
        #expect(try CoreTest.number("var x = 10; x += 5; x -= 3; x *= 2; x /= 4; x") == 6)
        #expect(try CoreTest.text("var s = 'a'; s += 1; s") == "a1")
        #expect(CoreTest.error("y = 1")?.ruleId == "arcade/runtime-error")
    }

    /// https://developers.arcgis.com/arcade/guide/operators/: pre and post increment.
    @Test func incrementAndDecrement() throws {
        #expect(try CoreTest.number("var x = 10;\n++x") == 11)
        #expect(try CoreTest.number("var x = 10;\nx++") == 10)
        #expect(try CoreTest.number("var x = 10; x++; x") == 11)
        #expect(try CoreTest.number("var x = 10; --x; x--; x") == 8)
        #expect(try CoreTest.number("var d = {n: 1}; d.n++; ++d['n']") == 3)
    }

    /// https://developers.arcgis.com/arcade/guide/logic/
    @Test func ifElse() throws {
        #expect(try CoreTest.text("var x = 10;\nif(x > 5){\nreturn x + \" is greater than 5\";\n}") == "10 is greater than 5")
        let nested = """
        var x = 2;
        if(x > 5){
          return x + " is greater than 5";
        } else {
          x *= 2;
          if(x > 5){
            return x + " is now greater than 5";
          } else {
            x *= 2;
            if(x > 5){
              return x + " is FINALLY greater than 5";
            } else {
              return x + " is still less than 5";
            }
          }
        }
        """
        #expect(try CoreTest.text(nested) == "8 is FINALLY greater than 5")
        let isOdd = """
        function isOdd(value){
          if ( Boolean(value % 2) ) { return "Yes. This is odd." }
          else { return "Nope. Not odd."; }
        }
        [isOdd(213), isOdd(2)]
        """
        guard case .array(let answers) = try CoreTest.value(isOdd) else { Issue.record("not an array"); return }
        #expect(answers.values.map(\.textValue) == ["Yes. This is odd.", "Nope. Not odd."])
        // "The condition must evaluate to either true or false. Otherwise, the expression will fail."
        #expect(CoreTest.error("if (1) { 2 }")?.ruleId == "arcade/runtime-error")
    }

    /// https://developers.arcgis.com/arcade/guide/loops/ and .../guide/types/ (for-in gives indexes).
    @Test func loops() throws {
        #expect(try CoreTest.number("var t = 0; for (var i = 0; i < 5; i++) { t += i } t") == 10)
        #expect(try CoreTest.number("var myArray = [10,20,30,40,50,60,70]; var total = 0; for(var index in myArray){ total += myArray[index]; } return total;") == 280)
        #expect(try CoreTest.number("var myArray = [10,20,30,40,50,60,70]; var total = 0; for(var index in myArray){ total += index; } return total;") == 21)
        #expect(try CoreTest.number("var i = 0; while (i < 10) { i++; if (i == 4) break; } i") == 4)
        #expect(try CoreTest.number("var t = 0; for (var i = 0; i < 10; i++) { if (i % 2 == 0) continue; t += i } t") == 25)
        #expect(try CoreTest.number("var i = 0; for (;;) { if (++i >= 3) break } i") == 3)
        #expect(try CoreTest.text("var keys = ''; var d = {b: 1, a: 2}; for (var k in d) keys += k; keys") == "ba")
        #expect(try CoreTest.text("var k; var s = ''; for (k in ['x', 'y']) s += k; s") == "01")
        let context = CoreTest.context([("Name", .text("Oak")), ("DBH", .number(25))])
        #expect(try CoreTest.text("var s = ''; for (var f in $feature) { s += f + '=' + $feature[f] + ';' } s", context) == "Name=Oak;DBH=25;")
    }

    /// https://developers.arcgis.com/arcade/guide/functions/
    @Test func userFunctions() throws {
        #expect(try CoreTest.number("function calculatePercentage(num, dem) {\nvar places = 2;\nreturn Round((num / dem) * 100, places);\n}\ncalculatePercentage(50,75);") == 66.67
                || CoreTest.error("Round(1, 2)")?.ruleId == "arcade/unsupported-function")
        #expect(try CoreTest.number("function f(n) { if (n <= 1) { return 1 } return n * f(n - 1) } f(10)") == 3_628_800)
        #expect(try CoreTest.isNull("function f() { var x = 1 } f()"))
        // Functions see the variables declared around them, and change them.
        #expect(try CoreTest.number("var count = 0; function bump() { count += 1; return count } bump(); bump(); count") == 2)
        // Locals stay local.
        #expect(CoreTest.error("function f() { var inner = 1; return inner } f(); inner")?.ruleId == "arcade/runtime-error")
        // Functions are values: passed and called.
        #expect(try CoreTest.number("function twice(x) { return x * 2 } function apply(g, v) { return g(v) } apply(twice, 4)") == 8)
        #expect(CoreTest.error("function f(a) { return a } f(1, 2)")?.ruleId == "arcade/runtime-error")
        #expect(CoreTest.error("var x = 1; x(2)")?.message.contains("not a function") == true)
    }

    @Test func implicitReturn() throws {
        #expect(try CoreTest.number("1; 2; 3") == 3)
        #expect(try CoreTest.text("var x = 5; if (x > 1) { 'big' } else { 'small' }") == "big")
        #expect(try CoreTest.number("var x = 5; x") == 5)
        #expect(try CoreTest.isNull("var x = 5"))
        #expect(try CoreTest.isNull(""))
        #expect(try CoreTest.number("return 1; 2") == 1)
    }
}
