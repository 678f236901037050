import WebMap

/// `offline/read-only-sync-editable`: the map edits a layer, but its offline settings download no features of
/// editable layers.
public enum OfflineReadOnlySyncEditableRule: MapRule {
    public static let description = RuleDescription(
        id: "offline/read-only-sync-editable",
        severity: .info,
        summary: "The map edits a layer whose offline settings download no features of editable layers.",
        rationale: """
            `applicationProperties.offline.editableLayers.download: "none"` takes editable layers offline with \
            their schema only: crews can add features but see none of the existing ones (nothing to inspect or \
            update). That suits pure data collection, and is worth knowing otherwise.
            """,
        fix: """
            Set `editableLayers.download` to `features` or `featuresAndAttachments` when crews need the \
            existing features offline.
            """,
        triggeringExamples: [
            .document(OfflineExamples.map(offline: #"{"editableLayers": {"download": "none", "sync": "syncFeaturesAndAttachments"}}"#),
                      services: OfflineExamples.snapshot()),
        ],
        nonTriggeringExamples: [
            .document(OfflineExamples.map(offline: #"{"editableLayers": {"download": "features", "sync": "syncFeaturesAndAttachments"}}"#),
                      services: OfflineExamples.snapshot()),
            .document(OfflineExamples.map(offline: #"{"editableLayers": {"download": "none"}}"#),
                      services: OfflineExamples.snapshot(OfflineExamples.trees(capabilities: "Query,Sync"))),
        ])

    public static func check(_ context: MapContext) {
        let plan = OfflinePlan.of(context)
        guard plan.isChecked, plan.settings.editableLayersDownload == "none", let pointer = plan.settings.editableLayersDownloadPointer else { return }
        for entry in plan.entries {
            guard let offline = entry.offlineLayer, offline.capabilities.isEditable else { continue }
            context.report(self, pointer: pointer, message:
                "The map edits the \(offline.kind) \(offline.displayName), but applicationProperties.offline.editableLayers.download is "
                + "\"none\": crews get none of its existing features offline, only an empty layer to add to. Set it to \"features\" "
                + "or \"featuresAndAttachments\" if they need them.",
                layer: entry.behavior)
        }
    }
}
