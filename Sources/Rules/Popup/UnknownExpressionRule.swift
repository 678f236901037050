import WebMap

/// `popup/unknown-expression`: `expression/x` is used in the pop-up but no `expressionInfos` entry is named `x`.
public enum UnknownExpressionRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/unknown-expression",
        severity: .error,
        summary: "A pop-up uses an Arcade expression that it does not define.",
        rationale: """
            A `fieldInfos` entry named `expression/x`, or a `{expression/x}` placeholder in the title or the \
            description, shows the value of the `expressionInfos` entry named `x`. When there is no such entry \
            the app has nothing to evaluate: the row stays empty and the placeholder is shown as typed. It \
            usually comes from an expression renamed or deleted after the pop-up was configured.
            """,
        fix: "Add an `expressionInfos` entry with that `name`, or correct the reference to the name of an existing expression.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "expression/treAge", "label": "Age", "visible": true}"#,
                                   extraPopup: #""expressionInfos": [{"name": "treeAge", "title": "Age", "expression": "DateDiff(Now(), $feature.PlantedDate, 'years')"}]"#),
                      services: Examples.treesSnapshot),
            .document(Examples.map(title: "{Address} ({expression/ward})"), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "expression/treeAge", "label": "Age", "visible": true}"#,
                                   extraPopup: #""expressionInfos": [{"name": "treeAge", "title": "Age", "expression": "DateDiff(Now(), $feature.PlantedDate, 'years')"}]"#,
                                   title: "{Address} ({expression/treeAge})"),
                      services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(PopupSubject.all(in: context)) { context, subject in
            let popup = subject.popup
            // The pointer is made only for a finding: most references are fine.
            func check(_ name: String, pointer: @autoclosure () -> JSONPointer, where place: String) {
                guard !popup.expressionInfos.contains(where: { $0.name == name }) else { return }
                let suggestion = Suggestions.closest(to: name, in: popup.expressionInfos.compactMap(\.name))
                context.report(self, pointer: pointer(), message:
                    "Pop-up of \(subject.name) uses expression '\(name)' in \(place), but its `expressionInfos` "
                    + "define no expression of that name, so the app shows nothing for it."
                    + (suggestion.map { " Did you mean '\($0)'?" }
                        ?? " Add an `expressionInfos` entry named '\(name)' or correct the reference."),
                    layer: subject.layer)
            }
            for (position, facts) in subject.layer.fieldInfoFacts.enumerated() where facts.isExpression {
                let info = popup.fieldInfos[position]
                if let name = info.expressionName { check(name, pointer: info.pointer / "fieldName", where: "its `fieldInfos`") }
            }
            for key in textKeys {
                guard let text = popup.node[key]?.string else { continue }
                var seen: Set<String> = []
                PopupPlaceholders.forEachName(in: text) { placeholder in
                    guard let name = PopupPlaceholders.expressionName(placeholder), seen.insert(name).inserted else { return }
                    check(name, pointer: popup.pointer / key, where: "its \(key)")
                }
            }
        }
    }

    /// The pop-up texts whose `{expression/x}` placeholders are checked.
    private static let textKeys = ["title", "description"]
}
