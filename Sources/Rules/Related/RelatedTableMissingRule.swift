import WebMap

/// `related/table-missing`: a relationship whose related table is not in the map.
public enum RelatedTableMissingRule: MapRule {
    public static let description = RuleDescription(
        id: "related/table-missing",
        severity: .warning,
        summary: "A relationship's related table is not in the map.",
        rationale: """
            The app finds a relationship's records through the related table in the map: a layer or table of \
            the same service whose layer id is the relationship's `relatedTableId`. When the map has no such \
            layer or table, the app ignores the relationship: the pop-up shows no related records for it and \
            none can be added. Only pop-up enabled, service-backed layers and tables are checked, because the \
            app never shows the related records of a layer whose pop-up it never shows. A composite \
            many-to-one relationship is reported as `related/composite-unselectable` instead (an error: new \
            records cannot be saved), not twice.
            """,
        fix: """
            Add the related table to the map (in `tables`, or as a layer when it has geometry) with the \
            service URL ending in `/<relatedTableId>`, and give it a pop-up. If the relationship is not \
            wanted in the app, turn this rule off for the layer.
            """,
        triggeringExamples: [
            .document(RelatedExamples.map(tables: [RelatedExamples.speciesTable()]), services: RelatedExamples.snapshot()),
        ],
        nonTriggeringExamples: [
            .document(RelatedExamples.map(), services: RelatedExamples.snapshot()),
            // The layer's pop-up is never shown, so neither are its related records.
            .document(RelatedExamples.map(trees: RelatedExamples.treesLayer(layerExtra: #""disablePopup": true"#),
                                          tables: [RelatedExamples.speciesTable()]),
                      services: RelatedExamples.snapshot()),
        ])

    public static func check(_ context: MapContext) {
        for finding in RelationshipFinding.all(in: context) {
            guard finding.isInMap, finding.use.kind != .ignored, finding.use.relatedIndex == nil,
                  !finding.isCompositeManyToOne, !finding.mapHasUnreadableURLs else { continue }
            context.report(self, pointer: finding.pointer, message:
                "\(finding.subject) has \(finding.relationshipName) to \(finding.relatedName), which is not in "
                + "the map: the app ignores the relationship, so the pop-up shows no related records through it. "
                + "Add it to the map (in tables, or as a layer when it has geometry) with a pop-up to show them.",
                layer: finding.layer)
        }
    }
}
