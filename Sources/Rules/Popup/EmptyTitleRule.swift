import WebMap

/// `popup/empty-title`: the pop-up has no title, or a blank one.
public enum EmptyTitleRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/empty-title",
        severity: .warning,
        summary: "The pop-up title is missing or blank.",
        rationale: """
            The app names a feature by its pop-up title: in the pop-up view's navigation bar, in the list of \
            identify results and in related-record rows. With no title every feature appears without a name, \
            and a user cannot tell one result from another.
            """,
        fix: "Give the pop-up a `title`, usually with a placeholder of an identifying field, such as `{Address}`.",
        triggeringExamples: [
            .document(Examples.map(title: " "), services: Examples.treesSnapshot),
            .document(PopupExamples.map(popup: #""fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]"#),
                      services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(title: "{Address}"), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(PopupSubject.all(in: context)) { context, subject in
            let node = subject.popup.titleNode
            // A title of another type is schema/invalid's concern.
            guard node == nil || node?.isNull == true || node?.string?.allSatisfy(\.isWhitespace) == true else { return }
            let state = node?.string == nil ? "has no title" : "has a blank title"
            context.report(self, pointer: subject.popup.pointer / "title", message:
                "Pop-up of \(subject.name) \(state), so its features appear without a name in the pop-up view and "
                + "the result list. Set `title`, e.g. to a placeholder of an identifying field such as {\(exampleField(subject))}.",
                layer: subject.layer)
        }
    }

    /// The layer's display field, else its first visible pop-up field, else a generic name.
    private static func exampleField(_ subject: PopupSubject) -> String {
        if let name = subject.layer.table?.displayField, !name.isEmpty { return name }
        return subject.layer.displayFields.first { $0.expressionName == nil }?.fieldInfo.fieldName ?? "NAME"
    }
}
