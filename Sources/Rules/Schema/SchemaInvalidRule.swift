import JSONSchema
import WebMap

/// `schema/invalid`: the document violates the shipped JSON Schema (`Schemas/webmap.schema.json`, or
/// `Schemas/popup.schema.json` for a pop-up definition file). One diagnostic per violation, at the offending
/// value.
public enum SchemaInvalidRule: MapRule {
    public static let description = RuleDescription(
        id: "schema/invalid",
        severity: .error,
        summary: "The document violates the MapRules JSON Schema for web maps (or pop-up definitions).",
        rationale: """
            The field app reads the web map with a strict decoder: a misspelled layer type, a string where a \
            number belongs or a pop-up element of an unknown type makes it skip the layer or the pop-up, \
            usually without saying why, and the other rules cannot judge what the app will never load. \
            `Schemas/webmap.schema.json` writes down what the web map specification allows (strict on enums, \
            required keys and types; open to the vendor keys real maps carry), and each violation is reported \
            at the value that breaks it, with the keyword, what was expected and what was found.
            """,
        fix: """
            Correct the value the diagnostic points at: use one of the allowed values (the message suggests \
            the closest), the expected type, or add the missing property. `maprules validate --schema webmap \
            FILE` shows the same violations on their own.
            """,
        triggeringExamples: [
            .document("""
                {
                  "operationalLayers": [
                    {
                      "id": "Trees_1234",
                      "title": "Trees",
                      "layerType": "ArcGISFeaturelayer",
                      "url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/0"
                    }
                  ],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []},
                  "version": "2.28"
                }
                """, services: Examples.treesSnapshot),
            .document("""
                {
                  "operationalLayers": [
                    {"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer", "visibility": "yes",
                     "url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/0"}
                  ],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []},
                  "version": "2.28"
                }
                """, services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
        ])

    /// The compiled schemas, once per process (nil when a shipped schema does not compile, which the schema
    /// tests catch).
    static let webmapSchema = try? ShippedSchemas.schema(named: "webmap")
    static let popupSchema = try? ShippedSchemas.schema(named: "popup")

    /// The schema a map is validated against, and whether its parse found a key written twice; nil when the
    /// shipped schema could not be loaded.
    private static func schema(for context: MapContext) -> (schema: Schema, isPopup: Bool, repeatedKeys: Bool)? {
        schema(for: context.document, parsed: context.lint.parsed)
    }

    private static func schema(for document: WebMapDocument, parsed: ParsedJSON?) -> (schema: Schema, isPopup: Bool, repeatedKeys: Bool)? {
        let isPopup = document.layers.count == 1 && document.layers[0].isStandalonePopup
        guard let schema = isPopup ? popupSchema : webmapSchema else { return nil }
        return (schema, isPopup, !(parsed?.duplicateKeys.isEmpty ?? true))
    }

    /// Starts the validation of `document` on another thread (see ``SchemaValidationAside``), as soon as the
    /// map is recognised; `check` then reports what it found. Nil when the shipped schema could not be loaded.
    static func startAside(_ document: WebMapDocument, parsed: ParsedJSON?) -> SchemaValidationAside? {
        guard let (schema, _, repeatedKeys) = schema(for: document, parsed: parsed) else { return nil }
        return SchemaValidationAside(schema: schema, root: document.root, repeatedKeys: repeatedKeys)
    }

    /// The same for a document whose root is a web map (``WebMapDocument/mapForm(of:)`` is not nil), started
    /// before its layers are read: the map's schema is the web map schema whatever its layers hold (only a
    /// standalone pop-up definition is validated against the pop-up schema).
    static func startAside(mapRoot root: JSONNode, parsed: ParsedJSON?) -> SchemaValidationAside? {
        guard WebMapDocument.mapForm(of: root) != nil, let schema = webmapSchema else { return nil }
        return SchemaValidationAside(schema: schema, root: root, repeatedKeys: !(parsed?.duplicateKeys.isEmpty ?? true))
    }

    public static func check(_ context: MapContext) {
        let document = context.document
        guard let (schema, isPopup, repeatedKeys) = schema(for: context) else { return }
        // Arrays the parser checked without keeping (inline features of huge files) read as empty: say nothing
        // about them.
        let elided = context.lint.parsed?.elidedArrays.keys.map(\.tokens) ?? []
        let violations = context.schemaValidation?.wait() ?? schema.validate(document.root, repeatedKeys: repeatedKeys)
        for violation in violations
        where !elided.contains(where: { violation.instancePointer.tokens.starts(with: $0) })
            && !isMapLevelRequirement(violation) {
            let layer = isPopup ? nil : SchemaDiagnostics.layer(containing: violation.instancePointer, in: document)
            context.lint.report(self, pointer: violation.instancePointer, offset: violation.instanceOffset,
                                message: SchemaDiagnostics.message(for: violation), layer: layer)
        }
    }
}

/// The web map specification's four top-level keys (operationalLayers, baseMap, spatialReference, version),
/// which the shipped schema requires for `maprules validate`: lint leaves them to the rules that explain them
/// (rules.md: map/no-operational-layers warns about a missing operationalLayers, json/not-a-map decides what
/// is a map), and real exported maps often omit spatialReference or version, which the app does not need.
func isMapLevelRequirement(_ violation: SchemaViolation) -> Bool {
    violation.keyword == "required" && violation.schemaLocation.hasSuffix("/$defs/webMap/required")
}

/// Turning schema violations into diagnostics (shared by `schema/invalid` and `maprules validate`).
public enum SchemaDiagnostics {
    /// The violation's sentence followed by the keyword that failed: "… Did you mean 'ArcGISFeatureLayer'? (enum)".
    public static func message(for violation: SchemaViolation) -> String {
        "\(violation.message) (\(violation.keyword))"
    }

    /// The innermost layer or table whose object contains `pointer`.
    static func layer(containing pointer: JSONPointer, in document: WebMapDocument) -> MapLayer? {
        var best: MapLayer?
        for layer in document.layers where pointer.tokens.starts(with: layer.pointer.tokens) {
            if best == nil || layer.pointer.tokens.count > best!.pointer.tokens.count { best = layer }
        }
        return best
    }

    /// The diagnostic of a violation in `source`.
    public static func diagnostic(for violation: SchemaViolation, in source: SourceText, severity: Severity = .error) -> Diagnostic {
        let position = source.position(ofOffset: violation.instanceOffset)
        return Diagnostic(ruleId: SchemaInvalidRule.description.id, severity: severity, message: message(for: violation),
                          pointer: violation.instancePointer.description, line: position.line, column: position.column)
    }
}
