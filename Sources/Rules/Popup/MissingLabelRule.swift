import WebMap

/// `popup/missing-label`: a display field has no label, so the raw field name is shown.
public enum MissingLabelRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/missing-label",
        severity: .info,
        summary: "A pop-up field has no label: the raw field name is shown.",
        rationale: """
            The app labels each displayed field with its `fieldInfos` `label`. Without one (or with a blank \
            one) it shows the raw field name, such as `SITE_WIDTH_FT`, which users in the field may not \
            understand. An expression field without a label uses its expression's `title` when it has one.
            """,
        fix: "Give the `fieldInfos` entry a `label`, for example the field's alias (`maprules lint --fix` adds the alias).",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Address", "visible": true}"#), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Address", "label": "Street address", "visible": true}"#),
                      services: Examples.treesSnapshot),
            .document(Examples.map(fieldInfos: """
                {"fieldName": "Address", "label": "Street address", "visible": true},
                          {"fieldName": "Condition", "visible": false}
                """), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(PopupSubject.all(in: context)) { context, subject in
            for display in subject.layer.displayFields {
                let info = display.fieldInfo
                guard info.label.map(isBlank) ?? true else { continue }
                // The first expression of that name gives the title the app shows.
                if let expression = display.expressionName,
                   let title = subject.popup.expressionInfos.first(where: { $0.name == expression }).map({ $0.node["title"]?.string ?? "" }),
                   !isBlank(title) { continue }
                let name = info.fieldName ?? ""
                let hint = display.field.flatMap { field in
                    field.alias.flatMap { $0.isEmpty || $0 == field.name ? nil : " (the field's alias is '\($0)')" }
                } ?? ""
                let pointer = info.label == nil ? info.pointer / "fieldName" : info.pointer / "label"
                context.report(self, pointer: pointer, message:
                    "Pop-up of \(subject.name) shows field '\(name)' without a label, so the app shows the raw name "
                    + "'\(name)'. Add a `label`\(hint).",
                    layer: subject.layer, fix: fix(for: info, field: display.field, in: context))
            }
        }
    }

    /// The field's alias as the label: added after `fieldName`, or written over a blank `label`.
    private static func fix(for info: PopupFieldInfo, field: FieldDefinition?, in context: MapContext) -> Fix? {
        guard let field, let alias = field.alias, !isBlank(alias) else { return nil }
        let description = "Label field '\(field.name)' with its alias '\(alias)'."
        if let label = info.node["label"] {
            return context.fixes.replace(label, at: info.pointer / "label", with: .string(alias), description: description)
        }
        return context.fixes.add("label", .string(alias), to: info.node, at: info.pointer, after: "fieldName", description: description)
    }

    /// True when the text is empty or only white space (as `allSatisfy(\.isWhitespace)`), answered from the
    /// first byte for most labels.
    private static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, first < 0x80, first > 0x20, first != 0x7F { return false }
        return text.allSatisfy(\.isWhitespace)
    }
}
