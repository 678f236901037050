import WebMap

/// `popup/title-unknown-field`: a `{name}` placeholder in the pop-up title names no field of the layer.
public enum TitleUnknownFieldRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/title-unknown-field",
        severity: .error,
        summary: "A placeholder in the pop-up title names no field of the layer.",
        rationale: """
            The app fills each `{name}` placeholder of the title with the feature's value of that field. A \
            name that is no field of the layer is never filled: the pop-up view, the identify result list and \
            the related-record rows show the braces as typed instead of naming the feature. Field names \
            compare case-insensitively, as the services do; `{expression/...}` placeholders are \
            popup/unknown-expression's concern.
            """,
        fix: "Correct the placeholder to the name of a field of the layer (not its alias), or remove it.",
        triggeringExamples: [
            .document(Examples.map(title: "{Adress}"), services: Examples.treesSnapshot),
            .document(Examples.map(title: "Tree at {Address} ({Tree Condition})"), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(title: "Tree at {ADDRESS} ({Condition})"), services: Examples.treesSnapshot),
            .document(Examples.map(extraPopup: #""expressionInfos": [{"name": "age", "expression": "1"}]"#,
                                   title: "{Address}, {expression/age} years"),
                      services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(PopupSubject.all(in: context)) { context, subject in
            guard let table = subject.layer.table, let title = subject.popup.title else { return }
            var seen: Set<String> = []
            PopupPlaceholders.forEachName(in: title) { name in
                guard PopupPlaceholders.expressionName(name) == nil, !name.hasPrefix("relationships/"),
                      table.field(named: name) == nil, seen.insert(name).inserted else { return }
                let byAlias = table.fields.first { $0.alias?.caseInsensitiveCompare(name) == .orderedSame }
                let suggestion = byAlias?.name ?? Suggestions.closest(to: name, in: table.fields.map(\.name))
                context.report(self, pointer: subject.popup.pointer / "title", message:
                    "Pop-up title of \(subject.name) uses the placeholder {\(name)}, which names no field of the "
                    + "layer, so the app shows it as typed instead of the feature's value."
                    + (suggestion.map { " Did you mean {\($0)}?" } ?? " Use the name of a field of the layer or remove the placeholder."),
                    layer: subject.layer)
            }
        }
    }
}
