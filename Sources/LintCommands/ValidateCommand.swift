import ArgumentParser
import Foundation
import JSONSchema
import Report
import Rules
import WebMap

public struct ValidateCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate JSON files against a JSON Schema (draft 2020-12 or draft-07).",
        discussion: """
            SCHEMA is a schema file or the name of a shipped schema: \(ShippedSchemas.nameList). \
            Each violation is a schema/invalid diagnostic at the offending value; a file that is not JSON gets \
            its json/ diagnostic. Remote $refs are never fetched: --ref-dir maps their URLs to local files by path.
            Exit codes: 0 every file is valid, 1 violations found, 2 the schema or a file could not be used.

            Examples:
              maprules validate --schema webmap maps/trees.json
              maprules validate --schema services-snapshot maps/*.services.json
              maprules validate --schema my.schema.json data/ --ref-dir schemas/
              maprules validate --schema webmap maps/ --format sarif --output schema.sarif
              cat map.json | maprules validate --schema webmap -
            """)

    @Option(help: ArgumentHelp("A schema file, or a shipped schema name.", valueName: "SCHEMA"))
    var schema: String

    @Argument(help: "JSON files, directories (every *.json below them; snapshots only with --schema services-snapshot), or - for standard input.")
    var paths: [String] = []

    @Option(help: "Output format: stylish, json, sarif, junit or github.")
    var format: ReportFormat = .stylish

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(name: .customLong("ref-dir"), help: ArgumentHelp("Resolve $ref URLs to files below this folder by their path (repeatable).", valueName: "DIR"))
    var refDirectories: [String] = []

    @Option(help: "The file name to report for standard input.")
    var stdinFilename: String?

    @Option(help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    public func run() throws {
        guard !paths.isEmpty else { throw CommandFailure("name the files to validate (or - for standard input)") }
        let compiled: Schema
        do { compiled = try SchemaArgument.load(schema, refDirectories: refDirectories) } catch {
            throw CommandFailure("cannot use the schema: \(error)")
        }
        let validator = SchemaFileValidator(schema: compiled, kind: SchemaArgument.reportKind(of: schema))
        var reports: [FileReport] = []
        if paths.contains("-") {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            reports.append(validator.validate(SourceText(bytes: [UInt8](data)), displayPath: stdinFilename ?? "<stdin>"))
        }
        let files = try Self.files(paths.filter { $0 != "-" }, schema: schema)
        reports += try validator.validate(paths: files.map { ($0, $0) })
        let report = LintReport(files: reports)
        let usedRules = Set(report.files.flatMap { $0.diagnostics.map(\.ruleId) } + [SchemaInvalidRule.description.id])
        let reportOptions = ReportOptions(
            color: output == nil && color.enabled(forTerminal: Console.stdoutIsTerminal),
            rules: RuleCatalog.all.map { $0.description }.filter { usedRules.contains($0.id) },
            baseDirectory: FileManager.default.currentDirectoryPath,
            githubStepSummaryPath: ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"])
        try emit(ReportRenderer.render(report, as: format, options: reportOptions), to: output)
        if format == .github {
            do { try ReportRenderer.appendGitHubStepSummary(report, options: reportOptions) } catch {
                Console.error("warning: \(error)")
            }
        }
        if report.summary.errors > 0 { throw ExitCode(1) }
    }

    /// Named files as they are; directories walked for `*.json` (hidden entries left out), sorted. Services
    /// snapshots (`*.services.json`, `services.json`) found in directories are validated only against the
    /// `services-snapshot` schema, and `.maprules.json` files only against `config`, as `lint` leaves them out.
    static func files(_ paths: [String], schema: String) throws -> [String] {
        try JSONFileDiscovery.files(paths) { name in
            if name.hasSuffix(".services.json") || name == "services.json" { return schema == "services-snapshot" }
            if name == ".maprules.json" { return schema == "config" }
            return true
        }
    }
}
