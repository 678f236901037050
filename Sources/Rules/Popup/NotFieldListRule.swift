import WebMap

/// `popup/not-field-list`: the pop-up's content is custom HTML or elements without a field list.
public enum NotFieldListRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/not-field-list",
        severity: .warning,
        summary: "The pop-up content is custom HTML or elements with no fields element.",
        rationale: """
            The app shows and edits a feature's attributes as the pop-up's field list. A pop-up whose \
            `popupElements` have no `fields` element, or a classic pop-up (no `popupElements`) whose custom \
            `description` HTML replaces the field list, gives it no list to order attributes by or to edit them \
            in: users see the author's layout elsewhere and cannot edit attributes from it in the field.
            """,
        fix: "Add a `{\"type\": \"fields\"}` element to `popupElements` (keep the text elements around it), or remove the custom `description`.",
        triggeringExamples: [
            .document(PopupExamples.map(popup: """
                "title": "{Address}",
                        "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}],
                        "popupElements": [{"type": "text", "text": "Tree at {Address}"}]
                """), services: Examples.treesSnapshot),
            .document(PopupExamples.map(popup: """
                "title": "{Address}",
                        "description": "<b>{Address}</b><br>Condition: {Condition}",
                        "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]
                """), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(PopupExamples.map(popup: """
                "title": "{Address}",
                        "fieldInfos": [{"fieldName": "Address", "label": "Address", "visible": true}]
                """), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(PopupSubject.all(in: context)) { context, subject in
            let popup = subject.popup
            let elements = popup.popupElements
            if !elements.isEmpty {
                guard !elements.contains(where: { $0.type == "fields" }) else { return }
                let types = elements.map { $0.type ?? "untyped" }.joined(separator: ", ")
                context.report(self, pointer: popup.pointer / "popupElements", message:
                    "Pop-up of \(subject.name) has `popupElements` (\(types)) but no `fields` element, so the app "
                    + "has no field list to show or edit attributes in. Add a {\"type\": \"fields\"} element.",
                    layer: subject.layer)
            } else if let text = popup.description, !text.allSatisfy(\.isWhitespace) {
                context.report(self, pointer: popup.pointer / "description", message:
                    "Pop-up of \(subject.name) replaces its field list with custom `description` HTML, which the "
                    + "app cannot order or edit attributes from. Remove the description, or add `popupElements` "
                    + "with a {\"type\": \"fields\"} element.",
                    layer: subject.layer)
            }
        }
    }
}
