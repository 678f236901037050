import WebMap

/// `form/unknown-relationship`: a relationship element names no relationship of the layer.
public enum FormUnknownRelationshipRule: MapRule {
    public static let description = RuleDescription(
        id: "form/unknown-relationship",
        severity: .error,
        summary: "A form's relationship element names a relationship the layer does not have.",
        rationale: """
            A relationship element shows the records related through the layer's relationship whose id is \
            `relationshipId`. When the layer has no relationship with that id (removed or renumbered in the \
            service) the app leaves the element out, and the crew cannot see or add related records from the form.
            """,
        fix: "Set `relationshipId` to the id of one of the layer's relationships (see its service metadata), or remove the element.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "relationship", "relationshipId": 7, "label": "Inspections"}"#,
                                       tables: FormExamples.inspectionsTable), services: FormExamples.relatedSnapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "relationship", "relationshipId": 1, "label": "Inspections"}"#,
                                       tables: FormExamples.inspectionsTable), services: FormExamples.relatedSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            guard let table = subject.layer.table else { continue }
            for element in subject.form.form.allElements where element.kind == .relationship {
                guard let id = element.relationshipId, !table.relationships.contains(where: { $0.id == id }) else { continue }
                let known = table.relationships.compactMap { r in r.id.map { "\($0) (\(r.name ?? "unnamed"))" } }
                context.report(self, pointer: element.pointer / "relationshipId", message:
                    "The form of \(subject.name) has a relationship element for relationship \(id), which the layer does not "
                    + "have: the app leaves it out. " + (known.isEmpty ? "The layer has no relationships." : "Its relationships: "
                    + known.joined(separator: ", ") + "."), layer: subject.layer)
            }
        }
    }
}
