import Foundation
import Testing
import WebMap

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> (ParsedJSON, SourceText) {
        let source = SourceText(string: text)
        return (try JSONParser.parse(source), source)
    }

    func parseError(_ bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(SourceText(bytes: bytes))
            return nil
        } catch {
            return error
        }
    }

    @Test func readsEveryKindOfValue() throws {
        let (parsed, _) = try parse(#"{"a": [1, -2.5, 3e2, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}}"#)
        let a = try #require(parsed.root["a"]?.array)
        #expect(a[0].integer == 1)
        #expect(a[1].number == -2.5)
        #expect(a[2].number == 300)
        #expect(a[3].bool == true)
        #expect(a[4].bool == false)
        #expect(a[5].isNull)
        #expect(a[6].string == "x\né😀")
        #expect(parsed.root["b"]?.object?.isEmpty == true)
    }

    @Test func positionsCountUnicodeScalarsOnAMinifiedLine() throws {
        let text = #"{"name":"Café 😀","value":42}"#
        let (parsed, source) = try parse(text)
        let value = try #require(parsed.root["value"])
        // {"name":"Café 😀","value": is 25 scalars (é and 😀 one each), so 42 starts at column 26.
        #expect(source.position(ofOffset: value.offset) == SourcePosition(line: 1, column: 26))
    }

    @Test func positionsAcrossLinesAndAfterAByteOrderMark() throws {
        let text = "\u{FEFF}{\n  \"a\": 1,\n  \"b\": [true]\n}"
        let (parsed, source) = try parse(text)
        #expect(source.position(ofOffset: try #require(parsed.root["a"]).offset) == SourcePosition(line: 2, column: 8))
        #expect(source.position(ofOffset: try #require(parsed.root["b"]?[0]).offset) == SourcePosition(line: 3, column: 9))
        #expect(source.position(ofOffset: parsed.root.offset) == SourcePosition(line: 1, column: 1))
    }

    @Test func duplicateKeysAreReportedAndTheLastWins() throws {
        let (parsed, _) = try parse(#"{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}"#)
        #expect(parsed.root["a"]?.integer == 3)
        #expect(parsed.root["b"]?["c"]?.integer == 2)
        #expect(parsed.duplicateKeys.map(\.pointer.description) == ["/b/c", "/a"])
    }

    @Test func duplicateKeysInLargeObjects() throws {
        let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let (parsed, _) = try parse("{\(members), \"k5\": 1, \"k39\": 2}")
        #expect(parsed.duplicateKeys.map(\.key) == ["k5", "k39"])
        #expect(parsed.root["k5"]?.integer == 1)
    }

    @Test(arguments: [
        ("", 0), ("   \n ", 0), ("{", 1), ("{\"a\" 1}", 5), ("[1,]", 3), ("{\"a\":1}x", 7), ("tru", 0),
        ("[01]", 1), ("\"abc", 0), ("[1 2]", 3), ("{'a':1}", 1), ("[\"\\x\"]", 2), ("[\"\t\"]", 2),
    ])
    func syntaxErrorsStopAtTheRightOffset(text: String, offset: Int) throws {
        let error = try #require(parseError(Array(text.utf8)))
        #expect(error.kind == .syntax)
        #expect(error.offset == offset, "\(error.message)")
    }

    @Test func invalidUTF8IsAnEncodingError() throws {
        let error = try #require(parseError(Array("{\"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)))
        #expect(error.kind == .encoding)
        #expect(error.offset == 7)
    }

    @Test func nestingIsBounded() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(parseError(Array(ok.utf8)) == nil)
        let deep = String(repeating: "[", count: 100_000)
        #expect(parseError(Array(deep.utf8))?.kind == .tooDeep)
    }

    @Test func numbersOutOfRangeAreRefusedAndBigIntegersKept() throws {
        #expect(parseError(Array("[1e400]".utf8))?.kind == .syntax)
        let (parsed, _) = try parse("[123456789012345678901234567890, -0, 9007199254740993]")
        #expect(parsed.root[0]?.number == 1.2345678901234568e29)
        #expect(parsed.root[2]?.integer == 9007199254740993)
    }

    @Test func surrogatesMustPair() {
        #expect(parseError(Array(#"["\ud800"]"#.utf8)) != nil)
        #expect(parseError(Array(#"["\udc00"]"#.utf8)) != nil)
    }

    @Test func largeFeatureArraysAreCountedNotKept() throws {
        var options = JSONParser.Options()
        options.elisionThreshold = 10
        let parsed = try JSONParser.parse(SourceText(string: #"{"layers": [{"featureSet": {"features": [{"a": 1}, {"a": 2}]}}]}"#), options: options)
        #expect(parsed.root["layers"]?[0]?["featureSet"]?["features"]?.array?.isEmpty == true)
        #expect(parsed.elidedArrays.values.first == 2)
    }

    @Test func elidedArraysAreStillChecked() throws {
        var options = JSONParser.Options()
        options.elisionThreshold = 0
        let duplicate = try JSONParser.parse(SourceText(string: #"{"fs": {"features": [{"a": 1}, {"b": 1, "c": {"d": 1}, "b": 2}]}}"#), options: options)
        #expect(duplicate.duplicateKeys.map(\.pointer.description) == ["/fs/features/1/b"])
        #expect(duplicate.duplicateKeys.first?.key == "b")
        let many = (0..<50).map { "\"k\($0)\": 1" }.joined(separator: ",")
        let large = try JSONParser.parse(SourceText(string: "{\"features\": [{\(many), \"k7\": 2}]}"), options: options)
        #expect(large.duplicateKeys.map(\.key) == ["k7"])
        let bytes = Array(#"{"features": [{"a": ""#.utf8) + [0xFF] + Array(#""}]}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(SourceText(bytes: bytes), options: options) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(SourceText(string: #"{"features": [{"a" 1}]}"#), options: options) }
    }

    @Test func elidedNumbersAreCheckedForSyntaxAndRange() throws {
        var options = JSONParser.Options()
        options.elisionThreshold = 0
        let ok = try JSONParser.parse(SourceText(string: #"{"features": [[-122.6543, 45.5, 1e3, -0, 0.25E-2, 123456789012345678901234567890]]}"#), options: options)
        #expect(ok.elidedArrays.values.first == 1)
        for bad in ["1e400", "-1E+999", String(repeating: "9", count: 400) + ".5", "01", "1.", "-", "1e", ".5"] {
            let text = "{\"features\": [[0, \(bad)]]}"
            #expect(throws: JSONParseError.self, "\(bad)") { try JSONParser.parse(SourceText(string: text), options: options) }
        }
    }

    @Test func decimalNumbersReadExactlyAsTheStandardLibraryReadsThem() throws {
        // Short decimals take a fast conversion; it must agree bit for bit with Double(String).
        var generator = SystemRandomNumberGenerator()
        var texts = ["0.1", "-0.0", "0.30000000000000004", "9007199254740993.5", "-13656274.502284", "45.123456789012345",
                     "1e22", "1e23", "123456789e-22", "4.9e-324", "1.7976931348623157e308", "2.2250738585072014e-308"]
        for _ in 0..<2000 {
            let whole = Int.random(in: -99_999_999...99_999_999, using: &generator)
            let fraction = String(UInt64.random(in: 0...UInt64.max, using: &generator)).prefix(Int.random(in: 1...18, using: &generator))
            let exponent = Bool.random(using: &generator) ? "" : "e\(Int.random(in: -30...30, using: &generator))"
            texts.append("\(whole).\(fraction)\(exponent)")
        }
        let (parsed, _) = try parse("[" + texts.joined(separator: ",") + "]")
        let values = try #require(parsed.root.array)
        for (text, node) in zip(texts, values) {
            let expected = try #require(Double(text))
            #expect(node.number?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func mediumStringsOfLargeDocumentsKeepTheirValues() throws {
        // Documents of 4 KB and more share equal strings of 16 to 64 bytes: every value must still be its own.
        let values = (0..<600).map { "esriFieldTypeString-\($0 % 37)-\(String(repeating: "x", count: $0 % 30))" }
        let (parsed, _) = try parse("[" + values.map { "\"\($0)\"" }.joined(separator: ",") + "]")
        #expect(parsed.root.array?.compactMap(\.string) == values)
    }

    @Test(arguments: 0..<9)
    func stringsAreScannedAtEveryAlignment(padding: Int) throws {
        // The string scan looks at eight bytes at a time: every special byte must be found wherever it falls.
        let pad = String(repeating: "x", count: padding)
        let (parsed, source) = try parse("{\"\(pad)k\": \"\(pad)a\\\"b é \(pad)😀 tail text\", \"v\": 1}")
        #expect(parsed.root["\(pad)k"]?.string == "\(pad)a\"b é \(pad)😀 tail text")
        let value = try #require(parsed.root["v"])
        // Columns count scalars: the é and 😀 are one column each.
        #expect(source.position(ofOffset: value.offset).column == 34 + 3 * padding)
        let control = Array("[\"\(pad)abcdefghij".utf8) + [0x01] + Array("\"]".utf8)
        #expect(parseError(control)?.offset == 2 + padding + 10)
        let invalid = Array("[\"\(pad)abcdefghij".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        #expect(parseError(invalid)?.kind == .encoding)
        let unterminated = Array("[\"\(pad)abcdefghijklmnop".utf8)
        #expect(parseError(unterminated)?.offset == 1)
    }

    @Test func pointersEscapeAndResolve() throws {
        let pointer = JSONPointer.root / "a/b" / "m~n" / 0
        #expect(pointer.description == "/a~1b/m~0n/0")
        #expect(JSONPointer(parsing: pointer.description) == pointer)
        let (parsed, _) = try parse(#"{"a/b": {"m~n": ["x"]}}"#)
        #expect(pointer.resolve(in: parsed.root)?.string == "x")
    }
}
