extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let formRules: [any MapRule.Type] = [
        FormUnknownFieldRule.self,
        FormDuplicateFieldRule.self,
        FormUnknownExpressionRule.self,
        FormExpressionReturnTypeRule.self,
        FormValueTypeMismatchRule.self,
        FormInputTypeMismatchRule.self,
        FormLengthExceedsFieldRule.self,
        FormRequiredUnreachableRule.self,
        FormRequiredConditionallyHiddenRule.self,
        FormValueExpressionIgnoredRule.self,
        FormEditableButServiceReadonlyRule.self,
        FormHiddenValueClearedRule.self,
        FormUnknownRelationshipRule.self,
        FormRelationshipUnusableRule.self,
        FormNestedGroupRule.self,
        FormAttachmentsNotEnabledRule.self,
        FormAttachmentCountRule.self,
        FormEmptyRule.self,
        FormPopupEditableIgnoredRule.self,
    ]
}
