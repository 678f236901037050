import WebMap

/// Every rule MapRules knows, by family. Adding a rule is one new type plus one line in its family's list.
public enum RuleCatalog {
    public static var documentRules: [any DocumentRule.Type] { jsonRules }

    /// Assembled once: the linter walks it for every file.
    public static let mapRules: [any MapRule.Type] =
        schemaRules + mapFamilyRules + layerRules + addFeatureRules + popupRules + formRules + arcadeRules + relatedRules + attachmentsRules
        + offlineRules

    /// The rules with their IDs, read once (reading a rule's description copies all of it, examples included).
    static let documentRulesWithIds = documentRules.map { ($0, $0.description.id) }
    static let mapRulesWithIds = mapRules.map { ($0, $0.description.id) }

    /// The `offline/` rules about one service-backed layer: `maprules offline generate` runs them too.
    public static var offlineLayerRules: [any OfflineLayerRule.Type] { offlineFamilyLayerRules }

    public static var versionRules: [any VersionRule.Type] { versionFamilyRules }

    /// All rules, in catalogue order (family by family).
    public static let all: [any Rule.Type] =
        documentRules.map { $0 as any Rule.Type } + mapRules.map { $0 as any Rule.Type } + versionRules.map { $0 as any Rule.Type }

    public static var allIds: [String] { all.map { $0.description.id } }

    /// The rule with this ID, if any.
    public static func rule(id: String) -> (any Rule.Type)? { all.first { $0.description.id == id } }
}
