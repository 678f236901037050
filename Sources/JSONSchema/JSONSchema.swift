// A JSON Schema validator for draft 2020-12 (and draft-07), written for MapRules.
//
// Why hand-written: no Swift JSON Schema package is available to this project's build, and MapRules needs
// what general-purpose validators do not give: violations tied to the byte offsets of the position-keeping
// `JSONNode` tree (so every diagnostic has an exact line and column), "did you mean" suggestions, and one
// useful violation for a failed `anyOf` / `oneOf` instead of every alternative's. It is also built for speed:
// a schema is compiled once into a tree of validator nodes (`SchemaNode`, `Keyword`), reused across files and
// threads; a valid document is checked without building strings or collecting anything, and only a document
// that fails is walked again to explain why.
//
// Coverage: the core, applicator, validation, unevaluated and format-annotation vocabularies of 2020-12
// (`$ref`, `$defs`, `$anchor`, `$dynamicRef` / `$dynamicAnchor`, `$id` base URIs, `$vocabulary` of custom
// meta-schemas), and draft-07 semantics for resources whose `$schema` says so (`$ref` overrides its siblings,
// array-form `items` with `additionalItems`, `dependencies`, `definitions`, `$id` plain-name fragments).
// `format` is an annotation only. Remote references are never fetched: a `SchemaRegistry` maps `$id` URIs to
// loaded schemas, and a `SchemaLoader` (e.g. `RefDirectories`) maps URLs to local files. Conformance with the
// JSON-Schema-Test-Suite is tested in Tests/JSONSchemaTests; the known gaps are listed in Schemas/README.md
// ("Validator conformance").
//
// Map of the module: `SchemaRegistry` (documents, `$id`s and anchors, compilation), `KeywordCompiler` (one
// schema object into keywords), `SchemaNode` (a compiled schema and its validation loop), `Keywords/` (the
// keywords; `BestBranch` explains failed alternatives), `ValidationContext` (one run: mode, path, violations),
// `ECMARegex` (patterns), `ShippedSchemas` (the schemas of Schemas/, compiled into the binary).

import WebMap

/// One way an instance fails its schema.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// RFC 6901 pointer of the offending value (relative to the file's root).
    public var instancePointer: JSONPointer
    /// Byte offset where the offending value (or, for a property that is not allowed, its key) starts.
    public var instanceOffset: Int
    /// The keyword that failed: `type`, `enum`, `required`, `additionalProperties`...
    public var keyword: String
    /// Absolute location of that keyword in the schema: the schema resource's URI and a JSON Pointer fragment.
    public var schemaLocation: String
    /// What the schema allows, in words ("one of ArcGISFeatureLayer, GroupLayer", "boolean").
    public var expected: String
    /// What the instance has ("'ArcGISFeaturelayer'", "string").
    public var found: String
    /// A sentence for a person, with a suggestion when one helps.
    public var message: String

    public init(instancePointer: JSONPointer, instanceOffset: Int, keyword: String, schemaLocation: String,
                expected: String, found: String, message: String) {
        self.instancePointer = instancePointer
        self.instanceOffset = instanceOffset
        self.keyword = keyword
        self.schemaLocation = schemaLocation
        self.expected = expected
        self.found = found
        self.message = message
    }

    public var description: String { "\(instancePointer.description.isEmpty ? "/" : instancePointer.description): \(message) [\(keyword) at \(schemaLocation)]" }
}

/// A schema that cannot be used: not JSON, a keyword with a value of the wrong kind, an unresolvable `$ref`,
/// a pattern that is not a regular expression.
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    /// Where in which schema (URI with a JSON Pointer fragment).
    public var location: String
    public var message: String

    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// The JSON Schema drafts the validator understands.
public enum SchemaDraft: String, Sendable, CaseIterable {
    case draft7 = "http://json-schema.org/draft-07/schema#"
    case draft2019_09 = "https://json-schema.org/draft/2019-09/schema"
    case draft2020_12 = "https://json-schema.org/draft/2020-12/schema"

    /// The draft a `$schema` URI names, nil for any other meta-schema.
    public init?(metaSchemaURI uri: String) {
        var text = uri
        if text.hasSuffix("#") { text.removeLast() }
        if text.hasPrefix("https://") { text = "http://" + text.dropFirst(8) }
        switch text {
        case "http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema",
             "http://json-schema.org/draft-04/schema":
            self = .draft7
        case "http://json-schema.org/draft/2019-09/schema": self = .draft2019_09
        case "http://json-schema.org/draft/2020-12/schema": self = .draft2020_12
        default: return nil
        }
    }
}
