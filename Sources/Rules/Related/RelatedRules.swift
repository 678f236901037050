extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let relatedRules: [any MapRule.Type] = [
        RelatedTableMissingRule.self,
        RelatedTablePopupDisabledRule.self,
        UnsupportedCardinalityRule.self,
        CompositeUnselectableRule.self,
        UnsortableKeyRule.self,
        RelatedAddNotAllowedRule.self,
    ]
}
