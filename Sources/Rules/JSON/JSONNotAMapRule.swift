import WebMap

/// `json/not-a-map`: a file named explicitly is JSON but not a web map (nor a pop-up definition).
public enum JSONNotAMapRule: DocumentRule {
    public static let description = RuleDescription(
        id: "json/not-a-map",
        severity: .error,
        summary: "The file is JSON but not a web map.",
        rationale: """
            A web map is a JSON object with `operationalLayers` and usually `baseMap` (or the \
            `{"item": ..., "itemData": ...}` wrapper some tools export). A file that is neither, nor a pop-up \
            definition, cannot be loaded by the app as a map; when it was named on the command line it was \
            probably meant to be one, or passed in the wrong place (service metadata belongs in a services \
            snapshot or `--layer`). Files found in a directory that are not maps are skipped silently.
            """,
        fix: "Lint the web map's item data (not the item's description, a layer's metadata or a snapshot), or pass the file with the option it belongs to.",
        triggeringExamples: [
            .document(#"{"item": {"title": "Street trees", "type": "Web Map"}, "itemData": "{\"operationalLayers\": []}"}"#),
            .document(#"[{"id": "Trees_1234", "layerType": "ArcGISFeatureLayer"}]"#),
            .document(#"{"id": 0, "name": "Trees", "type": "Feature Layer", "fields": []}"#),
            .document("null"),
        ],
        nonTriggeringExamples: [
            .document(#"{"operationalLayers": [], "baseMap": {"title": "Topographic", "baseMapLayers": []}}"#),
            .document(#"{"item": {"title": "Street trees"}, "itemData": {"operationalLayers": []}}"#),
            .document(#"{"title": "{Address}", "fieldInfos": [{"fieldName": "Address", "visible": true}]}"#),
        ])

    public static func check(_ context: LintContext) {
        guard let parsed = context.parsed, context.document == nil,
              context.isExplicit || WebMapDocument.looksLikeBrokenWrapper(parsed.root) else { return }
        context.report(self, pointer: .root, offset: parsed.root.offset, message: message(for: parsed.root))
    }

    /// What was found instead of a map, and what to do with it.
    static func message(for root: JSONNode) -> String {
        guard let object = root.object else {
            let found = root.isNull ? "`null`" : root.typeName == "array" ? "an array" : "a \(root.typeName)"
            var text = "The file holds \(found), not a web map: a web map is a JSON object with `operationalLayers` and `baseMap`."
            if let first = root.array?.first, first["layerType"] != nil || first["url"] != nil {
                text += " It looks like a list of layers: put it in the `operationalLayers` of a map object."
            }
            return text
        }
        let lead = "The file is a JSON object but not a web map: it has none of `operationalLayers`, `baseMap` or the `item`/`itemData` wrapper."
        if object["item"] != nil, let data = object["itemData"], data.object == nil {
            let hint = data.string != nil ? " It holds text: the item data was probably encoded as JSON twice; store the object itself." : ""
            return "The file is an `item`/`itemData` export, but `itemData` is \(data.isNull ? "null" : "a \(data.typeName)"), not a web map object." + hint
        }
        if object["item"] != nil {
            return lead + " It has `item` but no `itemData` object: export the item together with its data, or lint the item data alone."
        }
        if object["fields"] != nil && (object["geometryType"] != nil || object["type"] != nil || object["objectIdField"] != nil) {
            return lead + """
                 It looks like a feature service layer's metadata: put it in a services snapshot (--services), or \
                pass it with --layer when linting a pop-up definition.
                """
        }
        if object["layers"] != nil && (object["serviceDescription"] != nil || object["capabilities"] != nil) {
            return lead + " It looks like a feature service's root metadata: put it in a services snapshot (--services)."
        }
        if !object.isEmpty && object.members.allSatisfy({ $0.key.lowercased().hasPrefix("http") }) {
            return lead + " It looks like a services snapshot: pass it with --services FILE and lint the map itself."
        }
        if object["title"] != nil && (object["description"] != nil || object["expressionInfos"] != nil || object["mediaInfos"] != nil
                                      || object["showAttachments"] != nil) {
            return lead + """
                 It looks like a pop-up definition without `fieldInfos` or `popupElements`: add them, and pass the \
                layer's metadata with --layer FILE.
                """
        }
        if object["layerType"] != nil || object["popupInfo"] != nil {
            return lead + " It looks like a single layer: put it in the `operationalLayers` of a map object (or lint its `popupInfo` with --layer)."
        }
        let keys = object.keys.prefix(5).map { "`\($0)`" }.joined(separator: ", ")
        return lead + (keys.isEmpty ? " It is empty." : " Its keys: \(keys)\(object.keys.count > 5 ? ", ..." : "").")
    }
}
