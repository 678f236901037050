import WebMap

/// `related/unsupported-cardinality`: a one-to-one or many-to-many relationship, which the app ignores.
public enum UnsupportedCardinalityRule: MapRule {
    public static let description = RuleDescription(
        id: "related/unsupported-cardinality",
        severity: .info,
        summary: "A one-to-one or many-to-many relationship is ignored by the app.",
        rationale: """
            The app shows two kinds of relationships in a pop-up: one-to-many seen from the origin (a tree's \
            inspections) and one-to-many seen from the destination (a tree's species). One-to-one and \
            many-to-many relationships are ignored: their records never appear in the pop-up, whether or not \
            the related table is in the map. Only pop-up enabled, service-backed layers and tables are checked, \
            because the app never shows the related records of a layer whose pop-up it never shows.
            """,
        fix: """
            Nothing to fix in the map. If the records should appear in the app, model the relationship as \
            one-to-many in the service; otherwise turn this rule off for the layer.
            """,
        triggeringExamples: [
            .document(RelatedExamples.map(), services: RelatedExamples.snapshot(trees: RelatedExamples.treesMetadata(relationships: [
                RelatedExamples.speciesRelationship(), RelatedExamples.inspectionsRelationship,
                #"{"id": 2, "name": "Trees_Permits", "relatedTableId": 4, "cardinality": "esriRelCardinalityOneToOne", "role": "esriRelRoleOrigin", "keyField": "GlobalID", "composite": false}"#,
            ]))),
        ],
        nonTriggeringExamples: [
            .document(RelatedExamples.map(), services: RelatedExamples.snapshot()),
        ])

    public static func check(_ context: MapContext) {
        for finding in RelationshipFinding.all(in: context) {
            let cardinality: String
            switch finding.relationship.cardinality {
            case .oneToOne?: cardinality = "one-to-one"
            case .manyToMany?: cardinality = "many-to-many"
            default: continue
            }
            let target = finding.isInMap ? " to \(finding.relatedName)" : ""
            context.report(self, pointer: finding.pointer, message:
                "\(finding.subject) has \(finding.relationshipName), a \(cardinality) relationship\(target): the app "
                + "ignores one-to-one and many-to-many relationships, so its records never appear in the pop-up. "
                + "Model it as one-to-many in the service if they should.",
                layer: finding.layer)
        }
    }
}
