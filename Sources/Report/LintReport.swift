import Rules
import WebMap

/// The version MapRules reports about itself (`tool.version` in the JSON report, `driver.version` in SARIF).
public enum MapRulesVersion {
    public static let current = "0.1.0"
}

/// The result of one `maprules lint` run: every file linted, with its diagnostics, and the totals.
///
/// Its JSON form is the report of `--format json` (see `Schemas/report.schema.json`); render it with
/// ``ReportRenderer/render(_:as:options:)`` rather than a `JSONEncoder`, which writes keys in no promised order
/// and omits a layer's missing `id` or `title` instead of writing `null`. Decoding with `JSONDecoder` reads
/// either form back.
public struct LintReport: Codable, Sendable, Equatable {
    /// Which tool wrote the report.
    public struct ToolInfo: Codable, Sendable, Equatable {
        /// Always `"maprules"`.
        public var name: String
        public var version: String

        public init(name: String = "maprules", version: String = MapRulesVersion.current) {
            self.name = name
            self.version = version
        }
    }

    /// The totals of a report: files linted and diagnostics by severity.
    public struct Summary: Codable, Sendable, Equatable {
        public var files: Int
        public var errors: Int
        public var warnings: Int
        public var infos: Int

        public init(files: Int, errors: Int, warnings: Int, infos: Int) {
            self.files = files
            self.errors = errors
            self.warnings = warnings
            self.infos = infos
        }

        /// Counts `files` and their diagnostics.
        public init(counting files: [FileReport]) {
            var errors = 0, warnings = 0, infos = 0
            for file in files {
                for diagnostic in file.diagnostics {
                    switch diagnostic.severity {
                    case .error: errors += 1
                    case .warning: warnings += 1
                    case .info: infos += 1
                    }
                }
            }
            self.init(files: files.count, errors: errors, warnings: warnings, infos: infos)
        }

        /// All diagnostics, whatever their severity.
        public var problems: Int { errors + warnings + infos }
    }

    public var tool: ToolInfo
    /// In the order the files were linted; each file's diagnostics in report order (line, column, rule ID).
    public var files: [FileReport]
    public var summary: Summary

    /// A report of `files`, with the summary counted from them.
    public init(files: [FileReport], tool: ToolInfo = ToolInfo()) {
        self.tool = tool
        self.files = files
        self.summary = Summary(counting: files)
    }

    /// The same report keeping only diagnostics at `minimum` severity or above (`--quiet` keeps errors only).
    /// Every file stays, and the summary is counted again.
    public func filtered(minimumSeverity minimum: Severity) -> LintReport {
        let kept = files.map { file in
            FileReport(path: file.path, kind: file.kind, diagnostics: file.diagnostics.filter { $0.severity >= minimum })
        }
        return LintReport(files: kept, tool: tool)
    }

    public static func == (lhs: LintReport, rhs: LintReport) -> Bool {
        lhs.tool == rhs.tool && lhs.summary == rhs.summary && lhs.files.count == rhs.files.count
            && zip(lhs.files, rhs.files).allSatisfy { $0.path == $1.path && $0.kind == $1.kind && $0.diagnostics == $1.diagnostics }
    }
}
