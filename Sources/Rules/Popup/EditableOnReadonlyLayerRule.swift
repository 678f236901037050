import WebMap

/// `popup/editable-on-readonly-layer`: editable pop-up fields on a layer or table that can neither update nor add.
public enum EditableOnReadonlyLayerRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/editable-on-readonly-layer",
        severity: .warning,
        summary: "The pop-up marks fields editable on a layer or table that can neither update nor add.",
        rationale: """
            The app edits a record only when its feature table can update it (or add it, for a new record). On \
            a layer or table whose capabilities allow neither, nothing is ever editable, whatever the pop-up's \
            `isEditable` flags say: the author probably expected editing to be enabled (often the map's \
            `layerDefinition.capabilities` override removes it). One diagnostic per visible editable field.
            """,
        fix: "Enable Update (and Create) on the service or remove the map's capabilities override, or set `isEditable` to false on these fields.",
        triggeringExamples: [
            .document(Examples.map(), services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Query")])),
            .document(Examples.map(layerExtra: #""layerDefinition": {"capabilities": "Query"}"#), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(), services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(capabilities: "Query,Create")])),
        ])

    public static func check(_ context: MapContext) {
        for flag in EditableFlag.all(in: context) where flag.problem == .readOnlyLayer {
            let layer = flag.subject.layer
            let capabilities = layer.table?.capabilities.description ?? ""
            let overridden = layer.layer.layerDefinition?["capabilities"]?.string != nil
            context.report(self, pointer: flag.pointer, message:
                "Pop-up of \(flag.subject.name) marks field \(flag.field.displayName) editable, but the "
                + "\(layer.layer.isTable ? "table" : "layer")'s capabilities ("
                + (capabilities.isEmpty ? "none" : capabilities)
                + (overridden ? ", set by the map's `layerDefinition`" : "")
                + ") allow neither Update nor Create, so nothing is ever editable there. "
                + (overridden ? "Add Update (or Create) to the map's `layerDefinition.capabilities`" : "Enable editing on the service")
                + ", or set `isEditable` to false.",
                layer: layer)
        }
    }
}
