import Arcade
import Testing

/// The logical functions' reference examples
/// (https://developers.arcgis.com/arcade/function-reference/logical_functions/) and the decisions of
/// docs/arcade.md ("Logical functions").
@Suite struct LogicalFunctionTests {
    /// logical_functions/#boolean: "returns `true`", "returns `false`. A value of 1 would return `true`", "returns `false`".
    @Test func booleanExamples() throws {
        #expect(try CoreTest.boolean("Boolean('true')") == true)
        #expect(try CoreTest.boolean("Boolean(0)") == false)
        #expect(try CoreTest.boolean("Boolean(1)") == true)
        #expect(try CoreTest.boolean("Boolean('hello')") == false)
    }

    /// logical_functions/#decode: "returns a meaningful value when a field contains coded values".
    @Test func decodeExample() throws {
        let source = "var code = $feature.codedValue;\nvar decodedValue = Decode(code, 1, 'Residential', 2, 'Commercial', 3, 'Mixed', 'Other');\ndecodedValue"
        #expect(try CoreTest.text(source, CoreTest.context([("codedValue", .number(2))])) == "Commercial")
        #expect(try CoreTest.text(source, CoreTest.context([("codedValue", .number(3))])) == "Mixed")
        #expect(try CoreTest.text(source, CoreTest.context([("codedValue", .number(9))])) == "Other")
        // No default: null. Compared without casting, as `==`.
        #expect(try CoreTest.isNull("Decode(5, 1, 'a')"))
        #expect(try CoreTest.text("Decode('1', 1, 'number', '1', 'text', 'none')") == "text")
    }

    /// logical_functions/#defaultvalue: "If a feature has no value in the POP_2000 field then 'no data' is returned";
    /// "if this value is an empty array, then the empty array will be returned".
    @Test func defaultValueExamples() throws {
        let source = "DefaultValue($feature.POP_2000, 'no data')"
        #expect(try CoreTest.text(source, CoreTest.context([("POP_2000", .null)])) == "no data")
        #expect(try CoreTest.number(source, CoreTest.context([("POP_2000", .number(1200))])) == 1200)
        #expect(try CoreTest.text("DefaultValue('', 'x')") == "x")
        #expect(try CoreTest.text("TypeOf(DefaultValue([], 'x'))") == "Array")
        // The container form: a key, or a path of keys and indexes.
        #expect(try CoreTest.number("DefaultValue({a: {b: [5, 6]}}, ['a', 'b', 1], 0)") == 6)
        #expect(try CoreTest.number("DefaultValue({a: 1}, 'missing', 0)") == 0)
        #expect(try CoreTest.number("DefaultValue([1, null], 1, 9)") == 9)
    }

    /// logical_functions/#iif and arcade.md's example `IIf($feature.DBH > 20, "big", "small")`.
    @Test func iifExamples() throws {
        #expect(try CoreTest.text("IIf($feature.DBH > 20, \"big\", \"small\")", CoreTest.context([("DBH", .number(25))])) == "big")
        #expect(try CoreTest.text("IIf($feature.DBH > 20, \"big\", \"small\")", CoreTest.context([("DBH", .number(5))])) == "small")
        #expect(CoreTest.error("IIf('yes', 1, 2)")?.message.contains("Boolean") == true)
    }

    /// logical_functions/#isempty: null and '' are empty; other values (0, [], {}) are not.
    @Test func isEmptyExamples() throws {
        #expect(try CoreTest.boolean("IsEmpty(null)") == true)
        #expect(try CoreTest.boolean("IsEmpty('')") == true)
        #expect(try CoreTest.boolean("IsEmpty(' ')") == false)
        #expect(try CoreTest.boolean("IsEmpty(0)") == false)
        #expect(try CoreTest.boolean("IsEmpty([])") == false)
        #expect(try CoreTest.boolean("IsEmpty($feature.NAME)", CoreTest.context([("NAME", .null)])) == true)
    }

    /// logical_functions/#when: pairs of a condition and a result, then the default.
    @Test func whenExamples() throws {
        let source = "var density = $feature.POPULATION / $feature.SQ_KM;\nWhen(density < 50, 'low', density >=50 && density < 150, 'medium', density >= 150, 'high', 'n/a');"
        #expect(try CoreTest.text(source, CoreTest.context([("POPULATION", .number(1000)), ("SQ_KM", .number(100))])) == "low")
        #expect(try CoreTest.text(source, CoreTest.context([("POPULATION", .number(10000)), ("SQ_KM", .number(100))])) == "medium")
        #expect(try CoreTest.text(source, CoreTest.context([("POPULATION", .number(20000)), ("SQ_KM", .number(100))])) == "high")
        #expect(try CoreTest.text(source, CoreTest.context([("POPULATION", .number(0)), ("SQ_KM", .number(0))])) == "n/a")
        #expect(CoreTest.error("When(true, 1)")?.message.contains("odd") == true)
    }

    /// logical_functions/#typeof and #isnan.
    @Test func typeOfAndIsNan() throws {
        #expect(try CoreTest.text("TypeOf(12)") == "Number")
        #expect(try CoreTest.text("TypeOf('hello')") == "Text")
        #expect(try CoreTest.text("TypeOf(true)") == "Boolean")
        #expect(try CoreTest.text("TypeOf([1])") == "Array")
        #expect(try CoreTest.text("TypeOf({})") == "Dictionary")
        #expect(try CoreTest.text("TypeOf(null)") == "Null")
        #expect(try CoreTest.text("function f() { return 1 } TypeOf(f)") == "Function")
        #expect(try CoreTest.text("TypeOf(IsEmpty)") == "Function")
        #expect(try CoreTest.boolean("IsNan(0/0)") == true)
        #expect(try CoreTest.boolean("IsNan(Infinity * 0)") == true)
        #expect(try CoreTest.boolean("IsNan(1)") == false)
        #expect(try CoreTest.boolean("IsNan('abc')") == false)
        #expect(try CoreTest.isNull("Console('debug', 1)"))
    }
}
