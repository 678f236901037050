extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let layerRules: [any MapRule.Type] = [
        LayerEditablePopupDisabledRule.self,
        LayerNeverVisibleRule.self,
        LayerHiddenRule.self,
    ]
}
