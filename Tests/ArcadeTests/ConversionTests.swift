import Foundation
import Testing
import Arcade

/// `Text(value, format)`, `Number(value, pattern)` and the implicit conversions of
/// https://developers.arcgis.com/arcade/guide/type-casting/, with the examples of the Text and Number pages.
@Suite struct ConversionTests {
    @Test("Text number patterns: https://developers.arcgis.com/arcade/function-reference/text_functions/#text",
          arguments: [
              (123.0, "0000", "0123"), (123, "00", "23"), (1234, "#,###", "1,234"),
              (12345678.123, "#,###.00", "12,345,678.12"), (1234.55, "$#,###.00", "$1,234.55"),
              (1.236, "#.00", "1.24"), (1234.5678, "#,##0.00#", "1,234.568"),
              (-2, "Floor #;Basement #", "Basement 2"), (2, "Floor #;Basement #", "Floor 2"), (0.3, "#%", "30%"),
          ])
    func numberPatterns(value: Double, pattern: String, expected: String) throws {
        #expect(try callArcade("Text", number(value), text(pattern)).described == "Text:" + expected)
    }

    @Test("Number with a pattern: https://developers.arcgis.com/arcade/function-reference/data_functions/#number",
          arguments: [
              ("1,365", ",###", "1365"), ("abc10def", "abc##def", "10"), ("10.456", "00.00##", "10.456"),
              ("10.4", "00.00##", "NaN"), ("12,12,456", ",##,###", "1212456"),
              ("-12,23,345", ",##,###;-,##,###", "-1223345"), ("99.99%", "#.##%", "0.9999"),
          ])
    func numberParsing(input: String, pattern: String, expected: String) throws {
        #expect(try callArcade("Number", text(input), text(pattern)).described == "Number:" + expected)
    }

    @Test("Type casting page: Boolean and Number without a format")
    func typeCastingExamples() throws {
        // https://developers.arcgis.com/arcade/guide/type-casting/
        #expect(ArcadeValue.text("true").booleanValue == true)
        #expect(ArcadeValue.number(0).booleanValue == false)
        #expect(ArcadeValue.number(1).booleanValue == true)
        #expect(ArcadeValue.text("hello").booleanValue == false)
        #expect(ArcadeValue.boolean(true).numberValue == 1)
        #expect(ArcadeValue.boolean(false).numberValue == 0)
        let now = try callArcade("Now", context: TextDateTestContext(now: 1_661_206_550_823))
        #expect(try callArcade("Number", now).described == "Number:1661206550823")
        #expect(ArcadeValue.text(" 12.5 ").numberValue == 12.5)
        #expect(ArcadeValue.text("").numberValue == 0)
        #expect(ArcadeValue.text("12abc").numberValue.isNaN)
        #expect(ArcadeValue.text("0x10").numberValue.isNaN)
        #expect(ArcadeValue.text("nan").numberValue.isNaN)
        #expect(ArcadeValue.text("-Infinity").numberValue == -.infinity)
        #expect(ArcadeValue.null.numberValue == 0)
    }

    @Test("Text without a format writes numbers as JavaScript does", arguments: [
        (1.0, "1"), (-0.0, "0"), (0.5, "0.5"), (1.0 / 3, "0.3333333333333333"), (0.1 + 0.2, "0.30000000000000004"),
        (1e21, "1e+21"), (123456789012345680000, "123456789012345680000"), (1e-7, "1e-7"), (0.000001, "0.000001"),
        (-1.5e-10, "-1.5e-10"), (2.5e300, "2.5e+300"), (Double.nan, "NaN"), (-Double.infinity, "-Infinity"),
        (1234.5678, "1234.5678"),
    ])
    func numberText(value: Double, expected: String) {
        #expect(ArcadeValue.number(value).textValue == expected)
    }

    @Test("Text of dates, arrays and dictionaries")
    func structuredText() throws {
        let date = try arcadeDate(2019, 3, 21)
        #expect(date.textValue == "2019-04-21T00:00:00.000Z")
        let paris = try arcadeDate(2019, 3, 21, 2, 0, 0, 0, zone: "Europe/Paris")
        #expect(paris.textValue == "2019-04-21T02:00:00.000+02:00")
        let array = ArcadeValue.array(ArcadeArray([number(1), text("a"), .null, .boolean(true)]))
        #expect(try callArcade("Text", array).textValue == "[1,\"a\",null,true]")
        let dictionary = ArcadeValue.dictionary(ArcadeDictionary([("a", number(1.5)), ("b", text("x\"y"))]))
        #expect(try callArcade("Text", dictionary).textValue == "{\"a\":1.5,\"b\":\"x\\\"y\"}")
        #expect(try callArcade("Text", .null).described == "Text:")
        #expect(try callArcade("Text", text("abc"), text("#.00")).textValue == "abc")
    }

    @Test("Decisions where the pages are silent (docs/arcade.md, Text)")
    func decisions() throws {
        #expect(try callArcade("Text", number(0), text("#")).textValue == "0")
        #expect(try callArcade("Text", number(0.125), text("0.00")).textValue == "0.13")
        #expect(try callArcade("Text", number(1), text("#.##")).textValue == "1")
        #expect(try callArcade("Text", number(-0.001), text("#.00")).textValue == "0.00")
        #expect(try callArcade("Text", number(1234567), text("#,##0")).textValue == "1,234,567")
        #expect(try callArcade("Text", number(.nan), text("#.00")).textValue == "NaN")
        #expect(try callArcade("Text", number(1e300), text("#,###")).textValue.count > 300)
        #expect(try callArcade("Number", text("12"), text("#.00")).textValue == "NaN")
        #expect(try callArcade("Number", number(5), text("#")).textValue == "5")
    }
}
