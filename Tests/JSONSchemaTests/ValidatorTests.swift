import Foundation
import JSONSchema
import Testing
import WebMap

/// The validator's own behaviour beyond the test suite: positions, messages, best-branch selection, number and
/// string semantics, references, threads.
@Suite struct ValidatorTests {
    func schema(_ text: String, draft: SchemaDraft = .draft2020_12, loader: (any SchemaLoader)? = nil) throws -> Schema {
        try SchemaRegistry(loader: loader, defaultDraft: draft).compile(JSONParser.parse(text).root)
    }

    func violations(_ schema: Schema, _ instance: String) throws -> [SchemaViolation] {
        schema.validate(try JSONParser.parse(instance))
    }

    func position(_ violation: SchemaViolation, in text: String) -> String {
        SourceText(string: text).position(ofOffset: violation.instanceOffset).description
    }

    /// Schemas that refer to themselves in place, through a subschema that is only a `$ref` (forwarded without
    /// its keyword), once recursed until the stack overflowed (a crash); they are violations now.
    @Test func inPlaceCyclesThroughABareRefAreViolationsNotCrashes() throws {
        for text in [##"{"allOf": [{"$ref": "#"}]}"##, ##"{"anyOf": [{"$ref": "#"}]}"##,
                     ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}"##] {
            let found = try violations(try schema(text), "true")
            #expect(found.contains { $0.message.contains("refers to itself without end") }, "\(text): \(found.map(\.message))")
        }
    }

    // MARK: Positions and messages

    @Test func everyViolationIsReportedAtItsValue() throws {
        let s = try schema(#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"minimum": 3}}}"#)
        let text = """
            {
              "a": "x",
              "b": 2,
              "c": 1
            }
            """
        let found = try violations(s, text)
        #expect(found.map(\.instancePointer.description) == ["/a", "/b", "/c"])
        #expect(found.map { position($0, in: text) } == ["2:8", "3:8", "4:8"])
        #expect(found.map(\.keyword) == ["type", "type", "minimum"])
        #expect(found[0].message == "a must be an integer — found string 'x'.")
        #expect(found[0].expected == "integer" && found[0].found == "string")
        #expect(found[2].message == "c must be at least 3 — found 1.")
        #expect(found[0].schemaLocation.hasSuffix("#/properties/a/type"))
    }

    @Test func columnsAreExactInAMinifiedFile() throws {
        let s = try schema(#"{"properties": {"layers": {"items": {"properties": {"layerType": {"enum": ["ArcGISFeatureLayer", "GroupLayer"]}}}}}}"#)
        let text = #"{"layers":[{"layerType":"GroupLayer"},{"layerType":"ArcGISFeaturelayer"}]}"#
        let found = try violations(s, text)
        #expect(found.count == 1)
        #expect(found.first?.instancePointer.description == "/layers/1/layerType")
        #expect(found.first.map { position($0, in: text) } == "1:52")
        #expect(found.first?.message == "layerType must be one of ArcGISFeatureLayer, GroupLayer — found 'ArcGISFeaturelayer'. Did you mean 'ArcGISFeatureLayer'?")
    }

    @Test func constAndEnumSuggestTheClosestString() throws {
        let one = try schema(#"{"properties": {"type": {"const": "fields"}}}"#)
        #expect(try violations(one, #"{"type": "feilds"}"#).map(\.message) == ["type must be 'fields' — found 'feilds'. Did you mean 'fields'?"])
        #expect(try violations(one, #"{"type": "media"}"#).map(\.message) == ["type must be 'fields' — found 'media'."])
        let many = try schema(#"{"enum": ["textbox", "textarea", "richtext", 1]}"#)
        #expect(try violations(many, #""rich text""#).first?.message.hasSuffix("Did you mean 'richtext'?") == true)
        #expect(try violations(many, "2").first?.message == "The document must be one of textbox, textarea, richtext, 1 — found 2.")
    }

    @Test func requiredAndAdditionalPropertiesNameTheProperty() throws {
        let s = try schema(#"{"type": "object", "required": ["title"], "properties": {"title": {}, "url": {}}, "additionalProperties": false}"#)
        let text = #"{"titel": "Trees", "url": "x"}"#
        let found = try violations(s, text)
        #expect(found.map(\.keyword) == ["required", "additionalProperties"])
        #expect(found[0].message == "The document is missing required property 'title'. It has 'titel': is that a misspelling?")
        #expect(found[1].instancePointer.description == "/titel")
        #expect(found[1].message == "The document has property 'titel', which is not allowed here. Did you mean 'title'?")
        #expect(position(found[1], in: text) == "1:2")
    }

    @Test func itemsAreNamedWithTheirArray() throws {
        let s = try schema(#"{"properties": {"fieldInfos": {"items": {"required": ["fieldName"]}}}}"#)
        let found = try violations(s, #"{"fieldInfos": [{"fieldName": "a"}, {}]}"#)
        #expect(found.map(\.message) == ["fieldInfos[1] is missing required property 'fieldName'."])
    }

    // MARK: anyOf / oneOf

    static let layers = """
        {"oneOf": [
          {"properties": {"layerType": {"const": "ArcGISFeatureLayer"}, "url": {"type": "string"}}, "required": ["layerType", "url"]},
          {"properties": {"layerType": {"const": "GroupLayer"}, "layers": {"type": "array"}}, "required": ["layerType", "layers"]},
          {"properties": {"layerType": {"const": "VectorTileLayer"}, "styleUrl": {"type": "string"}}, "required": ["layerType"]}
        ]}
        """

    @Test func aDiscriminatorPicksTheAlternative() throws {
        let s = try schema(Self.layers)
        let found = try violations(s, #"{"layerType": "GroupLayer", "layers": 3}"#)
        #expect(found.map(\.message) == ["layers must be an array — found integer 3."])
    }

    @Test func aWrongDiscriminatorIsOneViolationWithASuggestion() throws {
        let s = try schema(Self.layers)
        let text = #"{"layerType": "GroupLayr", "layers": []}"#
        let found = try violations(s, text)
        #expect(found.count == 1)
        #expect(found.first?.instancePointer.description == "/layerType")
        #expect(found.first.map { position($0, in: text) } == "1:15")
        #expect(found.first?.message == "layerType must be one of ArcGISFeatureLayer, GroupLayer, VectorTileLayer — found 'GroupLayr'. Did you mean 'GroupLayer'?")
    }

    @Test func alternativeTypesAndValuesAreListedTogether() throws {
        let types = try schema(#"{"properties": {"v": {"anyOf": [{"type": "string"}, {"type": "array"}]}}}"#)
        #expect(try violations(types, #"{"v": 4}"#).map(\.message) == ["v must be a string or an array — found integer 4."])
        let values = try schema(#"{"anyOf": [{"const": "textbox"}, {"const": "textarea"}, {"enum": ["richtext"]}]}"#)
        #expect(try violations(values, #""textaera""#).map(\.message)
                == ["The document must be one of textbox, textarea, richtext — found 'textaera'. Did you mean 'textarea'?"])
    }

    @Test func theClosestAlternativeIsChosenWithoutADiscriminator() throws {
        let s = try schema(#"{"anyOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}]}"#)
        #expect(try violations(s, #"{"a": 1, "b": "2"}"#).map(\.instancePointer.description) == ["/b"])
    }

    @Test func oneOfMatchingTwiceSaysWhich() throws {
        let s = try schema(#"{"oneOf": [{"type": "integer"}, {"minimum": 2}]}"#)
        let found = try violations(s, "3")
        #expect(found.map(\.keyword) == ["oneOf"])
        #expect(found.first?.message.contains("alternatives 1 and 2") == true)
        #expect(try violations(s, "1").isEmpty)
    }

    @Test func anyOfRequiredNamesEveryChoice() throws {
        let s = try schema(#"{"anyOf": [{"required": ["url"]}, {"required": ["featureCollection"]}, {"required": ["itemId"]}]}"#)
        #expect(try violations(s, "{}").map(\.message) == ["The document must have one of 'url', 'featureCollection' or 'itemId' — it has none of them."])
    }

    // MARK: Values

    @Test func numbersCompareByValue() throws {
        #expect(try violations(schema(#"{"const": 1}"#), "1.0").isEmpty)
        #expect(try violations(schema(#"{"enum": [2.0, "a"]}"#), "2").isEmpty)
        #expect(try violations(schema(#"{"type": "integer"}"#), "1.0").isEmpty)
        #expect(try !violations(schema(#"{"type": "integer"}"#), "1.5").isEmpty)
        #expect(try violations(schema(#"{"uniqueItems": true}"#), "[1, 1.0]").map(\.keyword) == ["uniqueItems"])
        #expect(try violations(schema(#"{"const": 9007199254740993}"#), "9007199254740992").map(\.keyword) == ["const"])
    }

    @Test func multipleOfHandlesDecimalFractions() throws {
        let cents = try schema(#"{"multipleOf": 0.01}"#)
        for value in ["19.99", "0.07", "1e2", "-3.33"] { #expect(try violations(cents, value).isEmpty, "\(value)") }
        #expect(try !violations(cents, "19.995").isEmpty)
        #expect(try violations(schema(#"{"multipleOf": 0.0001}"#), "0.0075").isEmpty)
        #expect(try violations(schema(#"{"multipleOf": 3}"#), "7").map(\.message) == ["The document must be a multiple of 3 — found 7."])
    }

    @Test func lengthsCountUnicodeScalars() throws {
        let s = try schema(#"{"maxLength": 2, "minLength": 2}"#)
        #expect(try violations(s, #""💩é""#).isEmpty)
        #expect(try violations(s, #""\ud83d\udca9""#).map(\.keyword) == ["minLength"])
        #expect(try violations(s, #""abc""#).map(\.keyword) == ["maxLength"])
    }

    @Test func patternsFollowECMAScript() throws {
        let digits = try schema(#"{"pattern": "^\\d+$"}"#)
        #expect(try violations(digits, #""123""#).isEmpty)
        #expect(try !violations(digits, #""١٢٣""#).isEmpty, "\\d is ASCII only")
        #expect(try !violations(digits, #""123\n""#).isEmpty, "$ does not match before a final newline")
        #expect(try violations(schema(#"{"pattern": "^[12]\\.[0-9]+$"}"#), #""2.28""#).isEmpty)
        #expect(try violations(schema(#"{"pattern": "FeatureServer"}"#), #""https://h/FeatureServer/0""#).isEmpty)
        #expect(throws: SchemaError.self) { try schema(#"{"pattern": "(unclosed"}"#) }
    }

    /// A pattern is read scalar by scalar: a combining mark after `.` or `^` makes one `Character` with it, but the
    /// dot still matches any character and the caret still anchors; a prepended mark (U+0600) before `[` does
    /// not hide the class's opening.
    @Test func syntaxCharactersFollowedOrPrecededByMarksKeepTheirMeaning() throws {
        #expect(try violations(schema(#"{"pattern": "^a.\u0301$"}"#), #""ab\u0301""#).isEmpty)
        #expect(try violations(schema(#"{"pattern": "^a.\u0301$"}"#), #""a.\u0301x""#).map(\.keyword) == ["pattern"])
        #expect(try violations(schema(#"{"pattern": "^\u0301x"}"#), #""\u0301x""#).isEmpty)
        #expect(try violations(schema(#"{"pattern": "^\u0301x"}"#), #""y\u0301x""#).map(\.keyword) == ["pattern"])
        #expect(try violations(schema(#"{"pattern": "\u0600[^]"}"#), #""\u0600z""#).isEmpty)
        #expect(try violations(schema(#"{"pattern": "\u0600[]"}"#), #""\u0600z""#).map(\.keyword) == ["pattern"])
    }

    @Test func repeatedKeysUseTheLastOccurrence() throws {
        let s = try schema(#"{"properties": {"a": {"type": "string"}}, "maxProperties": 1}"#)
        #expect(try violations(s, #"{"a": 1, "a": "x"}"#).isEmpty)
        #expect(try violations(s, #"{"a": "x", "a": 1}"#).map(\.keyword) == ["type"])
    }

    // MARK: References and dialects

    @Test func draft07RefOverridesItsSiblings() throws {
        let text = ##"{"definitions": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}}}"##
        #expect(try violations(schema(text, draft: .draft7), #"{"a": "long"}"#).isEmpty)
        #expect(try violations(schema(text, draft: .draft2020_12), #"{"a": "long"}"#).map(\.keyword) == ["maxLength"])
        let declared = #"{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "integer"}], "additionalItems": false}"#
        #expect(try violations(schema(declared), "[1, 2]").map(\.keyword) == ["additionalItems"])
    }

    @Test func unresolvableReferencesFailToCompile() throws {
        #expect(throws: SchemaError.self) { try schema(#"{"$ref": "https://example.com/missing.json"}"#) }
        #expect(throws: SchemaError.self) { try schema(##"{"$ref": "#/$defs/missing"}"##) }
    }

    @Test func refDirectoriesMapURLsToFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("refdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("v1"), withIntermediateDirectories: true)
        try Data(#"{"type": "integer"}"#.utf8).write(to: folder.appendingPathComponent("v1/count.json"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let s = try schema(#"{"$ref": "https://schemas.example.com/v1/count.json"}"#, loader: RefDirectories([folder.path]))
        #expect(try violations(s, "1").isEmpty)
        #expect(try violations(s, #""x""#).map(\.keyword) == ["type"])
    }

    @Test func dynamicReferencesFollowTheDynamicScope() throws {
        let text = """
            {"$id": "https://example.com/strict", "$ref": "tree", "unevaluatedProperties": false, "$dynamicAnchor": "node",
             "$defs": {"tree": {"$id": "tree", "$dynamicAnchor": "node", "type": "object",
                                "properties": {"data": true, "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}}}
            """
        let s = try schema(text)
        #expect(try violations(s, #"{"children": [{"data": 1}]}"#).isEmpty)
        let found = try violations(s, #"{"children": [{"daat": 1}]}"#)
        #expect(found.map(\.instancePointer.description) == ["/children/0/daat"])
        #expect(found.map(\.keyword) == ["unevaluatedProperties"])
    }

    // MARK: Threads

    @Test func oneSchemaValidatesOnManyThreadsAtOnce() throws {
        let s = try schema(Self.layers)
        let documents = (0..<64).map { i in i % 2 == 0 ? #"{"layerType": "GroupLayer", "layers": []}"# : #"{"layerType": "GroupLayer", "layers": \#(i)}"# }
        let parsed = try documents.map { try JSONParser.parse($0) }
        final class Results: @unchecked Sendable {
            var counts = [Int](repeating: -1, count: 64)
            let lock = NSLock()
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 64 * 20) { n in
            let count = s.validate(parsed[n % 64]).count
            results.lock.lock()
            if results.counts[n % 64] == -1 || results.counts[n % 64] == count { results.counts[n % 64] = count } else { results.counts[n % 64] = -2 }
            results.lock.unlock()
        }
        #expect(results.counts == (0..<64).map { $0 % 2 == 0 ? 0 : 1 })
    }
}
