import WebMap

/// `offline/sync-disabled`: an editable service-backed layer or table whose capabilities lack `Sync`.
public enum OfflineSyncDisabledRule: OfflineLayerRule {
    public static let description = RuleDescription(
        id: "offline/sync-disabled",
        severity: .error,
        summary: "An editable layer or table of a map meant for offline use has no Sync capability.",
        rationale: """
            A field app takes a feature layer offline by registering a replica on its feature service \
            (createReplica), which the service allows only when the layer's capabilities include `Sync`. \
            Without it the layer cannot be downloaded: the crew's offline map lacks it, and every edit they \
            meant to make there is lost. Checked only for maps meant for offline use (the item's `Offline` \
            keyword, `applicationProperties.offline`, or `"offline": true` / `--offline`), skipping the layers \
            `connectedOnlineLayers` keeps online. `maprules offline generate` refuses such a layer with this ID.
            """,
        fix: """
            Enable sync on the feature service (ArcGIS Online: Settings > "Enable Sync"; ArcGIS Enterprise: the \
            Sync capability of the service), or list the layer in `applicationProperties.offline.connectedOnlineLayers` \
            if it is meant to stay online.
            """,
        triggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot(OfflineExamples.trees(capabilities: "Create,Delete,Query,Update,Editing"))),
            .document(OfflineExamples.itemWrapper(), services: OfflineExamples.snapshot(OfflineExamples.trees(capabilities: "Query,Editing"))),
        ],
        nonTriggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot()),
            // Not meant for offline use.
            .document(OfflineExamples.map(offline: nil), services: OfflineExamples.snapshot(OfflineExamples.trees(capabilities: "Create,Delete,Query,Update,Editing"))),
            // Kept online by the author.
            .document(OfflineExamples.map(offline: #"{"connectedOnlineLayers": [{"id": "Trees_1234"}]}"#),
                      services: OfflineExamples.snapshot(OfflineExamples.trees(capabilities: "Create,Delete,Query,Update,Editing"))),
        ])

    public static func problems(of layer: OfflineLayer) -> [OfflineProblem] {
        guard layer.capabilities.isEditable, !layer.hasSync else { return [] }
        return [problem(
            "The \(layer.kind) \(layer.displayName) is editable but its capabilities (\(layer.table.capabilities.description)) lack Sync: "
            + "it cannot be taken offline, and crews lose it in the field. Enable sync on its feature service, or keep it "
            + "online with applicationProperties.offline.connectedOnlineLayers.",
            reason: "its capabilities lack Sync")]
    }
}
