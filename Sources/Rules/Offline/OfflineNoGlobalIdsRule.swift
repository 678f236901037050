import WebMap

/// `offline/no-global-ids`: a layer or table to be synced without a `globalIdField`.
public enum OfflineNoGlobalIdsRule: OfflineLayerRule {
    public static let description = RuleDescription(
        id: "offline/no-global-ids",
        severity: .error,
        summary: "A layer or table to be synced has no global id field.",
        rationale: """
            Sync matches the records edited offline with the service's by their global ids: object ids are \
            assigned anew when offline adds are uploaded. A layer or table without a `globalIdField` cannot be \
            replicated (the service refuses createReplica), so it cannot go offline. A layer is "to be synced" \
            when its capabilities include `Sync` or it is editable.
            """,
        fix: "Add a GlobalID field to the layer or table (ArcGIS Pro: Add Global IDs), then enable sync.",
        triggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot(OfflineExamples.trees(globalIds: false))),
        ],
        nonTriggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot()),
            .document(OfflineExamples.map(offline: nil), services: OfflineExamples.snapshot(OfflineExamples.trees(globalIds: false))),
        ])

    public static func problems(of layer: OfflineLayer) -> [OfflineProblem] {
        guard layer.isToBeSynced, !layer.hasGlobalIds else { return [] }
        let named = layer.table.globalIdField.map { " (its globalIdField '\($0)' is not among its fields)" } ?? ""
        return [problem(
            "The \(layer.kind) \(layer.displayName) is to be synced but has no global id field\(named): sync cannot match "
            + "its offline edits with the service's, so it cannot be taken offline. Add Global IDs to it.",
            reason: "it has no global id field")]
    }
}
