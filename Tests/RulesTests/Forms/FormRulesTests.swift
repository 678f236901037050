import Foundation
import Rules
import Testing
import WebMap

/// form/ rules beyond their own examples: how forms switch off the pop-up editing rules, the arcade/ rules on
/// form expressions, the fixes, the schema, and the samples.
@Suite struct FormRulesTests {
    static func lint(_ map: String, services: String) -> [Diagnostic] {
        ExampleRunner.diagnostics(for: .document(map, services: services))
    }

    /// Trees with a required Species field (no default): its pop-up lists Species hidden, and `form` is the
    /// layer's `formInfo` members (nil: no form).
    static func trees(form: String?) -> String {
        Examples.map(fieldInfos: """
            {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                      {"fieldName": "Species", "label": "Species", "visible": false, "isEditable": true}
            """, layerExtra: form.map { #""formInfo": {\#($0)}"# })
    }

    static let speciesSnapshot = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
        {"name": "Species", "type": "esriFieldTypeString", "alias": "Species", "nullable": false, "editable": true, "length": 50},
              {"name": "Ward", "type": "esriFieldTypeString", "alias": "Ward", "nullable": true, "editable": false, "length": 10}
        """)])

    @Test func aFormSwitchesOffThePopupEditingRulesAndTheFormRulesTakeOver() {
        let popupOnly = Self.lint(Self.trees(form: nil), services: Self.speciesSnapshot).map(\.ruleId)
        #expect(popupOnly.contains("add-feature/required-field-not-editable"))
        #expect(popupOnly.contains("popup/editable-but-hidden"))
        let withForm = Self.lint(Self.trees(form: #""formElements": [{"type": "field", "fieldName": "Address"}]"#),
                                 services: Self.speciesSnapshot).map(\.ruleId)
        #expect(!withForm.contains("add-feature/required-field-not-editable"))
        #expect(!withForm.contains { $0.hasPrefix("popup/editable-") })
        #expect(withForm.contains("form/required-unreachable"))
        #expect(withForm.contains("form/popup-editable-ignored"))
        // An empty form is no form: the pop-up still decides (and form/empty says so).
        let empty = Self.lint(Self.trees(form: #""formElements": []"#), services: Self.speciesSnapshot).map(\.ruleId)
        #expect(empty.contains("add-feature/required-field-not-editable"))
        #expect(empty.contains("form/empty"))
    }

    @Test func requiredUnreachableNamesTheFieldAndPointsAtTheElement() throws {
        let map = Self.trees(form: #""formElements": [{"type": "group", "label": "Hidden", "visibilityExpression": "off", "formElements": [{"type": "field", "fieldName": "species"}]}], "expressionInfos": [{"name": "off", "expression": "return false;"}]"#)
        let found = Self.lint(map, services: Self.speciesSnapshot).filter { $0.ruleId == "form/required-unreachable" }
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.pointer == "/operationalLayers/0/formInfo/formElements/0/formElements/0")
        #expect(finding.message.contains("'Species'") && finding.message.contains("never visible"))
    }

    /// A map whose Trees form has the expressions `expressions` (JSON) used by `elements`.
    static func form(elements: String, expressions: String) -> String {
        Examples.map(layerExtra: #""formInfo": {"expressionInfos": [\#(expressions)], "formElements": [\#(elements)]}"#)
    }

    @Test func arcadeRulesReadFormExpressionsWithTheProfileOfTheirUse() throws {
        let map = Self.form(
            elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "calc"}, {"type": "field", "fieldName": "Condition", "visibilityExpression": "show"}"#,
            expressions: """
                {"name": "calc", "expression": "Uper(First(FeatureSetByName($map, 'Neighbourhoods')).NAME) + $originalFeature.Address", "returnType": "string"},
                {"name": "show", "expression": "$editcontext.editType == 'INSERT' && Count(FeatureSetByName($map, 'Trees')) > 0"}
                """)
        let found = Self.lint(map, services: Examples.treesSnapshot).filter { $0.ruleId.hasPrefix("arcade/") }
        let byRule = Dictionary(grouping: found, by: \.ruleId)
        let function = try #require(byRule["arcade/unknown-function"]?.first)
        #expect(function.pointer == "/operationalLayers/0/formInfo/expressionInfos/0/expression")
        #expect(function.message.contains("in the form of layer 'Trees'") && function.message.contains("'Upper'"))
        #expect(byRule["arcade/unknown-layer"]?.count == 1)
        // $originalFeature and $editcontext are a form's own; $map is not a constraint's.
        let profile = byRule["arcade/profile-variable"] ?? []
        #expect(profile.count == 1)
        #expect(profile.first?.pointer == "/operationalLayers/0/formInfo/expressionInfos/1/expression")
        #expect(profile.first?.message.contains("$map") == true)
    }

    @Test func theNestedGroupFixLiftsTheInnerElements() throws {
        let map = Self.form(elements: """
            {"type": "group", "label": "Site", "formElements": [
                      {"type": "field", "fieldName": "Address"},
                      {"type": "group", "label": "Inner", "formElements": [{"type": "field", "fieldName": "Condition"}, {"type": "text", "text": "Note"}]}
                    ]}
            """, expressions: "")
        let finding = try #require(Self.lint(map, services: Examples.treesSnapshot).first { $0.ruleId == "form/nested-group" })
        let fix = try #require(finding.fix)
        #expect(fix.patch.map(\.op) == [.remove, .add, .add])
        #expect(fix.patch.map(\.path) == ["/operationalLayers/0/formInfo/formElements/0/formElements/1",
                                          "/operationalLayers/0/formInfo/formElements/0/formElements/1",
                                          "/operationalLayers/0/formInfo/formElements/0/formElements/2"])
        let fixed = FixApplier.apply([fix], to: Array(map.utf8)).bytes
        let root = try JSONParser.parse(SourceText(bytes: fixed)).root
        let inner = try #require(root["operationalLayers"]?[0]?["formInfo"]?["formElements"]?[0]?["formElements"]?.array)
        #expect(inner.compactMap { $0["type"]?.string } == ["field", "field", "text"])
        #expect(!Self.lint(String(decoding: fixed, as: UTF8.self), services: Examples.treesSnapshot).contains { $0.ruleId == "form/nested-group" })
    }

    @Test func theReturnTypeFixAddsOrReplacesReturnType() throws {
        let added = Self.form(elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "v"}"#,
                              expressions: #"{"name": "v", "expression": "'x'"}"#)
        let fix = try #require(Self.lint(added, services: Examples.treesSnapshot).first { $0.ruleId == "form/expression-return-type" }?.fix)
        #expect(fix.patch == [PatchOperation(op: .add, path: "/operationalLayers/0/formInfo/expressionInfos/0/returnType", value: .string("string"))])
        let text = String(decoding: FixApplier.apply([fix], to: Array(added.utf8)).bytes, as: UTF8.self)
        #expect(text.contains(#"{"name": "v", "expression": "'x'", "returnType": "string"}"#))
        // Used both as a value and as a constraint: reported, but no fix guesses which use is meant.
        let both = Self.form(elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "v", "visibilityExpression": "v"}"#,
                             expressions: #"{"name": "v", "expression": "'x'", "returnType": "string"}"#)
        let finding = try #require(Self.lint(both, services: Examples.treesSnapshot).first { $0.ruleId == "form/expression-return-type" })
        #expect(finding.fix == nil)
    }

    @Test func badFormShapesAreSchemaErrorsAndUnknownElementTypesAreKept() throws {
        let map = Self.form(elements: """
            {"type": "field", "fieldName": "Condition", "inputType": {"type": "switch"}},
                      {"type": "field", "fieldName": "Address", "inputType": {"type": "slider"}},
                      {"type": "relationship", "relationshipId": "one"},
                      {"type": "utilityNetworkAssociations", "label": "Associations"}
            """, expressions: #"{"name": "x", "expression": "true", "returnType": "bool"}"#)
        let schema = Self.lint(map, services: Examples.treesSnapshot).filter { $0.ruleId == "schema/invalid" }.map(\.pointer)
        #expect(schema.contains("/operationalLayers/0/formInfo/formElements/0/inputType"))
        #expect(schema.contains("/operationalLayers/0/formInfo/formElements/1/inputType/type"))
        #expect(schema.contains("/operationalLayers/0/formInfo/formElements/2/relationshipId"))
        #expect(schema.contains("/operationalLayers/0/formInfo/expressionInfos/0/returnType"))
        #expect(!schema.contains { $0.hasPrefix("/operationalLayers/0/formInfo/formElements/3") })
        let layer = try #require(WebMapDocument(root: try JSONParser.parse(map).root, source: SourceText(string: map))?.layers.first)
        #expect(layer.formInfo?.elements.map(\.kind) == [.field, .field, .relationship, .unsupported])
    }
}
