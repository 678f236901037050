import WebMap

extension RuleCatalog {
    /// The `offline/` rules about one service-backed layer (the runtime runs these before generating).
    static var offlineFamilyLayerRules: [any OfflineLayerRule.Type] {
        [OfflineSyncDisabledRule.self, OfflineNoGlobalIdsRule.self, OfflineRelationshipKeyNotGlobalIdRule.self,
         OfflineAttachmentsWithoutGlobalIdsRule.self]
    }

    /// The `offline/` family, in rules.md's order.
    static var offlineRules: [any MapRule.Type] {
        [OfflineSyncDisabledRule.self, OfflineNoGlobalIdsRule.self, OfflineRelationshipKeyNotGlobalIdRule.self,
         OfflineAttachmentsWithoutGlobalIdsRule.self, OfflineLayerStaysOnlineRule.self, OfflineBasemapNotExportableRule.self,
         OfflineReadOnlySyncEditableRule.self]
    }
}

extension MapContext {
    /// The offline plan of this map, with the configuration's `offline` setting and the known service metadata.
    var offlinePlan: OfflinePlan {
        OfflinePlan(document: document, behavior: behavior, offlineRequested: lint.configuration.offline, onlyWhenChecked: true,
                    serviceJSON: serviceJSON)
    }
}
