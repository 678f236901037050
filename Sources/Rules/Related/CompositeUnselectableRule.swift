import WebMap

/// `related/composite-unselectable`: a composite many-to-one whose related table the app cannot offer.
public enum CompositeUnselectableRule: MapRule {
    public static let description = RuleDescription(
        id: "related/composite-unselectable",
        severity: .error,
        summary: "A composite many-to-one relationship's related table is not in the map or not pop-up enabled.",
        rationale: """
            In a composite relationship a destination record cannot exist without its origin record, so the \
            app requires a new record to be related to one (a new tree must have its species) before it can be \
            saved. The user picks that record from the related table's pop-ups; when the related table is not \
            in the map, or is there but not pop-up enabled, there is nothing to pick and a new record can never \
            be saved. This finding replaces `related/table-missing` and `related/table-popup-disabled` for the \
            same relationship (one diagnostic, at the higher severity). Only pop-up enabled, service-backed \
            layers and tables are checked: the app edits nothing else.
            """,
        fix: """
            Add the related table to the map (in `tables`, or as a layer when it has geometry) with a \
            `popupInfo`, and do not set `disablePopup` on it.
            """,
        triggeringExamples: [
            .document(RelatedExamples.map(tables: [RelatedExamples.inspectionsTable()]),
                      services: RelatedExamples.snapshot(trees: RelatedExamples.treesMetadata(relationships: [
                          RelatedExamples.speciesRelationship(composite: true), RelatedExamples.inspectionsRelationship,
                      ]))),
            .document(RelatedExamples.map(tables: [RelatedExamples.speciesTable(popup: false), RelatedExamples.inspectionsTable()]),
                      services: RelatedExamples.snapshot(trees: RelatedExamples.treesMetadata(relationships: [
                          RelatedExamples.speciesRelationship(composite: true), RelatedExamples.inspectionsRelationship,
                      ]))),
        ],
        nonTriggeringExamples: [
            .document(RelatedExamples.map(),
                      services: RelatedExamples.snapshot(trees: RelatedExamples.treesMetadata(relationships: [
                          RelatedExamples.speciesRelationship(composite: true), RelatedExamples.inspectionsRelationship,
                      ]))),
            // Not composite: a tree may be saved without a species (related/table-missing says the rest).
            .document(RelatedExamples.map(tables: [RelatedExamples.inspectionsTable()]), services: RelatedExamples.snapshot()),
        ])

    public static func check(_ context: MapContext) {
        for finding in RelationshipFinding.all(in: context) {
            guard finding.isInMap, finding.isCompositeManyToOne, !finding.use.isUsed else { continue }
            let problem: String
            let remedy: String
            if let related = finding.related {
                problem = "which is in the map but not pop-up enabled (\(RelationshipFinding.popupDisabledReason(related)))"
                remedy = "Give \(related.layer.title.map { "'\($0)'" } ?? "the related table") a popupInfo and do not set disablePopup."
            } else {
                guard !finding.mapHasUnreadableURLs else { continue }
                problem = "which is not in the map"
                remedy = "Add it to the map (in tables, or as a layer when it has geometry) with a pop-up."
            }
            context.report(self, pointer: finding.pointer, message:
                "\(finding.subject) has composite \(finding.relationshipName) to \(finding.relatedName), \(problem): "
                + "a new record must be related to a record of that table before it can be saved, and the app has "
                + "none to offer, so no new record can ever be saved. \(remedy)",
                layer: finding.layer)
        }
    }
}
