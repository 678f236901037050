import Testing
import Rules
import WebMap

/// Lints `bytes` as an explicitly named file with the default configuration and no snapshots.
private func lint(_ bytes: [UInt8], isExplicit: Bool = true) throws -> FileReport? {
    var options = LintOptions()
    options.configuration = .default
    options.useDefaultSnapshots = false
    return try Linter(options: options).lint(path: "/tmp/x.json", text: SourceText(bytes: bytes), isExplicit: isExplicit)
}

private func diagnostics(_ text: String) throws -> [Diagnostic] { try lint(Array(text.utf8))?.diagnostics ?? [] }
private func diagnostics(bytes: [UInt8]) throws -> [Diagnostic] { try lint(bytes)?.diagnostics ?? [] }

private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

@Suite struct JSONRulesTests {
    // MARK: json/duplicate-key

    @Test func duplicateKeyInMinifiedFileCountsUnicodeScalars() throws {
        // "e\u{301}" is one character but two scalars; 𝄞 is one scalar of four bytes.
        let text = "{\"title\":\"Cafe\u{301} 𝄞\",\"x\":1,\"x\":2,\"operationalLayers\":[]}"
        let found = try diagnostics(text).filter { $0.ruleId == "json/duplicate-key" }
        try #require(found.count == 1)
        // {"title":"Cafe◌́ 𝄞","x":1,"  -> the second "x" opens at scalar 26 (25 if characters were counted).
        #expect(found[0].line == 1)
        #expect(found[0].column == 26)
        #expect(found[0].pointer == "/x")
        #expect(found[0].severity == .warning)
        #expect(found[0].message.contains("\"x\""))
        #expect(found[0].message.contains("last value is used"))
        #expect(found[0].message.contains("line 1, column 20"))
    }

    @Test func byteOrderMarkIsNotAColumn() throws {
        let text = "{\"x\":1,\"x\":2,\"baseMap\":{}}"
        let plain = try diagnostics(text).first { $0.ruleId == "json/duplicate-key" }
        let marked = try diagnostics(bytes: bom + Array(text.utf8)).first { $0.ruleId == "json/duplicate-key" }
        #expect(plain?.column == 8)
        #expect(marked?.column == 8)
        #expect(marked?.line == 1)
    }

    @Test func everyLaterOccurrenceIsReportedWithItsPointerAndLayer() throws {
        let text = """
            {
              "operationalLayers": [
                {"id": "Trees_1234", "title": "Trees", "title": "Street trees", "title": "Trees 2024"}
              ],
              "baseMap": {}
            }
            """
        let found = try diagnostics(text).filter { $0.ruleId == "json/duplicate-key" }
        #expect(found.map(\.pointer) == ["/operationalLayers/0/title", "/operationalLayers/0/title"])
        #expect(found.map(\.column) == [44, 69])
        #expect(found.allSatisfy { $0.line == 3 && $0.layer?.id == "Trees_1234" })
    }

    // MARK: json/syntax

    @Test func syntaxErrorIsWhereTheParserStopped() throws {
        let found = try diagnostics("{\"operationalLayers\": [],\n  \"baseMap\": }\n")
        #expect(found.count == 1)
        #expect(found.first?.ruleId == "json/syntax")
        #expect(found.first?.line == 2)
        #expect(found.first?.column == 14)
        #expect(found.first?.pointer == "")
    }

    @Test func trailingCommaAndUnterminatedString() throws {
        let comma = try diagnostics("{\n  \"baseMap\": {},\n}")
        #expect(comma.map(\.ruleId) == ["json/syntax"])
        #expect(comma.first.map { ($0.line, $0.column) } ?? (0, 0) == (3, 1))
        let string = try diagnostics("{\"baseMap\": {\"title\": \"Topo}}")
        #expect(string.map(\.ruleId) == ["json/syntax"])
        #expect(string.first?.column == 23)
    }

    @Test(arguments: ["", "   ", "\n\n\t \r\n"])
    func emptyOrBlankFileIsSyntaxAtStart(text: String) throws {
        let found = try diagnostics(text)
        #expect(found.count == 1)
        #expect(found.first?.ruleId == "json/syntax")
        #expect(found.first?.line == 1)
        #expect(found.first?.column == 1)
        #expect(found.first?.message.contains("empty") == true)
    }

    @Test func byteOrderMarkOnlyFileIsEmpty() throws {
        for bytes in [bom, bom + Array(" \n".utf8)] {
            let found = try diagnostics(bytes: bytes)
            #expect(found.map(\.ruleId) == ["json/syntax"])
            #expect(found.first.map { ($0.line, $0.column) } ?? (0, 0) == (1, 1))
        }
    }

    @Test func nonASCIIBeforeASyntaxErrorCountsScalars() throws {
        // "Ünïcödé" is seven scalars; the error is the missing comma before "baseMap".
        let found = try diagnostics("{\"title\": \"Ünïcödé\" \"baseMap\": {}}")
        #expect(found.map(\.ruleId) == ["json/syntax"])
        #expect(found.first?.column == 21)
    }

    // MARK: json/encoding

    @Test func latin1InsideAStringIsEncodingAtTheByte() throws {
        let bytes = bom + Array("{\"baseMap\": {\"title\": \"Caf".utf8) + [0xE9] + Array("\"}}".utf8)
        let found = try diagnostics(bytes: bytes)
        #expect(found.map(\.ruleId) == ["json/encoding"])
        #expect(found.first?.line == 1)
        #expect(found.first?.column == 27)
    }

    @Test func invalidByteOutsideAStringIsEncodingNotSyntax() throws {
        let bytes = Array("{\"baseMap\": {}}\n".utf8) + [0xFF]
        let found = try diagnostics(bytes: bytes)
        #expect(found.map(\.ruleId) == ["json/encoding"])
        #expect(found.first.map { ($0.line, $0.column) } ?? (0, 0) == (2, 1))
    }

    @Test func utf16IsEncoding() throws {
        let text = Array("{\"baseMap\": {}}".utf8)
        let withMark = try diagnostics(bytes: [0xFF, 0xFE] + text.flatMap { [$0, 0] })
        let withoutMark = try diagnostics(bytes: text.flatMap { [0, $0] })
        #expect(withMark.map(\.ruleId) == ["json/encoding"])
        #expect(withMark.first?.message.contains("UTF-16") == true)
        #expect(withoutMark.map(\.ruleId) == ["json/encoding"])
    }

    @Test func validNonASCIIOutsideAStringIsSyntax() throws {
        let found = try diagnostics("{\"baseMap\": é}")
        #expect(found.map(\.ruleId) == ["json/syntax"])
    }

    @Test func bytesExampleShowsInvalidBytesEscaped() {
        let example = RuleExample.bytes(Array("{\"title\": \"Caf".utf8) + [0xE9] + Array("\", \"é\": 1}".utf8))
        #expect(example.displayText == "{\"title\": \"Caf\\xE9\", \"é\": 1}")
        #expect(RuleExample.bytes(bom + Array("{}".utf8)).displayText == "\\xEF\\xBB\\xBF{}")
    }

    // MARK: json/too-deep

    @Test func nestingBeyond512IsTooDeep() throws {
        let deep = try diagnostics(String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
        #expect(deep.map(\.ruleId) == ["json/too-deep"])
        #expect(deep.first?.column == 513)
        let limit = try diagnostics(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
        #expect(limit.map(\.ruleId) == ["json/not-a-map"])
    }

    @Test func veryDeepNestingDoesNotCrash() throws {
        let found = try diagnostics(String(repeating: "{\"a\":[", count: 200_000))
        #expect(found.map(\.ruleId) == ["json/too-deep"])
    }

    // MARK: json/not-a-map

    @Test(arguments: ["[]", "null", "42", "\"map\"", "true", "{}", "{\"title\": \"Trees\"}"])
    func topLevelValuesThatAreNotMaps(text: String) throws {
        let found = try diagnostics(text)
        #expect(found.map(\.ruleId) == ["json/not-a-map"])
        #expect(found.first.map { ($0.line, $0.column) } ?? (0, 0) == (1, 1))
    }

    @Test func notAMapIsAtTheRootValue() throws {
        let found = try diagnostics(bytes: bom + Array("\n\n   [1, 2]".utf8))
        #expect(found.first.map { ($0.ruleId, $0.line, $0.column) } ?? ("", 0, 0) == ("json/not-a-map", 3, 4))
    }

    @Test func notAMapHintsWhatTheFileIs() throws {
        let layer = try diagnostics(#"{"id": 0, "name": "Trees", "type": "Feature Layer", "geometryType": "esriGeometryPoint", "fields": []}"#)
        #expect(layer.first?.message.contains("--services") == true)
        let snapshot = try diagnostics(#"{"https://example.com/arcgis/rest/services/Trees/FeatureServer/0": {"fields": []}}"#)
        #expect(snapshot.first?.message.contains("services snapshot") == true)
        let popup = try diagnostics(#"{"title": "{Address}", "description": "<b>{Address}</b>"}"#)
        #expect(popup.first?.message.contains("--layer") == true)
    }

    @Test func filesFoundInADirectoryAreSkippedSilently() throws {
        #expect(try lint(Array("[]".utf8), isExplicit: false) == nil)
        // Broken JSON is still reported: it may be a broken map.
        #expect(try lint(Array("{".utf8), isExplicit: false)?.diagnostics.map(\.ruleId) == ["json/syntax"])
    }

    @Test func mapsAndPopupsAreNotReportedAsNotAMap() throws {
        for text in [#"{"baseMap": {}}"#, #"{"item": {}, "itemData": {"operationalLayers": []}}"#,
                     #"{"fieldInfos": []}"#, #"{"popupElements": []}"#] {
            #expect(try !diagnostics(text).contains { $0.ruleId == "json/not-a-map" }, "\(text)")
        }
    }
}
