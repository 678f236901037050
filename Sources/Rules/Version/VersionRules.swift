extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let versionFamilyRules: [any VersionRule.Type] = [
        VersionNameEmptyRule.self,
        VersionNameTooLongRule.self,
        VersionNameForbiddenCharacterRule.self,
        VersionNameLeadingSpaceRule.self,
        VersionNameControlCharacterRule.self,
        VersionNameTrailingSpaceRule.self,
        VersionNameNotUniqueRule.self,
        VersionAccessInvalidRule.self,
    ]
}
