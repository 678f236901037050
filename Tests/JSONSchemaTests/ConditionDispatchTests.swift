import JSONSchema
import Testing
import WebMap

/// An `allOf` of `if` / `then` / `else` branches that test one property is validated by looking the property up
/// once (`ConditionDispatch`). Its answers must be those of the branches validated one by one: the same schema
/// with `"type": "object"` added to each `if` (which the dispatch does not recognise, and which changes nothing
/// for objects) gives the reference.
@Suite struct ConditionDispatchTests {
    static func schemaText(conditionExtra: String) -> String {
        """
        {
          "$defs": {
            "isFeature": {"properties": {"kind": {"enum": ["feature", "stream"]}}, "required": ["kind"]\(conditionExtra)},
            "feature": {"required": ["url"], "properties": {"url": {"type": "string", "minLength": 3}}}
          },
          "type": "object",
          "properties": {"layers": {"type": "array", "items": {"$ref": "#"}}},
          "allOf": [
            {"required": ["id"]},
            {"if": {"$ref": "#/$defs/isFeature"}, "then": {"$ref": "#/$defs/feature"}},
            {"if": {"properties": {"kind": {"const": "group"}}, "required": ["kind"]\(conditionExtra)},
             "then": {"required": ["layers"]}},
            {"if": {"properties": {"kind": {"const": "tile"}}\(conditionExtra)},
             "then": {"properties": {"levels": {"type": "integer"}}},
             "else": {"properties": {"levels": {"type": "null"}}}},
            {"properties": {"id": {"type": "string"}}}
          ]
        }
        """
    }

    static let instances = [
        #"{"id": "a", "kind": "feature", "url": "https://x"}"#,
        #"{"id": "a", "kind": "feature"}"#,
        #"{"id": "a", "kind": "stream", "url": "x"}"#,
        #"{"id": "a", "kind": "group"}"#,
        #"{"id": "a", "kind": "group", "layers": [{"id": "b", "kind": "feature"}, {"kind": "tile", "levels": 1.5}]}"#,
        #"{"id": "a", "kind": "tile", "levels": 3}"#,
        #"{"id": "a", "kind": "tile", "levels": "3"}"#,
        #"{"id": "a", "levels": 3}"#,
        #"{"id": "a", "levels": null}"#,
        #"{"id": 7, "kind": 42, "levels": 3}"#,
        #"{"kind": "Feature", "url": 1}"#,
        #"{"kind": "feature", "kind": "group", "id": "a"}"#,
        #"{"kind": "group", "kind": "feature", "id": "a", "url": "ab"}"#,
        #"{}"#,
    ]

    @Test func dispatchedConditionsAnswerAsTheBranchesDo() throws {
        let dispatched = try SchemaRegistry().compile(JSONParser.parse(Self.schemaText(conditionExtra: "")).root)
        let reference = try SchemaRegistry().compile(JSONParser.parse(Self.schemaText(conditionExtra: #", "type": "object""#)).root)
        var invalid = 0
        for text in Self.instances {
            let parsed = try JSONParser.parse(text)
            let found = dispatched.validate(parsed)
            let expected = reference.validate(parsed)
            #expect(found == expected, "\(text)")
            #expect(dispatched.isValid(parsed.root, repeatedKeys: !parsed.duplicateKeys.isEmpty) == expected.isEmpty, "\(text)")
            if !expected.isEmpty { invalid += 1 }
        }
        // The instances exercise both outcomes.
        #expect(invalid >= 8 && invalid < Self.instances.count)
    }

    @Test func aThenBranchReportsAtItsValue() throws {
        let schema = try SchemaRegistry().compile(JSONParser.parse(Self.schemaText(conditionExtra: "")).root)
        let found = schema.validate(try JSONParser.parse(#"{"id": "a", "kind": "group", "layers": [{"id": "b", "kind": "stream", "url": "ab"}]}"#))
        #expect(found.map(\.instancePointer.description) == ["/layers/0/url"])
        #expect(found.map(\.keyword) == ["minLength"])
        let missing = schema.validate(try JSONParser.parse(#"{"id": "a", "kind": "group"}"#))
        #expect(missing.map(\.message) == ["The document is missing required property 'layers'."])
    }
}
