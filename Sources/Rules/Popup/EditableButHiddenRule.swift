import WebMap

/// `popup/editable-but-hidden`: `isEditable: true` on a field the pop-up does not show.
public enum EditableButHiddenRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/editable-but-hidden",
        severity: .warning,
        summary: "The pop-up marks a field editable but hides it (`visible: false`).",
        rationale: """
            The app edits only the fields it shows: a `fieldInfos` entry with `isEditable: true` and \
            `visible: false` is never offered for editing, although the field could be edited. Usually the \
            author meant to show it.
            """,
        fix: "Set `visible` to true to let users edit the field, or set `isEditable` to false.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: """
                {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                          {"fieldName": "Condition", "label": "Condition", "visible": false, "isEditable": true}
                """), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true}"#),
                      services: Examples.treesSnapshot),
            .document(Examples.map(fieldInfos: """
                {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                          {"fieldName": "Condition", "label": "Condition", "visible": false, "isEditable": false}
                """), services: Examples.treesSnapshot),
            // Inline feature collections are read-only to the app: the editing rules do not apply.
            .document(PopupExamples.inlineMap(popup: """
                "title": "{Address}",
                                  "fieldInfos": [
                                    {"fieldName": "Address", "label": "Address", "visible": true},
                                    {"fieldName": "Condition", "label": "Condition", "visible": false, "isEditable": true}
                                  ]
                """)),
        ])

    public static func check(_ context: MapContext) {
        for flag in EditableFlag.all(in: context) where flag.problem == .hidden {
            context.report(self, pointer: flag.pointer, message:
                "Pop-up of \(flag.subject.name) marks field \(flag.field.displayName) editable but hides it "
                + "(`visible: false`), so it is never offered for editing. Set `visible` to true, or `isEditable` to false.",
                layer: flag.subject.layer)
        }
    }
}
