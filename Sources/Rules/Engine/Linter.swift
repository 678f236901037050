import Foundation
import WebMap

/// What to lint with: configuration, metadata sources, variables.
public struct LintOptions: Sendable {
    /// A configuration to use for every file; nil to find `.maprules.json` upward from each file.
    public var configuration: RuleConfiguration?
    /// `--rule ID=SETTING` options; they win over any configuration file.
    public var commandLineRules: [String: RuleSetting] = [:]
    /// `--var NAME=VALUE` options; they win over the configuration's `variables`.
    public var variables: [String: String] = [:]
    /// `--services` snapshots, consulted after the map's own `<map>.services.json` / `services.json`.
    public var snapshots: [ServicesSnapshot] = []
    /// Look for `<map>.services.json` and `services.json` beside each map.
    public var useDefaultSnapshots = true
    /// Set with `--fetch`: metadata not found in snapshots is fetched live.
    public var fetcher: LiveMetadataFetcher?
    /// Metadata of the layer a standalone pop-up definition describes (`--layer FILE`).
    public var popupLayer: LayerMetadata?
    /// Give every diagnostic its ``Diagnostic/subject`` (what baselines fingerprint). Off by default: it costs
    /// a walk of the pointer per diagnostic, and only `--baseline` / `--write-baseline` need it.
    public var recordSubjects = false
    /// `--offline`: check every map as one meant for offline use (rules.md, `offline/`).
    public var offline = false
    /// Files of at least this many bytes have `schema/invalid`'s validation run on a second thread while the
    /// layers are resolved and the other rules run (on a machine of more than one core), their Arcade
    /// expressions found, and their distinct texts (when there are at least `concurrencyMinimumCount`) read,
    /// on another thread from the start of the rules, and their tree freed on another thread after the rules. The findings are the same either way; 1 MB by default.
    public var workAsideMinimumSize = 1 << 20
    /// Maps with at least this many layers have them resolved on every core, and files with at least this many
    /// distinct Arcade expression texts have them read and analysed on every core (the rules themselves run
    /// in turn). The findings are the same either way; 2,000 by default.
    public var concurrencyMinimumCount = 2_000

    public init() {}
}

/// The findings for one file.
public struct FileReport: Sendable, Codable {
    public var path: String
    /// `webmap`, `popup`, or `json` for a file that is not (or could not be read as) either.
    public var kind: String
    public var diagnostics: [Diagnostic]

    public init(path: String, kind: String, diagnostics: [Diagnostic]) {
        self.path = path
        self.kind = kind
        self.diagnostics = diagnostics
    }
}

/// Runs the rule catalogue over files. Safe to call from several threads at once: snapshots and
/// configurations found beside the files are loaded once and shared.
public final class Linter: @unchecked Sendable {
    public let options: LintOptions
    private let lock = NSLock()
    private var snapshotCache: [String: ServicesSnapshot?] = [:]
    private var configurationCache: [String: RuleConfiguration] = [:]

    /// Inline feature sets are kept like the rest of the map, so that `schema/invalid` checks every feature;
    /// only in files over `elisionThreshold` (16 MB) are they checked for syntax and counted, never kept,
    /// which bounds memory (no other rule reads individual features).
    static let parseOptions = JSONParser.Options()

    public init(options: LintOptions = LintOptions()) { self.options = options }

    /// A file read up to the point where the rules run.
    private struct Prepared {
        var context: LintContext
        var kind: String
        /// Set when the file is a map or a pop-up definition.
        var map: MapContext?
    }

    /// MapRules' own files, never linted as maps even when named (a pre-commit hook names every changed JSON
    /// file): a baseline (`{"tool": "maprules", "version": N, "entries": [...]}`, `lint --write-baseline`) and
    /// a `.maprules.json` configuration.
    public static func isOwnFile(_ root: JSONNode, path: String) -> Bool {
        if (path as NSString).lastPathComponent == ConfigurationFile.fileName { return true }
        return root["tool"]?.string == "maprules" && root["version"]?.integer != nil && root["entries"]?.array != nil
    }

    /// Parses, substitutes variables, recognises the document and resolves its layers' metadata. Returns nil
    /// for a file found in a directory that is JSON but not a map. With `startsWorkAside`, a large map's
    /// `schema/invalid` validation starts on another thread as soon as the map is recognised.
    private func prepare(path: String, displayPath: String?, text: SourceText, isExplicit: Bool, startsWorkAside: Bool) throws -> Prepared? {
        let configuration = try configuration(for: path)
        let parsed: ParsedJSON?
        let parseError: JSONParseError?
        do {
            parsed = try JSONParser.parse(text, options: Self.parseOptions)
            parseError = nil
        } catch {
            parsed = nil
            parseError = error
        }
        let context = LintContext(path: displayPath ?? path, source: text, parseError: parseError, parsed: parsed, recordSubjects: options.recordSubjects,
                                  isExplicit: isExplicit, configuration: configuration)
        guard let parsed else { return Prepared(context: context, kind: "json", map: nil) }
        var variables = configuration.variables
        variables.merge(options.variables) { _, new in new }
        // Most maps hold no placeholder at all: skip the walk when the bytes have no "{{".
        let (root, placeholders) = text.containsDoubleOpeningBrace
            ? TemplatePlaceholders.substitute(parsed.root, variables: variables) : (parsed.root, [])
        // A large map's schema validation runs on a second core while this thread reads the map's layers,
        // resolves them and runs the other rules (see `runRules`). It starts as soon as the tree is there: reading
        // the layers into the document is work for one thread, and the other core would wait meanwhile.
        let worksAside = startsWorkAside && text.bytes.count >= options.workAsideMinimumSize
            && ProcessorCount.active > 1
        let validatesAside = worksAside && !configuration.isOff(SchemaInvalidRule.description.id, path: context.path)
        var schemaAside = validatesAside ? SchemaInvalidRule.startAside(mapRoot: root, parsed: parsed) : nil
        let kind: String
        let document: WebMapDocument
        if let map = WebMapDocument(root: root, source: text) {
            kind = "webmap"
            document = map
        } else if WebMapDocument.looksLikePopup(root) {
            kind = "popup"
            document = WebMapDocument(popup: root, source: text, layerTitle: options.popupLayer?.name)
        } else if Self.isOwnFile(root, path: path) {
            return nil
        } else if isExplicit || WebMapDocument.looksLikeBrokenWrapper(root) {
            return Prepared(context: context, kind: "json", map: nil)
        } else {
            return nil
        }
        context.document = document
        context.placeholders = placeholders
        // A large standalone pop-up definition's validation (against the pop-up schema) starts once it is known
        // to be one.
        if validatesAside, schemaAside == nil { schemaAside = SchemaInvalidRule.startAside(document, parsed: parsed) }
        let resolver = try resolver(forMap: path, isPopup: kind == "popup")
        let resolve: (MapLayer) -> ResolvedMetadata? = { layer in
            if layer.isStandalonePopup {
                return self.options.popupLayer.map { ResolvedMetadata(metadata: $0, source: .snapshot, serviceRoot: nil) }
            }
            if let url = layer.url, TemplatePlaceholders.contains(url) { return nil }
            return resolver.resolve(layer)
        }
        // Snapshots are read-only: a large map's layers are resolved on every core. With `--fetch`, one at a
        // time, so that each URL is asked once and in the map's order.
        let behavior = resolver.fetcher == nil
            ? MapBehavior(document: document, minimumConcurrentCount: options.concurrencyMinimumCount, resolvingConcurrently: resolve)
            : MapBehavior(document: document, resolve: resolve)
        // The fetcher caches each URL's answer: asking again for a failed one costs no request.
        let fetchFailure: (String) -> String? = { url in
            guard let fetcher = resolver.fetcher, case .failure(let error) = fetcher.fetchJSON(url: url) else { return nil }
            return error.message
        }
        let map = MapContext(lint: context, document: document, behavior: behavior, fetchFailure: fetchFailure,
                             serviceJSON: { resolver.snapshotJSON(url: $0) })
        map.concurrencyMinimumCount = options.concurrencyMinimumCount
        map.schemaValidation = schemaAside
        // Likewise a large map's distinct Arcade texts: read on another core while the rules before the
        // arcade/ ones run here.
        if worksAside, RuleCatalog.mapRulesWithIds.contains(where: { $0.1.hasPrefix("arcade/") && !configuration.isOff($0.1, path: context.path) }) {
            ArcadeExpression.startReadingTexts(in: map)
        }
        return Prepared(context: context, kind: kind, map: map)
    }

    /// Lints one file's bytes. `path` is the file's path on disk (for configuration and snapshots),
    /// `displayPath` the name reports use. Returns nil for a file found in a directory that is JSON but not
    /// a map (skipped silently); throws when a configuration or snapshot beside it cannot be used.
    public func lint(path: String, displayPath: String? = nil, text: SourceText, isExplicit: Bool) throws -> FileReport? {
        guard let prepared = try prepare(path: path, displayPath: displayPath, text: text, isExplicit: isExplicit, startsWorkAside: true) else {
            return nil
        }
        let report = runRules(prepared)
        if text.bytes.count >= options.workAsideMinimumSize { Self.releaseAside(consume prepared) }
        return report
    }

    /// Lets go of a large file's tree on another thread: freeing the nodes of a 117 MB map took a tenth of its
    /// lint, and nothing after the rules needs them (the report holds none of them).
    private static func releaseAside(_ prepared: consuming Prepared) {
        final class Retired: @unchecked Sendable {
            var prepared: Prepared?
            init(_ prepared: consuming Prepared) { self.prepared = prepared }
        }
        let retired = Retired(prepared)
        let thread = Thread { retired.prepared = nil }
        thread.stackSize = 16 << 20
        thread.start()
    }

    private func runRules(_ prepared: Prepared) -> FileReport {
        let context = prepared.context
        let configuration = context.configuration
        // A rule turned off for the whole file is not run (its findings would all be dropped).
        for (rule, id) in RuleCatalog.documentRulesWithIds where !configuration.isOff(id, path: context.path) {
            rule.check(context)
        }
        if let map = prepared.map {
            // A large map's schema validation, started in `prepare`, runs on a second core while the other rules
            // run here: `schema/invalid` reports last, and its findings are moved to its own turn (the same
            // findings in the same order as a serial run).
            var schemaTurn: Int?
            for (rule, id) in RuleCatalog.mapRulesWithIds where !configuration.isOff(id, path: context.path) {
                if map.schemaValidation != nil, id == SchemaInvalidRule.description.id {
                    schemaTurn = context.diagnostics.count
                    continue
                }
                rule.check(map)
            }
            if let schemaTurn {
                let reportedBefore = context.diagnostics.count
                SchemaInvalidRule.check(map)
                context.moveDiagnostics(from: reportedBefore, to: schemaTurn)
            }
        }
        return FileReport(path: context.path, kind: prepared.kind, diagnostics: Self.inReportOrder(context.diagnostics))
    }

    /// `diagnostics` sorted by ``Diagnostic/reportOrder``; as they are when already so (one rule's findings in
    /// one expression are reported in order: checked in one pass instead of sorting 250,000 of them).
    static func inReportOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var i = 1
        while i < diagnostics.count, !Diagnostic.reportOrder(diagnostics[i], diagnostics[i - 1]) { i += 1 }
        return i >= diagnostics.count ? diagnostics : diagnostics.sorted(by: Diagnostic.reportOrder)
    }

    /// Reads and lints a file from disk.
    public func lint(path: String, displayPath: String? = nil, isExplicit: Bool) throws -> FileReport? {
        let file = try SourceFile.read(path: path)
        return try lint(path: path, displayPath: displayPath, text: file.text, isExplicit: isExplicit)
    }

    /// Reads a map (or pop-up definition) for `maprules inspect` and `snapshot`: the same substitution and
    /// metadata resolution as `lint`, without the map rules. Throws when the file cannot be read, does not
    /// parse, or is not a map (with the diagnostic that says why).
    public func analyze(path: String) throws -> (document: WebMapDocument, behavior: MapBehavior) {
        let file = try SourceFile.read(path: path)
        guard let prepared = try prepare(path: path, displayPath: nil, text: file.text, isExplicit: true, startsWorkAside: false) else {
            throw DocumentError(path: path, message: "not a web map")
        }
        guard let map = prepared.map else {
            for rule in RuleCatalog.documentRules { rule.check(prepared.context) }
            let first = prepared.context.diagnostics.sorted(by: Diagnostic.reportOrder).first
            throw DocumentError(path: path, message: first.map { "\($0.line):\($0.column): \($0.message) [\($0.ruleId)]" } ?? "not a web map")
        }
        return (map.document, map.behavior)
    }

    /// The configuration in force for `path`.
    public func configuration(for path: String) throws -> RuleConfiguration {
        var configuration: RuleConfiguration
        if let given = options.configuration {
            configuration = given
        } else if let found = configurationPath(forFileIn: path) {
            lock.lock()
            let cached = configurationCache[found]
            lock.unlock()
            if let cached {
                configuration = cached
            } else {
                configuration = try ConfigurationFile.load(path: found)
                try configuration.validate(knownIds: RuleCatalog.allIds)
                lock.lock()
                configurationCache[found] = configuration
                lock.unlock()
            }
        } else {
            configuration = .default
        }
        configuration.commandLine = options.commandLineRules
        if options.offline { configuration.offline = true }
        return configuration
    }

    /// The `.maprules.json` governing files in `path`'s folder, looked up once per folder (a directory of
    /// thousands of maps would otherwise walk up to the root for each).
    private func configurationPath(forFileIn path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        lock.lock()
        if let cached = configurationPaths[folder] { lock.unlock(); return cached }
        lock.unlock()
        let found = ConfigurationFile.find(from: path)
        lock.lock()
        configurationPaths[folder] = .some(found)
        lock.unlock()
        return found
    }

    private var configurationPaths: [String: String?] = [:]

    private func resolver(forMap path: String, isPopup: Bool) throws -> MetadataResolver {
        var snapshots: [ServicesSnapshot] = []
        if options.useDefaultSnapshots && !isPopup {
            for candidate in defaultSnapshotPaths(forMap: path) {
                if let snapshot = try cachedSnapshot(candidate) { snapshots.append(snapshot) }
            }
        }
        snapshots += options.snapshots
        return MetadataResolver(snapshots: snapshots, fetcher: options.fetcher)
    }

    /// `<map>.services.json` and `services.json` beside the map, without Foundation's URL for every file.
    private func defaultSnapshotPaths(forMap path: String) -> [String] {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let base = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        return [folder + base + ".services.json", folder + "services.json"]
    }

    /// Whether the snapshot file `path` exists, from its folder's list of snapshot files (`*.services.json`,
    /// `services.json`), made once per folder: asking the file system about `<map>.services.json` beside each of
    /// thousands of maps would cost a failed look-up per map.
    private func snapshotFileExists(_ path: String) -> Bool {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        lock.lock()
        let listed = snapshotFileNames[folder]
        lock.unlock()
        if let listed { return listed.contains(name) }
        var names = Set<String>()
        DirectoryWalk.walk(folder.isEmpty ? "." : folder, maximumDepth: 1) { entry in
            if case .file(_, let name) = entry, name == "services.json" || name.hasSuffix(".services.json") { names.insert(name) }
        }
        lock.lock()
        snapshotFileNames[folder] = names
        lock.unlock()
        return names.contains(name)
    }

    private var snapshotFileNames: [String: Set<String>] = [:]

    private func cachedSnapshot(_ path: String) throws -> ServicesSnapshot? {
        lock.lock()
        if let cached = snapshotCache[path] { lock.unlock(); return cached }
        lock.unlock()
        var snapshot: ServicesSnapshot?
        if snapshotFileExists(path) { snapshot = try ServicesSnapshot.load(path: path) }
        lock.lock()
        snapshotCache[path] = snapshot
        lock.unlock()
        return snapshot
    }
}
