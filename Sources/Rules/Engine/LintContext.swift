import WebMap

/// Everything the rules may read about one file, and where they report. Rules never compute positions or
/// severities themselves: they name the rule, the node and the message, and the context does the rest.
public final class LintContext {
    public let path: String
    public let source: SourceText
    /// Set when the file did not parse.
    public let parseError: JSONParseError?
    /// Set when it did.
    public let parsed: ParsedJSON?
    /// True when the user named this file (rather than finding it in a directory).
    public let isExplicit: Bool
    /// The map, once the file is known to be one (after `{{ }}` substitution).
    public internal(set) var document: WebMapDocument?
    /// Unresolved `{{ name }}` placeholders, in document order.
    public internal(set) var placeholders: [TemplatePlaceholder] = []
    let configuration: RuleConfiguration
    public private(set) var diagnostics: [Diagnostic] = []
    /// Values derived once per file and shared by several rules (see `MapContext.shared`).
    var sharedValues: [ObjectIdentifier: Any] = [:]

    /// Whether diagnostics get their `subject` (see `LintOptions.recordSubjects`).
    let recordSubjects: Bool

    init(path: String, source: SourceText, parseError: JSONParseError?, parsed: ParsedJSON?, recordSubjects: Bool = false, isExplicit: Bool,
         configuration: RuleConfiguration) {
        self.recordSubjects = recordSubjects
        self.path = path
        self.source = source
        self.parseError = parseError
        self.parsed = parsed
        self.isExplicit = isExplicit
        self.configuration = configuration
    }

    /// Records a finding of `rule` about the value at `pointer` that starts at byte `offset`. `about` names
    /// what inside that value the finding is about (a field name inside an Arcade expression): the baseline's
    /// subject then keeps it instead of a digest of the whole value, so editing the rest of the value keeps the
    /// finding matched.
    public func report(_ rule: any Rule.Type, pointer: JSONPointer, offset: Int, message: String,
                       layer: MapLayer? = nil, metadataSource: MetadataSource? = nil, fix: Fix? = nil, about: String? = nil) {
        report(rule, pointer: pointer, pointerText: nil, offset: offset, message: message, layer: layer, metadataSource: metadataSource,
               fix: fix, about: about)
    }

    /// ``report(_:pointer:offset:message:layer:metadataSource:fix:about:)`` with `pointer` already written
    /// out (`pointerText`, when not nil): the rules that report many findings at one pointer write it once.
    func report(_ rule: any Rule.Type, pointer: JSONPointer, pointerText: String?, offset: Int, message: String,
                layer: MapLayer? = nil, metadataSource: MetadataSource? = nil, fix: Fix? = nil, about: String? = nil) {
        let id = rule.description.id
        guard let severity = configuration.severity(of: id, default: rule.description.severity, path: path, layer: layer) else {
            return
        }
        let position = source.position(ofOffset: offset)
        diagnostics.append(Diagnostic(
            ruleId: id, severity: severity, message: message, pointer: pointerText ?? pointer.description,
            line: position.line, column: position.column, layer: layer.map(LayerReference.init),
            metadataSource: metadataSource, fix: fix,
            subject: !recordSubjects ? nil
                : parsed.map { DiagnosticSubject.describe(pointer, in: $0.root, about: about) } ?? DiagnosticSubject.describe(pointer, message: message)))
    }

    /// Moves the diagnostics reported from position `start` on to position `turn`: a rule whose work ran beside
    /// the others reports after them, and its findings take the place they would have had in its own turn.
    func moveDiagnostics(from start: Int, to turn: Int) {
        guard turn < start, start < diagnostics.count else { return }
        let moved = diagnostics[start...]
        diagnostics.removeSubrange(start...)
        diagnostics.insert(contentsOf: moved, at: turn)
    }

    /// Adds `other`'s findings after this context's (``MapContext/forEachConcurrently(_:_:)``).
    func appendDiagnostics(of other: LintContext) {
        diagnostics.append(contentsOf: other.diagnostics)
    }

    /// Records a finding about `node` (found at `pointer`).
    public func report(_ rule: any Rule.Type, at node: JSONNode, pointer: JSONPointer, message: String,
                       layer: MapLayer? = nil, metadataSource: MetadataSource? = nil) {
        report(rule, pointer: pointer, offset: node.offset, message: message, layer: layer, metadataSource: metadataSource)
    }
}

/// The context of a map rule: the lint context plus the map and what the app will do with it. A class: it
/// is handed to every rule of the catalogue for every file, and a struct copy would retain each part of the
/// map and its behaviour every time.
public final class MapContext {
    public let lint: LintContext
    public let document: WebMapDocument
    public let behavior: MapBehavior
    /// Why `--fetch` could not get the metadata at a URL (nil when it was not asked to, or it did).
    public let fetchFailure: (String) -> String?
    /// The metadata JSON of any service URL (a basemap's MapServer) when a services snapshot has it.
    public let serviceJSON: (String) -> JSONNode?
    /// `schema/invalid`'s validation when the linter started it on another thread (large maps).
    var schemaValidation: SchemaValidationAside?
    /// A large map's distinct Arcade texts, begun on another thread in `Linter.prepare`.
    var arcadeTextsAhead: ArcadeTextsAhead?
    /// Items (distinct expression texts) from which work over them is shared among the cores
    /// (``LintOptions/concurrencyMinimumCount``).
    var concurrencyMinimumCount = ChunkedWork.minimumCount

    init(lint: LintContext, document: WebMapDocument, behavior: MapBehavior, fetchFailure: @escaping (String) -> String? = { _ in nil },
         serviceJSON: @escaping (String) -> JSONNode? = { _ in nil }) {
        self.lint = lint
        self.document = document
        self.behavior = behavior
        self.fetchFailure = fetchFailure
        self.serviceJSON = serviceJSON
    }

    /// A value several rules derive from the map, computed by the first rule that asks and shared with the
    /// others for this file (`T` identifies it: give each shared value its own type).
    public func shared<T>(_ type: T.Type = T.self, _ make: () -> T) -> T {
        let key = ObjectIdentifier(type)
        if let value = lint.sharedValues[key] as? T { return value }
        let value = make()
        lint.sharedValues[key] = value
        return value
    }

    /// Reports a finding about the value at `pointer` inside the document. A finding about a member that is
    /// absent (`title` of a pop-up without one) is reported at the object that lacks it: the nearest parent
    /// that exists, pointer and position both, so that every reported pointer resolves in the file.
    public func report(_ rule: any Rule.Type, pointer: JSONPointer, message: String, layer: LayerBehavior? = nil, fix: Fix? = nil) {
        let (target, node) = Self.nearestExisting(pointer, in: document.root)
        lint.report(rule, pointer: target, offset: node.offset, message: message,
                    layer: layer?.layer, metadataSource: layer?.resolved?.source, fix: fix)
    }

    /// `pointer` and its node when it resolves in `root`, else its nearest parent that does.
    static func nearestExisting(_ pointer: JSONPointer, in root: JSONNode) -> (JSONPointer, JSONNode) {
        var target = pointer
        while !target.tokens.isEmpty {
            if let node = target.resolve(in: root) { return (target, node) }
            target = JSONPointer(Array(target.tokens.dropLast()))
        }
        return (target, root)
    }

    /// Reports a finding about a layer as a whole (at its object).
    public func report(_ rule: any Rule.Type, layer: LayerBehavior, message: String) {
        lint.report(rule, at: layer.layer.node, pointer: layer.layer.pointer, message: message,
                    layer: layer.layer, metadataSource: layer.resolved?.source)
    }
}
