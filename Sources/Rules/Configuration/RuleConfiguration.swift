import Foundation
import WebMap

/// A severity setting: a severity, or `off`.
public enum RuleSetting: Sendable, Equatable {
    case off
    case severity(Severity)

    public init?(_ text: String) {
        if text == "off" { self = .off } else if let s = Severity(rawValue: text) { self = .severity(s) } else { return nil }
    }
}

/// Which rules run and at what severity: the `.maprules.json` file, then `--rule` options (which win).
public struct RuleConfiguration: Sendable {
    public struct Override: Sendable {
        /// Globs relative to the configuration file's folder (`*`, `?`, `**`); empty: every file.
        public var files: [String]
        /// Layer ids or titles; empty: every layer (and findings about no layer).
        public var layers: [String]
        public var rules: [String: RuleSetting]
        /// Where each rule ID of `rules` is written in the configuration file (for errors about it).
        public var rulePositions: [String: SourcePosition] = [:]
    }

    /// Folder the `files` globs are relative to.
    public var baseDirectory: String
    public var rules: [String: RuleSetting]
    /// Where each rule ID of `rules` is written in the configuration file (for errors about it).
    public var rulePositions: [String: SourcePosition] = [:]
    public var overrides: [Override]
    public var variables: [String: String]
    /// Path of the file this came from, if any.
    public var path: String?
    /// Settings from the command line (`--rule`), applied last.
    public var commandLine: [String: RuleSetting] = [:]
    /// `"offline": true` (or `--offline`): every map is checked as one meant for offline use.
    public var offline = false

    public init(baseDirectory: String = FileManager.default.currentDirectoryPath, rules: [String: RuleSetting] = [:],
                overrides: [Override] = [], variables: [String: String] = [:], path: String? = nil) {
        self.baseDirectory = baseDirectory
        self.rules = rules
        self.overrides = overrides
        self.variables = variables
        self.path = path
    }

    public static let `default` = RuleConfiguration()

    /// The severity of `ruleId` for a finding in `path` about `layer`, or nil when the rule is off there.
    public func severity(of ruleId: String, default defaultSeverity: Severity, path: String, layer: MapLayer?) -> Severity? {
        var setting = Self.lookup(rules, ruleId) ?? .severity(defaultSeverity)
        forEachOverride(of: ruleId, path: path) { s, layers in
            if layers.isEmpty || (layer.map { layer in layers.contains { $0 == layer.id || $0 == layer.title } } ?? false) {
                setting = s
            }
        }
        if let s = Self.lookup(commandLine, ruleId) { setting = s }
        if case .severity(let s) = setting { return s }
        return nil
    }

    /// True when `ruleId` is off for every finding in `path`, whatever layer it is about: the linter does not
    /// run such a rule at all. (An override for some layers that turns it on keeps it running.)
    public func isOff(_ ruleId: String, path: String) -> Bool {
        if let s = Self.lookup(commandLine, ruleId) { return s == .off }
        var setting = Self.lookup(rules, ruleId)
        var onForSomeLayer = false
        forEachOverride(of: ruleId, path: path) { s, layers in
            if layers.isEmpty { setting = s } else if s != .off { onForSomeLayer = true }
        }
        return !onForSomeLayer && setting == .off
    }

    /// Calls `body`, in order, with the setting of each override that names `ruleId` and applies to the file at
    /// `path`, and the layer ids or titles it is limited to (empty: every layer).
    private func forEachOverride(of ruleId: String, path: String, _ body: (RuleSetting, [String]) -> Void) {
        guard !overrides.isEmpty else { return }
        let relative = Glob.relativePath(of: path, to: baseDirectory)
        for override in overrides {
            guard let s = Self.lookup(override.rules, ruleId) else { continue }
            if !override.files.isEmpty, !override.files.contains(where: { Glob.matches($0, relative) }) { continue }
            body(s, override.layers)
        }
    }

    /// The setting for an exact ID, else for its family wildcard (`popup/*`), else `*`.
    static func lookup(_ table: [String: RuleSetting], _ id: String) -> RuleSetting? {
        if table.isEmpty { return nil }
        if let s = table[id] { return s }
        if let family = id.split(separator: "/").first, let s = table["\(family)/*"] { return s }
        return table["*"]
    }

    /// Checks every rule ID named against the catalogue; throws with a "did you mean" for the first unknown (the
    /// first in the file, at its line and column when the configuration came from a file).
    public func validate(knownIds: [String], file: String? = nil) throws(ConfigurationError) {
        let families = Set(knownIds.compactMap { $0.split(separator: "/").first.map(String.init) })
        func check(_ id: String, at position: SourcePosition?) throws(ConfigurationError) {
            if id == "*" || knownIds.contains(id) { return }
            if id.hasSuffix("/*"), families.contains(String(id.dropLast(2))) { return }
            let suggestion = Suggestions.closest(to: id, in: knownIds + families.map { "\($0)/*" })
            throw ConfigurationError(path: file ?? path, position: position, message: "unknown rule ID '\(id)'" +
                                     (suggestion.map { ". Did you mean '\($0)'?" } ?? ". Run 'maprules rules' for the list."))
        }
        var written: [(id: String, position: SourcePosition?)] = rules.keys.map { ($0, rulePositions[$0]) }
        for override in overrides { written += override.rules.keys.map { ($0, override.rulePositions[$0]) } }
        written.sort { a, b in
            switch (a.position, b.position) {
            case let (x?, y?): return (x.line, x.column, a.id) < (y.line, y.column, b.id)
            case (nil, nil): return a.id < b.id
            case (_?, nil): return true
            case (nil, _?): return false
            }
        }
        for entry in written { try check(entry.id, at: entry.position) }
        for id in commandLine.keys.sorted() { try check(id, at: nil) }
    }
}

/// A configuration that cannot be used: an unreadable or invalid file, or an unknown rule ID.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var path: String?
    public var position: SourcePosition?
    public var message: String

    public init(path: String?, position: SourcePosition? = nil, message: String) {
        self.path = path
        self.position = position
        self.message = message
    }

    public var description: String {
        var prefix = ""
        if let path { prefix = path + (position.map { ":\($0)" } ?? "") + ": " }
        return prefix + message
    }
}
