import WebMap

/// `popup/unknown-field`: a pop-up field names no field of the layer.
public enum UnknownFieldRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/unknown-field",
        severity: .error,
        summary: "A pop-up field names no field of the layer.",
        rationale: """
            The app builds the pop-up from `fieldInfos`: an entry whose `fieldName` matches no field of the \
            layer shows an empty row in the pop-up and can never be edited. It usually comes from a field \
            renamed or removed in the service after the map was saved, or from a typing mistake.
            """,
        fix: "Correct the `fieldName` to a field of the layer (names compare case-insensitively), or remove the entry.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Conditon", "label": "Condition", "visible": true}"#),
                      services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "condition", "label": "Condition", "visible": true}"#),
                      services: Examples.treesSnapshot),
            .document(Examples.map(fieldInfos: #"{"fieldName": "expression/age", "label": "Age", "visible": true}"#,
                                   extraPopup: #""expressionInfos": [{"name": "age", "expression": "1"}]"#),
                      services: Examples.treesSnapshot),
        ])

    /// The field an unknown name unambiguously means: the one field whose alias is that name, or whose name is
    /// that name once case, spaces, underscores and hyphens are ignored ("Planted By" for `PlantedBy` or
    /// `planted_by`). A name merely close in spelling is a suggestion in the message, never a fix: the field
    /// it resembles may be another one.
    static func unambiguousField(for name: String, in table: LayerMetadata) -> FieldDefinition? {
        let key = loose(name)
        let matches = table.fields.filter { field in
            (field.alias.map { $0.equalsIgnoringCase(name) } ?? false) || loose(field.name) == key
        }
        return matches.count == 1 ? matches[0] : nil
    }

    private static func loose(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != " " && $0 != "_" && $0 != "-" }.map(Character.init))
    }

    private static func rename(_ info: PopupFieldInfo, in table: LayerMetadata, context: MapContext) -> Fix? {
        guard let name = info.fieldName, let node = info.node["fieldName"], context.fixes.isVerbatim(node, name),
              let field = unambiguousField(for: name, in: table) else { return nil }
        return context.fixes.replace(node, at: info.pointer / "fieldName", with: .string(field.name),
                                     description: "Rename '\(name)' to the field's real name '\(field.name)'.")
    }

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(context.behavior.layers) { context, layer in
            guard let table = layer.table, let popup = layer.popup else { return }
            for (position, facts) in layer.fieldInfoFacts.enumerated() where facts.namesAField && facts.fieldIndex < 0 {
                let info = popup.fieldInfos[position]
                guard let name = info.fieldName else { continue }
                let suggestion = Suggestions.closest(to: name, in: table.fields.map(\.name))
                context.report(self, pointer: info.pointer / "fieldName", message:
                    "Pop-up of layer \(layer.layer.displayName) lists field '\(name)', which the layer does not have."
                    + (suggestion.map { " Did you mean '\($0)'?" } ?? " Remove the entry or correct the name."),
                    layer: layer, fix: rename(info, in: table, context: context))
            }
        }
    }
}
