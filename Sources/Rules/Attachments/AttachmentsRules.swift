extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let attachmentsRules: [any MapRule.Type] = [
        AttachmentsNotEnabledRule.self,
        AttachmentsHiddenRule.self,
    ]
}
