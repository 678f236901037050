extension RuleCatalog {
    /// The rules of this family, in the order `maprules rules` lists them.
    static let mapFamilyRules: [any MapRule.Type] = [
        MapNoOperationalLayersRule.self,
        MapDuplicateLayerIdRule.self,
        MapUnresolvedLayerRule.self,
        MapBadLayerURLRule.self,
        MapInsecureURLRule.self,
        MapTokenInURLRule.self,
        MapTitleTooLongRule.self,
        MapTemplatePlaceholderRule.self,
    ]
}
