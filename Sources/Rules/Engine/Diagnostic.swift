import WebMap

public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
    case info, warning, error

    private var rank: Int {
        switch self {
        case .info: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// The layer a diagnostic is about, as a report names it.
public struct LayerReference: Sendable, Codable, Hashable {
    public var id: String?
    public var title: String?

    public init(id: String?, title: String?) {
        self.id = id
        self.title = title
    }

    public init(_ layer: MapLayer) { self.init(id: layer.id, title: layer.title) }
}

/// One finding of one rule in one file, with the exact place it is about.
public struct Diagnostic: Sendable, Codable, Hashable {
    public var ruleId: String
    public var severity: Severity
    public var message: String
    /// RFC 6901 pointer relative to the file's root.
    public var pointer: String
    public var line: Int
    public var column: Int
    public var layer: LayerReference?
    public var metadataSource: MetadataSource?
    /// The fix, when the rule knows an unambiguous one (`maprules lint --fix` applies it).
    public var fix: Fix?
    /// What the finding is about, independent of where it is in the file: the pointer with each array index
    /// replaced by the element's identity (`operationalLayers[id=Trees_1234]/popupInfo/fieldInfos[fieldName=Conditon]/fieldName`)
    /// and a digest of the value when it is a string, number or boolean. Baselines fingerprint it; set only
    /// when the linter was asked to (`LintOptions.recordSubjects`), nil otherwise.
    public var subject: String?

    public init(ruleId: String, severity: Severity, message: String, pointer: String, line: Int, column: Int,
                layer: LayerReference? = nil, metadataSource: MetadataSource? = nil, fix: Fix? = nil, subject: String? = nil) {
        self.ruleId = ruleId
        self.severity = severity
        self.message = message
        self.pointer = pointer
        self.line = line
        self.column = column
        self.layer = layer
        self.metadataSource = metadataSource
        self.fix = fix
        self.subject = subject
    }

    /// The order of the reports: line, then column, then rule ID (then message, for a total order).
    public static func reportOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.line, a.column, a.ruleId, a.message) < (b.line, b.column, b.ruleId, b.message)
    }
}
