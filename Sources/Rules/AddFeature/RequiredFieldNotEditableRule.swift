import WebMap

/// `add-feature/required-field-not-editable`: a layer users can add features to has a required field the
/// pop-up does not let them fill in.
public enum RequiredFieldNotEditableRule: MapRule {
    public static let description = RuleDescription(
        id: "add-feature/required-field-not-editable",
        severity: .error,
        summary: "A layer users can add features to has a required field that its pop-up does not let them edit.",
        rationale: """
            A new feature is filled in through its pop-up: only the editable display fields (visible, \
            `isEditable: true`, editable in the service, of an editable type) get a value. A field that is not \
            nullable, has no default value and that the service does not fill in itself (object id, global id, \
            editor tracking) must be among them, or the service refuses every new feature: the user fills in the \
            form and can never save it. Not checked: the geometry field (the app sets it from the point placed \
            on the map) and the key field of a many-to-one relationship the app uses (set by choosing the \
            related record). A layer with a form (`formInfo` with elements) is filled in through its form \
            instead: `form/required-unreachable` checks it, and this rule does not.
            """,
        fix: "Show the field in the pop-up with `visible` and `isEditable` true, or give it a default value (or make it nullable) in the service.",
        triggeringExamples: [
            .document(Examples.map(), services: speciesSnapshot),
            .document(Examples.map(fieldInfos: """
                {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                          {"fieldName": "Species", "label": "Species", "visible": false, "isEditable": true}
                """), services: speciesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(fieldInfos: """
                {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true},
                          {"fieldName": "Species", "label": "Species", "visible": true, "isEditable": true}
                """), services: speciesSnapshot),
            .document(Examples.map(), services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
                {"name": "Species", "type": "esriFieldTypeString", "alias": "Species", "nullable": false, "editable": true, "length": 50, "defaultValue": "Unknown"}
                """)])),
        ])

    /// Trees with a required `Species` field and no default value.
    private static let speciesSnapshot = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
        {"name": "Species", "type": "esriFieldTypeString", "alias": "Species", "nullable": false, "editable": true, "length": 50}
        """)])

    public static func check(_ context: MapContext) {
        // A form-enabled layer is filled in through its form: form/required-unreachable checks it instead.
        context.forEachConcurrently(context.behavior.layers) { context, layer in
            guard layer.addFeature.isEligible && !layer.isFormEnabled else { return }
            guard let table = layer.table, let popup = layer.popup else { return }
            // Made on the first field that needs a value: most layers have few or none.
            lazy var chosenKeys = context.behavior.relationships(of: layer)
                .filter { $0.kind == .manyToOne && $0.isUsed }
                .compactMap(\.relationship.keyField)
            for field in table.fields {
                guard !field.nullable, field.editable, field.defaultValue == nil, field.type != .geometry,
                      !table.isSystemMaintained(field),
                      !layer.showsEditable(field, forNewRecord: true),
                      !chosenKeys.contains(where: { $0.equalsIgnoringCase(field.name) })
                else { continue }
                let entries = popup.fieldInfos.filter { layer.field(of: $0) === field }
                let reason: String
                let fix: String
                let pointer: JSONPointer
                if let info = entries.first(where: \.visible) ?? entries.first {
                    pointer = info.pointer / "fieldName"
                    if !info.visible {
                        reason = "the pop-up hides it (`visible: false`)"
                        fix = "Set `visible` and `isEditable` to true on its `fieldInfos` entry"
                    } else if !info.isEditable {
                        reason = "the pop-up shows it as not editable (`isEditable` is not true)"
                        fix = "Set `isEditable` to true on its `fieldInfos` entry"
                    } else {
                        reason = "the app cannot edit \(field.type.shortName) fields"
                        fix = "Give the field a default value or make it nullable in the service"
                    }
                } else {
                    pointer = popup.pointer / "fieldInfos"
                    reason = "the pop-up does not list it"
                    fix = "Add it to `fieldInfos` with `visible` and `isEditable` true"
                }
                let fixTail = fix.hasPrefix("Give") ? "." : ", or give it a default value in the service."
                context.report(self, pointer: pointer, message:
                    "Layer \(layer.layer.displayName) requires a value for field \(field.displayName) (not nullable, "
                    + "no default value, editable in the service), but \(reason): a new feature can never be saved. "
                    + fix + fixTail,
                    layer: layer)
            }
        }
    }
}
