extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let popupRules: [any MapRule.Type] = [
        UnknownFieldRule.self,
        UnknownExpressionRule.self,
        TitleUnknownFieldRule.self,
        EmptyTitleRule.self,
        NoDisplayFieldsRule.self,
        NotFieldListRule.self,
        DuplicateFieldRule.self,
        EditableButServiceReadonlyRule.self,
        EditableUnsupportedTypeRule.self,
        EditableReadonlyTypeRule.self,
        EditableButHiddenRule.self,
        EditableOnReadonlyLayerRule.self,
        MissingLabelRule.self,
        EmptyCodedDomainRule.self,
    ]
}
