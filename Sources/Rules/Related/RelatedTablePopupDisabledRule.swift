import WebMap

/// `related/table-popup-disabled`: the related table is in the map but not pop-up enabled.
public enum RelatedTablePopupDisabledRule: MapRule {
    public static let description = RuleDescription(
        id: "related/table-popup-disabled",
        severity: .warning,
        summary: "A relationship's related table is in the map but not pop-up enabled.",
        rationale: """
            The app shows related records with the related table's own pop-up. When that table has no \
            `popupInfo`, or sets `disablePopup`, the app skips the relationship: the pop-up shows no related \
            records for it and none can be added. Only pop-up enabled, service-backed layers and tables are \
            checked, because the app never shows the related records of a layer whose pop-up it never shows. \
            A composite many-to-one relationship is reported as `related/composite-unselectable` instead (an \
            error: new records cannot be saved), not twice.
            """,
        fix: "Give the related table a `popupInfo` and remove `disablePopup: true` from it.",
        triggeringExamples: [
            .document(RelatedExamples.map(tables: [RelatedExamples.speciesTable(), RelatedExamples.inspectionsTable(popup: false)]),
                      services: RelatedExamples.snapshot()),
            .document(RelatedExamples.map(tables: [RelatedExamples.speciesTable(layerExtra: #""disablePopup": true"#),
                                                   RelatedExamples.inspectionsTable()]),
                      services: RelatedExamples.snapshot()),
        ],
        nonTriggeringExamples: [
            .document(RelatedExamples.map(), services: RelatedExamples.snapshot()),
        ])

    public static func check(_ context: MapContext) {
        for finding in RelationshipFinding.all(in: context) {
            guard finding.isInMap, finding.use.kind != .ignored, let related = finding.related, !related.isPopupEnabled,
                  !finding.isCompositeManyToOne else { continue }
            let name = related.layer.title.map { "'\($0)'" } ?? "the related table"
            context.report(self, pointer: finding.pointer, message:
                "\(finding.subject) has \(finding.relationshipName) to \(finding.relatedName), which is in the "
                + "map but not pop-up enabled (\(RelationshipFinding.popupDisabledReason(related))): the app skips "
                + "the relationship, so the pop-up shows no related records through it. Give \(name) a popupInfo "
                + "and do not set disablePopup.",
                layer: finding.layer)
        }
    }
}
