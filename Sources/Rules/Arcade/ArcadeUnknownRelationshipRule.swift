import WebMap

/// `arcade/unknown-relationship`: `FeatureSetByRelationshipName($feature, "NAME")` names no relationship of
/// the layer.
public enum ArcadeUnknownRelationshipRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/unknown-relationship",
        severity: .warning,
        summary: "A pop-up or form Arcade expression asks for a relationship the layer does not have.",
        rationale: """
            `FeatureSetByRelationshipName($feature, "NAME")` reads the records related to the feature through \
            the relationship named NAME. When the layer has no relationship of that name (renamed or removed in \
            the service, or a typing mistake) the call fails and the app shows nothing for the expression.
            """,
        fix: "Use the name of one of the layer's relationships (see its service metadata), or remove the call.",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "return Count(FeatureSetByRelationshipName($feature, \"Trees_Inspection\"))"),
                      services: ArcadeExamples.treesWithInspections),
        ],
        nonTriggeringExamples: [
            .document(ArcadeExamples.map(expression: "return Count(FeatureSetByRelationshipName($feature, 'trees_inspections', ['*'], false))"),
                      services: ArcadeExamples.treesWithInspections),
            // A name built up at run time is not checked.
            .document(ArcadeExamples.map(expression: "return Count(FeatureSetByRelationshipName($feature, 'trees_' + 'inspections'))"),
                      services: ArcadeExamples.treesWithInspections),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(ArcadeExpression.all(in: context)) { context, expression in
            guard let table = expression.layer.table else { return }
            // Most expressions name no relationship: nothing more is made for those.
            let references = expression.relationshipReferences
            guard !references.isEmpty else { return }
            let names = table.relationships.compactMap(\.name)
            var memo = SuggestionMemo()
            for reference in references where !names.contains(where: { $0.equalsIgnoringCase(reference.name) }) {
                let known = names.isEmpty ? " The layer has no relationships." :
                    (memo.closest(to: reference.name) { Suggestions.closest(to: $0, in: names) }.map { " Did you mean '\($0)'?" }
                        ?? " Its relationships: " + names.map { "'\($0)'" }.joined(separator: ", ") + ".")
                context.report(self, in: expression, at: reference.token.start, about: reference.name, message:
                    "Arcade expression \(expression.displayName) in \(expression.place) asks for relationship '\(reference.name)', which the "
                    + "\(expression.layer.layer.isTable ? "table" : "layer") does not have: the call fails and the app shows nothing for the expression."
                    + known)
            }
        }
    }
}
