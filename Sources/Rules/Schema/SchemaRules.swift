extension RuleCatalog {
    /// The `schema/` family: the document against the shipped JSON Schemas.
    static let schemaRules: [any MapRule.Type] = [
        SchemaInvalidRule.self,
    ]
}
