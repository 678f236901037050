extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let jsonRules: [any DocumentRule.Type] = [
        JSONSyntaxRule.self,
        JSONEncodingRule.self,
        JSONDuplicateKeyRule.self,
        JSONTooDeepRule.self,
        JSONNotAMapRule.self,
    ]
}
