extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let mapFamilyRules: [any MapRule.Type] = [
    ]
}
