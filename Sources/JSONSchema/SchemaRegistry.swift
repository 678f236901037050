import Foundation
import WebMap

/// The vocabularies and draft in force for one schema resource.
struct Dialect: Hashable {
    var draft: SchemaDraft
    var validation = true
    var applicator = true
    var unevaluated = true

    /// Draft-04 (read with draft-07 semantics): `id` instead of `$id`, boolean `exclusiveMinimum` / `exclusiveMaximum`.
    var isDraft4 = false

    init(draft: SchemaDraft) { self.draft = draft }

    var isDraft7: Bool { draft == .draft7 }
    /// Draft 2019-09 and draft-07 spell tuples as array-form `items` plus `additionalItems`.
    var hasArrayItems: Bool { draft != .draft2020_12 }
}

/// What is known about one place in a schema document: its base URI, dialect and enclosing resource.
struct LocationInfo {
    var base: URIReference
    var dialect: Dialect
    /// URI of the enclosing schema resource.
    var resource: String
    /// Pointer (in the document) of that resource's root.
    var resourcePointer: [String]
}

/// One schema document held by a registry.
final class SchemaDocument {
    let id: Int
    let root: JSONNode
    let retrievalURI: String
    /// Every schema location found by indexing, by JSON Pointer.
    var locations: [String: LocationInfo] = [:]

    init(id: Int, root: JSONNode, retrievalURI: String) {
        self.id = id
        self.root = root
        self.retrievalURI = retrievalURI
    }
}

/// Holds schema documents by URI and compiles them into `Schema`s. Every `$id` (and `$anchor`) in an added
/// document is registered, so `$ref`s between documents resolve without fetching anything; URIs no document
/// claims are asked of the `loader`. The draft 2020-12 and draft-07 meta-schemas are built in.
///
/// Compiled schemas are cached: compiling the same URI twice returns the same nodes, and the registry (kept
/// alive by every `Schema` it produced) owns them. Adding and compiling take a lock; validating does not
/// touch the registry at all, so one `Schema` can validate on many threads at once.
public final class SchemaRegistry: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let loader: (any SchemaLoader)?
    /// The draft of documents that do not say (`$schema`).
    public let defaultDraft: SchemaDraft

    private var documents: [SchemaDocument] = []
    private var resources: [String: (SchemaDocument, [String])] = [:]
    private var anchors: [String: (SchemaDocument, [String])] = [:]
    private var dynamicAnchorPointers: [String: [String: [String]]] = [:]
    private var nodes: [String: SchemaNode] = [:]
    private var resourceObjects: [String: SchemaResource] = [:]
    private var resourcesAwaitingAnchors: [SchemaResource] = []
    private var anonymousCount = 0
    /// Nodes compiled by the current `compileLocked` (finished together once every target exists).
    private var newNodes: [SchemaNode] = []

    public init(loader: (any SchemaLoader)? = nil, defaultDraft: SchemaDraft = .draft2020_12) {
        self.loader = loader
        self.defaultDraft = defaultDraft
    }

    // MARK: Adding documents

    /// Adds a schema document under `uri` (its retrieval URI; a made-up one when nil) and returns the URI
    /// that names its root: its `$id` when it has one.
    @discardableResult
    public func add(_ root: JSONNode, uri: String? = nil) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        return try addLocked(root, uri: uri).uri
    }

    /// Parses `text` and adds it (see `add(_:uri:)`).
    @discardableResult
    public func add(text: String, uri: String? = nil) throws -> String {
        try add(SchemaFiles.parse(SourceText(string: text), name: uri ?? "schema"), uri: uri)
    }

    /// True when a document or embedded resource is registered under `uri` (without fragment).
    public func contains(uri: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return resources[URIReference(uri).withoutFragment.description] != nil
    }

    private func addLocked(_ root: JSONNode, uri: String?) throws -> (uri: String, document: SchemaDocument) {
        let retrieval: URIReference
        if let uri {
            retrieval = URIReference(uri).withoutFragment
            guard retrieval.isAbsolute else {
                throw SchemaError(location: uri, message: "a schema's URI must be absolute (with a scheme such as https: or file:)")
            }
        } else {
            anonymousCount += 1
            retrieval = URIReference("urn:maprules:schema:\(anonymousCount)")
        }
        let document = SchemaDocument(id: documents.count, root: root, retrievalURI: retrieval.description)
        documents.append(document)
        if resources[retrieval.description] == nil { resources[retrieval.description] = (document, []) }
        let info = LocationInfo(base: retrieval, dialect: Dialect(draft: defaultDraft), resource: retrieval.description, resourcePointer: [])
        index(document, root, pointer: [], inherited: info, isDocumentRoot: true)
        return (document.locations[""]?.resource ?? retrieval.description, document)
    }

    // MARK: Indexing

    private enum Shape { case single, list, map, singleOrList }

    private static let keywords2020: [String: Shape] = [
        "additionalProperties": .single, "propertyNames": .single, "items": .single, "contains": .single,
        "if": .single, "then": .single, "else": .single, "not": .single, "unevaluatedItems": .single,
        "unevaluatedProperties": .single, "contentSchema": .single, "allOf": .list, "anyOf": .list, "oneOf": .list,
        "prefixItems": .list, "$defs": .map, "definitions": .map, "properties": .map, "patternProperties": .map,
        "dependentSchemas": .map, "dependencies": .map,
    ]
    private static let keywords2019: [String: Shape] = {
        var table = keywords2020
        table["items"] = .singleOrList
        table["additionalItems"] = .single
        table["prefixItems"] = nil
        return table
    }()
    private static let keywords7: [String: Shape] = [
        "additionalItems": .single, "additionalProperties": .single, "propertyNames": .single, "contains": .single,
        "if": .single, "then": .single, "else": .single, "not": .single, "items": .singleOrList,
        "allOf": .list, "anyOf": .list, "oneOf": .list, "definitions": .map, "properties": .map,
        "patternProperties": .map, "dependencies": .map,
    ]

    static func pointerKey(_ tokens: [String]) -> String { JSONPointer(tokens).description }

    /// Records every schema location of `node` with its base URI and dialect, and registers `$id`s and anchors.
    private func index(_ document: SchemaDocument, _ node: JSONNode, pointer: [String], inherited: LocationInfo, isDocumentRoot: Bool) {
        var info = inherited
        let key = Self.pointerKey(pointer)
        guard case .object(let object) = node.value else {
            document.locations[key] = info
            return
        }
        if isDocumentRoot || object["$id"] != nil || object["id"] != nil, let metaSchema = object["$schema"]?.string {
            info.dialect = dialect(forMetaSchema: metaSchema, depth: 0)
        }
        let id = object["$id"]?.string ?? (info.dialect.isDraft4 ? object["id"]?.string : nil)
        if info.dialect.isDraft7 && object["$ref"] != nil {
            // Draft-07: "$ref" makes every sibling keyword, "$id" included, be ignored.
            document.locations[key] = info
            return
        }
        if let id {
            if info.dialect.isDraft7 && id.hasPrefix("#") {
                anchors[info.base.description + id] = (document, pointer)
            } else {
                let resolved = info.base.resolving(id)
                let uri = resolved.withoutFragment
                info.base = uri
                info.resource = uri.description
                info.resourcePointer = pointer
                if resources[uri.description] == nil || isDocumentRoot { resources[uri.description] = (document, pointer) }
                if info.dialect.isDraft7, let fragment = resolved.fragment, !fragment.isEmpty {
                    anchors[uri.description + "#" + fragment] = (document, pointer)
                }
            }
        }
        if !info.dialect.isDraft7 {
            if let anchor = object["$anchor"]?.string {
                anchors[info.base.description + "#" + anchor] = (document, pointer)
            }
            if let anchor = object["$dynamicAnchor"]?.string {
                if anchors[info.base.description + "#" + anchor] == nil { anchors[info.base.description + "#" + anchor] = (document, pointer) }
                dynamicAnchorPointers[info.resource, default: [:]][anchor] = pointer
            }
        }
        document.locations[key] = info
        let table: [String: Shape]
        switch info.dialect.draft {
        case .draft7: table = Self.keywords7
        case .draft2019_09: table = Self.keywords2019
        case .draft2020_12: table = Self.keywords2020
        }
        for member in object.members {
            guard let shape = table[member.key] else { continue }
            let child = member.value
            switch (shape, child.value) {
            case (.single, .object), (.single, .bool), (.singleOrList, .object), (.singleOrList, .bool):
                index(document, child, pointer: pointer + [member.key], inherited: info, isDocumentRoot: false)
            case (.list, .array(let elements)), (.singleOrList, .array(let elements)):
                for (i, element) in elements.enumerated() {
                    index(document, element, pointer: pointer + [member.key, String(i)], inherited: info, isDocumentRoot: false)
                }
            case (.map, .object(let map)):
                for entry in map.members {
                    switch entry.value.value {
                    case .object, .bool:
                        index(document, entry.value, pointer: pointer + [member.key, entry.key], inherited: info, isDocumentRoot: false)
                    default:
                        break
                    }
                }
            default:
                break
            }
        }
    }

    /// The dialect a `$schema` URI selects: a known draft, or a custom meta-schema's draft and `$vocabulary`.
    private func dialect(forMetaSchema uri: String, depth: Int) -> Dialect {
        if let draft = SchemaDraft(metaSchemaURI: uri) {
            var dialect = Dialect(draft: draft)
            dialect.isDraft4 = uri.contains("draft-04")
            return dialect
        }
        var dialect = Dialect(draft: defaultDraft)
        guard depth < 4, let (document, pointer) = try? resolveLocked(URIReference(uri).withoutFragment),
              let root = JSONPointer(pointer).resolve(in: document.root), let object = root.object else { return dialect }
        if let parent = object["$schema"]?.string, parent != uri {
            dialect = self.dialect(forMetaSchema: parent, depth: depth + 1)
        }
        if let vocabulary = object["$vocabulary"]?.object {
            let keys = vocabulary.keys
            dialect.validation = keys.contains { $0.hasSuffix("/vocab/validation") }
            dialect.applicator = keys.contains { $0.hasSuffix("/vocab/applicator") }
            dialect.unevaluated = keys.contains { $0.hasSuffix("/vocab/unevaluated") } || (dialect.draft == .draft2019_09 && dialect.applicator)
        }
        return dialect
    }

    // MARK: Resolving

    private static let builtIn: [String: JSONNode] = {
        var table: [String: JSONNode] = [:]
        for (uri, text) in MetaSchemas.all {
            if let root = try? JSONParser.parse(text).root { table[uri] = root }
        }
        return table
    }()

    /// The document and pointer a URI (with optional fragment) names, loading the document when needed.
    private func resolveLocked(_ uri: URIReference) throws -> (SchemaDocument, [String]) {
        let key = uri.withoutFragment.description
        if resources[key] == nil {
            if let builtIn = Self.builtIn[key] {
                _ = try addLocked(builtIn, uri: key)
            } else if let loader, let loaded = try loader.load(uri: key) {
                _ = try addLocked(loaded, uri: key)
            }
        }
        guard let (document, root) = resources[key] else {
            throw SchemaError(location: uri.description,
                              message: "no schema is known by the URI \(key) (remote schemas are not fetched: add it to the registry, or use --ref-dir to map its URL to a local folder)")
        }
        let fragment = uri.fragment ?? ""
        if fragment.isEmpty { return (document, root) }
        let decoded = URIReference.percentDecoded(fragment)
        if decoded.hasPrefix("/") {
            guard let pointer = JSONPointer(parsing: decoded) else {
                throw SchemaError(location: uri.description, message: "the fragment is not a JSON Pointer")
            }
            let tokens = root + pointer.tokens
            guard JSONPointer(tokens).resolve(in: document.root) != nil else {
                throw SchemaError(location: uri.description, message: "the JSON Pointer \(decoded) names nothing in \(key)")
            }
            return (document, tokens)
        }
        if let found = anchors[key + "#" + fragment] ?? anchors[key + "#" + decoded] { return found }
        throw SchemaError(location: uri.description, message: "no $anchor '\(decoded)' in \(key)")
    }

    // MARK: Compiling

    /// Compiles the schema named by `uri` (a registered document, an embedded `$id`, or a loader's; a fragment
    /// may name a subschema or anchor).
    public func schema(_ uri: String) throws -> Schema {
        lock.lock()
        defer { lock.unlock() }
        let (document, pointer) = try resolveLocked(URIReference(uri))
        let root = try compileLocked(document, pointer)
        return Schema(root: root, registry: self, uri: uri)
    }

    /// Adds `root` (under `uri`, see `add(_:uri:)`) and compiles it.
    public func compile(_ root: JSONNode, uri: String? = nil) throws -> Schema {
        lock.lock()
        defer { lock.unlock() }
        let (name, document) = try addLocked(root, uri: uri)
        let compiled = try compileLocked(document, [])
        return Schema(root: compiled, registry: self, uri: name)
    }

    private func compileLocked(_ document: SchemaDocument, _ pointer: [String]) throws -> SchemaNode {
        let root = try node(document, pointer)
        while let resource = resourcesAwaitingAnchors.popLast() {
            guard let (resourceDocument, _) = resources[resource.uri] else { continue }
            for (name, anchorPointer) in dynamicAnchorPointers[resource.uri] ?? [:] {
                resource.dynamicAnchors[name] = NodeRef(try node(resourceDocument, anchorPointer))
            }
        }
        for created in newNodes { created.linkForward() }
        for created in newNodes { created.linkKeywords() }
        newNodes.removeAll()
        return root
    }

    private func locationInfo(_ document: SchemaDocument, _ pointer: [String]) -> LocationInfo {
        var tokens = pointer
        while true {
            if let info = document.locations[Self.pointerKey(tokens)] { return info }
            if tokens.isEmpty { break }
            tokens.removeLast()
        }
        let base = URIReference(document.retrievalURI)
        return LocationInfo(base: base, dialect: Dialect(draft: defaultDraft), resource: base.description, resourcePointer: [])
    }

    private func resourceObject(_ uri: String) -> SchemaResource {
        if let existing = resourceObjects[uri] { return existing }
        let resource = SchemaResource(uri: uri)
        resourceObjects[uri] = resource
        if dynamicAnchorPointers[uri] != nil { resourcesAwaitingAnchors.append(resource) }
        return resource
    }

    /// The compiled node for the schema at `pointer` in `document` (compiled once; cycles allowed).
    func node(_ document: SchemaDocument, _ pointer: [String]) throws -> SchemaNode {
        let key = "\(document.id)|" + Self.pointerKey(pointer)
        if let existing = nodes[key] { return existing }
        guard let json = JSONPointer(pointer).resolve(in: document.root) else {
            throw SchemaError(location: document.retrievalURI + "#" + Self.pointerKey(pointer), message: "no schema at this location")
        }
        let info = locationInfo(document, pointer)
        let relative = Array(pointer.dropFirst(min(info.resourcePointer.count, pointer.count)))
        let node = SchemaNode(location: info.resource + "#" + Self.pointerKey(relative), resource: resourceObject(info.resource))
        nodes[key] = node
        newNodes.append(node)
        var compiler = KeywordCompiler(registry: self, document: document, pointer: pointer, info: info, node: node)
        try compiler.compile(json)
        return node
    }

    /// Resolves a `$ref` value against a base URI; returns the target's node and its resource URI.
    func reference(_ value: String, base: URIReference) throws -> (SchemaNode, String, URIReference) {
        let target = base.resolving(value)
        let (document, pointer) = try resolveLocked(target)
        let node = try node(document, pointer)
        return (node, locationInfo(document, pointer).resource, target)
    }

    /// True when the resource `uri` declares `$dynamicAnchor` `name`.
    func hasDynamicAnchor(_ name: String, inResource uri: String) -> Bool {
        dynamicAnchorPointers[uri]?[name] != nil
    }
}

/// A compiled schema, ready to validate any number of instances, from any number of threads.
public struct Schema: @unchecked Sendable {
    let root: SchemaNode
    /// Owns the compiled nodes.
    let registry: SchemaRegistry
    /// The URI the schema was compiled from.
    public let uri: String
    let tracksScope: Bool

    init(root: SchemaNode, registry: SchemaRegistry, uri: String) {
        self.root = root
        self.registry = registry
        self.uri = uri
        tracksScope = Self.usesDynamicReferences(root)
    }

    private static func usesDynamicReferences(_ root: SchemaNode) -> Bool {
        var seen = Set<ObjectIdentifier>()
        var stack = [root]
        while let node = stack.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            for keyword in node.allKeywords {
                if keyword is DynamicRefKeyword { return true }
                stack += keyword.subschemas
            }
        }
        return false
    }

    /// True when `instance` is valid. Checks without collecting anything.
    public func isValid(_ instance: JSONNode, repeatedKeys: Bool = false) -> Bool {
        let context = ValidationContext(detailed: false, base: .root, trackScope: tracksScope, deduplicate: repeatedKeys)
        return root.validate(instance, context, nil)
    }

    /// Every violation of the schema by `instance`, in document order; empty when it is valid.
    /// - Parameters:
    ///   - base: the pointer of `instance` within its file (violations' pointers start with it).
    ///   - repeatedKeys: true when the instance repeats a key in some object (`ParsedJSON.duplicateKeys`); the
    ///     last occurrence is then the one validated.
    public func validate(_ instance: JSONNode, at base: JSONPointer = .root, repeatedKeys: Bool = false) -> [SchemaViolation] {
        let fast = ValidationContext(detailed: false, base: base, trackScope: tracksScope, deduplicate: repeatedKeys)
        if root.validate(instance, fast, nil) { return [] }
        let detailed = ValidationContext(detailed: true, base: base, trackScope: tracksScope, deduplicate: repeatedKeys)
        _ = root.validate(instance, detailed, nil)
        var violations = detailed.violations
        if violations.isEmpty {
            violations.append(SchemaViolation(instancePointer: base, instanceOffset: instance.offset, keyword: "$schema",
                                              schemaLocation: root.location, expected: "a valid document", found: "an invalid one",
                                              message: "The document does not match the schema."))
        }
        var seen = Set<SchemaViolation>()
        violations = violations.filter { seen.insert($0).inserted }
        return violations.enumerated().sorted { ($0.element.instanceOffset, $0.offset) < ($1.element.instanceOffset, $1.offset) }.map(\.element)
    }

    /// Validates a parsed document (repeated keys taken into account).
    public func validate(_ parsed: ParsedJSON) -> [SchemaViolation] {
        validate(parsed.root, repeatedKeys: !parsed.duplicateKeys.isEmpty)
    }
}
