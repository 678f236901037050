import WebMap

/// `related/add-not-allowed`: a table shown as one-to-many records cannot add records.
public enum RelatedAddNotAllowedRule: MapRule {
    public static let description = RuleDescription(
        id: "related/add-not-allowed",
        severity: .info,
        summary: "A table shown as one-to-many related records cannot add records.",
        rationale: """
            Under a pop-up's one-to-many related records (a tree's inspections) the app offers an "Add" row \
            only when the related table can add (its capabilities include `Create`, or `Editing` alone). When \
            it cannot, the section has no "Add" row and users can only look at the records, which is right for \
            a lookup table but surprising for records collected in the field. Only pop-up enabled, \
            service-backed layers and tables are checked, and only relationships the app uses (the related \
            table in the map and pop-up enabled).
            """,
        fix: """
            If users should add related records, include `Create` in the related table's capabilities (in the \
            service, and in the table's `layerDefinition.capabilities` when the map overrides them); otherwise \
            turn this rule off for the layer.
            """,
        triggeringExamples: [
            .document(RelatedExamples.map(), services: RelatedExamples.snapshot(inspections: RelatedExamples.inspectionsMetadata(capabilities: "Query,Update"))),
            .document(RelatedExamples.map(tables: [RelatedExamples.speciesTable(),
                                                   RelatedExamples.inspectionsTable(layerExtra: #""layerDefinition": {"capabilities": "Query"}"#)]),
                      services: RelatedExamples.snapshot()),
        ],
        nonTriggeringExamples: [
            .document(RelatedExamples.map(), services: RelatedExamples.snapshot()),
        ])

    public static func check(_ context: MapContext) {
        for finding in RelationshipFinding.all(in: context) {
            guard finding.isInMap, finding.use.kind == .oneToMany, finding.use.isUsed,
                  let related = finding.related, let table = related.table, !related.capabilities.canAdd else { continue }
            let capabilities = table.capabilities.names.isEmpty ? "no capabilities" : "capabilities '\(table.capabilities.description)'"
            context.report(self, pointer: finding.pointer, message:
                "\(finding.subject) shows \(finding.relatedName) as one-to-many related records through "
                + "\(RelationshipFinding.name(of: finding.relationship)), but that table cannot add records "
                + "(\(capabilities)): the section has no \"Add\" row. Include Create in the table's capabilities "
                + "if users should add related records.",
                layer: finding.layer)
        }
    }
}
