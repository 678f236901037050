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

    @Test func pointersEscapeAndResolve() throws {
        let pointer = JSONPointer.root / "a/b" / "m~n" / 0
        #expect(pointer.description == "/a~1b/m~0n/0")
        #expect(JSONPointer(parsing: pointer.description) == pointer)
        let (parsed, _) = try parse(#"{"a/b": {"m~n": ["x"]}}"#)
        #expect(pointer.resolve(in: parsed.root)?.string == "x")
    }
}
