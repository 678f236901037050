import WebMap

/// `form/relationship-unusable`: a relationship element the app cannot show.
public enum FormRelationshipUnusableRule: MapRule {
    public static let description = RuleDescription(
        id: "form/relationship-unusable",
        severity: .warning,
        summary: "A relationship element whose related table is not in the map or not pop-up enabled, or whose relationship is many-to-many.",
        rationale: """
            The app lists related records from the map's own layer or table for the related side, through its \
            pop-up; it does not follow many-to-many relationships. When the related table is missing from the \
            map, has its pop-up disabled, or the relationship is many-to-many, the element shows nothing and \
            the crew cannot add related records from the form.
            """,
        fix: "Add the related table to the map with its pop-up enabled, or remove the element (many-to-many relationships cannot be shown).",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "relationship", "relationshipId": 1, "label": "Inspections"}"#),
                      services: FormExamples.relatedSnapshot),
            .document(FormExamples.map(elements: #"{"type": "relationship", "relationshipId": 2, "label": "Permits"}"#,
                                       tables: FormExamples.inspectionsTable), services: FormExamples.relatedSnapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "relationship", "relationshipId": 1, "label": "Inspections"}"#,
                                       tables: FormExamples.inspectionsTable), services: FormExamples.relatedSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            let uses = context.behavior.relationships(of: subject.layer)
            for element in subject.form.form.allElements where element.kind == .relationship {
                guard let id = element.relationshipId, let use = uses.first(where: { $0.relationship.id == id }) else { continue }
                let reason: String
                if use.relationship.cardinality == .manyToMany {
                    reason = "it is many-to-many, which the app does not follow"
                } else if let related = use.relatedIndex {
                    guard !context.behavior.layers[related].isPopupEnabled else { continue }
                    reason = "the related \(context.behavior.layers[related].layer.isTable ? "table" : "layer") "
                        + "\(context.behavior.layers[related].layer.displayName) has its pop-up disabled"
                } else {
                    reason = "its related table (id \(use.relationship.relatedTableId.map(String.init) ?? "?")) is not in the map"
                }
                context.report(self, pointer: element.pointer / "relationshipId", message:
                    "The relationship element for relationship \(id) (\(use.relationship.name ?? "unnamed")) in the form of "
                    + "\(subject.name) shows nothing: \(reason).", layer: subject.layer)
            }
        }
    }
}
