import WebMap

extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let arcadeRules: [any MapRule.Type] = [
        ArcadeSyntaxRule.self,
        ArcadeUnknownFieldRule.self,
        ArcadeUnknownRelationshipRule.self,
        ArcadeUnknownFunctionRule.self,
        ArcadeProfileVariableRule.self,
        ArcadeUnknownLayerRule.self,
    ]
}

extension MapContext {
    /// Reports a finding at scalar `offset` of `expression` (the exact character in the file), about `about`
    /// (the name or problem a baseline matches it by, whatever else of the expression changes).
    func report(_ rule: any Rule.Type, in expression: ArcadeExpression, at offset: Int, about: String, message: String) {
        lint.report(rule, pointer: expression.pointer, pointerText: expression.pointerText, offset: expression.fileOffset(of: offset), message: message,
                    layer: expression.layer.layer, metadataSource: expression.layer.resolved?.source, about: about)
    }
}

/// Example maps for the arcade/ rules: the Trees layer with one pop-up expression.
enum ArcadeExamples {
    /// `expression` is Arcade source; it is written into the map as a JSON string.
    static func map(expression: String) -> String {
        Examples.map(fieldInfos: #"{"fieldName": "expression/summary", "label": "Summary", "visible": true}"#,
                     extraPopup: #""expressionInfos": [{"name": "summary", "title": "Summary", "expression": \#(jsonString(expression)), "returnType": "string"}]"#)
    }

    /// Trees with a relationship to its inspections.
    static let treesWithInspections = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extra: """
        "relationships": [{"id": 1, "name": "Trees_Inspections", "relatedTableId": 2, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": false}]
        """)])

    static func jsonString(_ text: String) -> String { JSONText.string(text) }
}
