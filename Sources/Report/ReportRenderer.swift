import Foundation
import Rules

/// The output formats of `maprules lint --format`.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// ESLint-like text for a person at a terminal.
    case stylish
    /// The JSON report of `docs/cli.md`, validated by `Schemas/report.schema.json`.
    case json
    /// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
    case sarif
    /// JUnit XML for CI test-report views.
    case junit
    /// GitHub Actions workflow commands (annotations), plus a Markdown step summary.
    case github
    /// One self-contained HTML page (inline CSS, no script, no request) to open in a browser or keep as a CI artefact.
    case html

    /// One line for `--help`.
    public var summary: String {
        switch self {
        case .stylish: return "grouped by file, one line per diagnostic, then a summary line"
        case .json: return "the JSON report (Schemas/report.schema.json)"
        case .sarif: return "SARIF 2.1.0, as GitHub code scanning accepts it"
        case .junit: return "JUnit XML, one test case per file and rule"
        case .github: return "GitHub Actions annotations; appends a summary to $GITHUB_STEP_SUMMARY"
        case .html: return "one self-contained HTML page with source excerpts, filterable by severity"
        }
    }
}

/// What a format needs to know besides the report.
public struct ReportOptions: Sendable {
    /// Colour the `stylish` format with ANSI escapes. The caller decides (`--color`, `NO_COLOR`, whether the
    /// output is a terminal); nothing here looks at the terminal or the environment.
    public var color: Bool
    /// The rule catalogue, in catalogue order: SARIF lists every one of them in `rules[]`.
    public var rules: [RuleDescription]
    /// The folder SARIF `artifactLocation.uri`s and GitHub annotation `file=` paths are relative to
    /// (the repository root in CI). A relative folder is taken from the current directory.
    public var baseDirectory: String
    /// Where ``ReportRenderer/appendGitHubStepSummary(_:options:)`` appends the Markdown summary; usually
    /// the value of `$GITHUB_STEP_SUMMARY`. Nil: no summary is written.
    public var githubStepSummaryPath: String?
    /// The text of a reported file, by its report path, for the source excerpts of the `html` format; nil (or
    /// a nil answer) shows the JSON pointer instead of an excerpt.
    public var source: (@Sendable (_ path: String) -> String?)?

    public init(color: Bool = false,
                rules: [RuleDescription] = RuleCatalog.all.map { $0.description },
                baseDirectory: String = FileManager.default.currentDirectoryPath,
                githubStepSummaryPath: String? = nil,
                source: (@Sendable (_ path: String) -> String?)? = nil) {
        self.color = color
        self.rules = rules
        self.baseDirectory = baseDirectory
        self.githubStepSummaryPath = githubStepSummaryPath
        self.source = source
    }
}

/// Writing a GitHub step summary failed.
public struct ReportOutputError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "Could not append the step summary to \(path): \(reason). Check that $GITHUB_STEP_SUMMARY names a writable file."
    }
}

/// Turns a ``LintReport`` into the text of an output format. Rendering is pure and deterministic: the same
/// report and options give the same text, byte for byte. Every format's text ends with one newline.
public enum ReportRenderer {
    /// The report in `format`, ready to write to standard output or `--output`.
    public static func render(_ report: LintReport, as format: ReportFormat, options: ReportOptions) -> String {
        switch format {
        case .stylish: return StylishFormatter.render(report, options: options)
        case .json: return JSONReportFormatter.render(report)
        case .sarif: return SARIFFormatter.render(report, options: options)
        case .junit: return JUnitFormatter.render(report)
        case .github: return GitHubFormatter.render(report, options: options)
        case .html: return HTMLFormatter.render(report, options: options)
        }
    }

    /// ``render(_:as:options:)`` as UTF-8 bytes, the same bytes. The JSON formats are written as bytes and
    /// handed over as they are; a report of 250,000 findings in SARIF is 320 MB, and making a `String` of it
    /// copies them all.
    public static func renderUTF8(_ report: LintReport, as format: ReportFormat, options: ReportOptions) -> [UInt8] {
        switch format {
        case .json: return JSONReportFormatter.renderUTF8(report)
        case .sarif: return SARIFFormatter.renderUTF8(report, options: options)
        case .stylish, .junit, .github, .html: return Array(render(report, as: format, options: options).utf8)
        }
    }

    /// The bytes of ``renderUTF8(_:as:options:)``, handed to `emit` about `chunkSize` bytes at a time as they are
    /// written (the JSON formats; the others are made whole and handed over at once). A SARIF report of 250,000
    /// findings is then written through one buffer of a megabyte instead of being made as 320 MB first.
    /// Throws `emit`'s first error; nothing more is handed over after it.
    public static func write(_ report: LintReport, as format: ReportFormat, options: ReportOptions, chunkSize: Int = 1 << 20,
                             to emit: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        switch format {
        case .json: try JSONOutput.prettyPrinted(JSONReportFormatter.value(of: report), newline: true, chunkSize: chunkSize, emit: emit)
        case .sarif: try JSONOutput.prettyPrinted(SARIFFormatter.log(report, options: options), newline: true, chunkSize: chunkSize, emit: emit)
        case .stylish, .junit, .github, .html:
            var text = render(report, as: format, options: options)
            try text.withUTF8 { try emit($0) }
        }
    }

    /// The Markdown job summary of the `github` format: a table of counts, then a table of diagnostics per file.
    public static func githubStepSummary(_ report: LintReport, options: ReportOptions) -> String {
        GitHubFormatter.stepSummary(report, options: options)
    }

    /// Appends ``githubStepSummary(_:options:)`` to `options.githubStepSummaryPath` (creating the file if it
    /// does not exist). Returns false, writing nothing, when no path is set.
    @discardableResult
    public static func appendGitHubStepSummary(_ report: LintReport, options: ReportOptions) throws(ReportOutputError) -> Bool {
        guard let path = options.githubStepSummaryPath, !path.isEmpty else { return false }
        let data = Data(githubStepSummary(report, options: options).utf8)
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil) else {
                throw ReportOutputError(path: path, reason: "the file cannot be created")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw ReportOutputError(path: path, reason: "the file cannot be opened for writing")
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
        } catch {
            throw ReportOutputError(path: path, reason: error.localizedDescription)
        }
        return true
    }
}
