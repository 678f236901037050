extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let addFeatureRules: [any MapRule.Type] = [
        NoneEligibleRule.self,
        AddFeaturePopupDisabledRule.self,
        NotPointRule.self,
        RequiredFieldNotEditableRule.self,
    ]
}
