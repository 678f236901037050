import WebMap

/// `offline/attachments-without-global-ids`: a synced layer with attachments but no `globalIdField`.
public enum OfflineAttachmentsWithoutGlobalIdsRule: OfflineLayerRule {
    public static let description = RuleDescription(
        id: "offline/attachments-without-global-ids",
        severity: .error,
        summary: "A synced layer has attachments but no global id field.",
        rationale: """
            Attachments travel with their feature during sync by the feature's global id (and their own): a \
            layer with `hasAttachments` and no `globalIdField` cannot sync its photos and documents, and the \
            service refuses to replicate it, so crews get neither the features nor their attachments offline.
            """,
        fix: "Add Global IDs to the layer (and its attachment table), or disable attachments on it.",
        triggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot(OfflineExamples.trees(globalIds: false))),
        ],
        nonTriggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot()),
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot(
                OfflineExamples.trees(globalIds: false).replacingOccurrences(of: #""hasAttachments": true"#, with: #""hasAttachments": false"#))),
        ])

    public static func problems(of layer: OfflineLayer) -> [OfflineProblem] {
        guard layer.isToBeSynced, layer.table.hasAttachments, !layer.hasGlobalIds else { return [] }
        return [problem(
            "The \(layer.kind) \(layer.displayName) has attachments but no global id field: its attachments cannot be "
            + "synced, and the layer cannot be taken offline. Add Global IDs to it, or disable its attachments.",
            reason: "it has attachments but no global id field")]
    }
}
