import ArgumentParser
import Foundation
import Report
import Rules
import WebMap

public struct LintCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint web maps (and pop-up definitions) against the rule catalogue.",
        discussion: """
            PATH is a web map file, a pop-up definition file (with --layer), a directory (searched \
            recursively for web maps; *.services.json snapshots are not linted), or - for standard input.
            Layer metadata comes from inline feature collections, then <map>.services.json or services.json \
            beside the map, then --services files, then (with --fetch) the live service.

            Examples:
              maprules lint Samples
              maprules lint maps/ --format sarif --output maprules.sarif
              maprules lint map.json --rule layer/hidden=off --max-warnings 0
              cat map.json | maprules lint - --stdin-filename map.json
              maprules lint exports/ --allow-empty
              maprules lint Samples --format html --output report.html
              maprules lint maps/ --fix-dry-run
              maprules lint maps/ --fix
              maprules lint maps/ --write-baseline baseline.json
              maprules lint maps/ --baseline baseline.json
              maprules lint --offline Samples/TreesOfPortland

            A directory under which no web map is found is an error (exit 2), unless --allow-empty is given.

            Fixes: where a rule's fix is unambiguous (a missing label -> the field's alias; isEditable on a field \
            that can never be edited -> false; a repeated fieldInfos entry -> removed; a field name that is \
            exactly one field's alias or name spelled another way -> that name; a token in a URL -> removed), \
            the diagnostic carries it (`fix` in the JSON report, `fixes` in SARIF). --fix writes them into the \
            files as minimal text edits (the rest of each file stays byte for byte), lints again and reports what \
            remains; the exit code is that of the remaining findings. --fix-dry-run prints the unified diff \
            instead and changes nothing; with --format json it prints each file's change as a JSON Patch \
            (RFC 6902): {"files": [{"path", "patch": [operations]}]}.

            Baselines: --write-baseline FILE records the findings by fingerprint (rule, layer, what the finding \
            is about; no line numbers, no array indexes) and exits 0; --baseline FILE reports only the findings \
            not in it and says on standard error how many baseline entries no longer occur.
            """)

    @Argument(help: "Files or directories to lint, or - for standard input (default: the current directory).")
    var paths: [String] = []

    @Option(help: "Output format: stylish, json, sarif, junit, github or html (one self-contained page; use --output).")
    var format: ReportFormat = .stylish

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: "Configuration file (default: the nearest .maprules.json above each file).")
    var config: String?

    @Option(name: .customLong("rule"), help: ArgumentHelp("Set a rule's severity: ID=off|info|warning|error (repeatable; wins over the config).", valueName: "ID=SETTING"))
    var rules: [String] = []

    @Option(help: ArgumentHelp("A services snapshot file (repeatable).", valueName: "FILE"))
    var services: [String] = []

    @Flag(help: "Fetch metadata missing from snapshots from the live services.")
    var fetch = false

    @Flag(help: "Check every map as one meant for offline use (the offline/ rules; also \"offline\": true in .maprules.json).")
    var offline = false

    @Option(help: ArgumentHelp("Seconds all --fetch requests of the run have together (default 60); layers not fetched by then are reported unresolved.", valueName: "SECONDS"))
    var timeout: Double = 60

    @Option(help: "Token for --fetch (or the MAPRULES_TOKEN environment variable).")
    var token: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("Substitute {{ NAME }} placeholders before linting (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(help: "Metadata JSON of the layer a pop-up definition file describes.")
    var layer: String?

    @Option(help: "Exit 1 when there are more warnings than this (default: no limit).")
    var maxWarnings: Int?

    @Flag(help: "Report errors only.")
    var quiet = false

    @Option(help: "The file name to report for standard input.")
    var stdinFilename: String?

    @Option(help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Accept a directory with no web map in it (by default that is an error, exit 2).")
    var allowEmpty = false

    @Flag(help: "Apply the unambiguous fixes to the files (minimal text edits), then lint again and report what remains.")
    var fix = false

    @Flag(help: "Print the unified diff of what --fix would change (with --format json, a JSON Patch per file), and change nothing.")
    var fixDryRun = false

    @Option(help: ArgumentHelp("Report only findings not recorded in this baseline file; say how many of its entries no longer occur.", valueName: "FILE"))
    var baseline: String?

    @Option(help: ArgumentHelp("Record every finding in this baseline file (sorted, stable JSON) and exit 0.", valueName: "FILE"))
    var writeBaseline: String?

    public func validate() throws {
        if let maxWarnings, maxWarnings < 0 { throw ValidationError("--max-warnings must be 0 or more") }
        if !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a number of seconds above 0") }
        if fix && fixDryRun { throw ValidationError("--fix and --fix-dry-run exclude each other: choose one") }
        if baseline != nil && writeBaseline != nil {
            throw ValidationError("--baseline and --write-baseline exclude each other: write the baseline, then lint against it")
        }
        if (fix || fixDryRun) && paths.contains("-") {
            throw ValidationError("--fix cannot change standard input: name the file instead of -")
        }
    }

    public func run() throws {
        HeapGrowth.growInLargeSteps()
        let options = try lintOptions()
        let linter = Linter(options: options)
        var reports: [FileReport] = []
        var standardInput: (name: String, text: String)?
        let paths = self.paths.isEmpty ? ["."] : self.paths
        do {
            if paths.contains("-") {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                let name = stdinFilename ?? "<stdin>"
                if format == .html { standardInput = (name, String(decoding: data, as: UTF8.self)) }
                let diskPath = stdinFilename.map { URL(fileURLWithPath: $0).path } ?? FileManager.default.currentDirectoryPath + "/stdin.json"
                if let report = try linter.lint(path: diskPath, displayPath: name, text: SourceText(bytes: [UInt8](data)), isExplicit: true) {
                    reports.append(report)
                }
            }
            let discovery = try FileDiscovery.targets(for: paths.filter { $0 != "-" })
            for (path, reason) in discovery.skipped { Console.error("warning: skipped \(path): \(reason)") }
            var progress: (@Sendable (Int, Int) -> Void)? = nil
            if Console.stderrIsTerminal && discovery.targets.count >= 50 {
                progress = { done, total in
                    guard done % 25 == 0 || done == total else { return }
                    FileHandle.standardError.write(Data("\rlinting \(done)/\(total) files\(done == total ? "\n" : "")".utf8))
                }
            }
            let found = try fix || fixDryRun
                ? applyFixes(discovery.targets, linter: linter)
                : linter.lint(discovery.targets, progress: progress)
            let reported = Set(found.map(\.path))
            for target in discovery.targets where target.isExplicit && !reported.contains(target.displayPath) {
                Console.error("note: \(target.displayPath) is MapRules' own baseline or configuration file, not a web map: not linted")
            }
            if !allowEmpty, let empty = discovery.directoriesWithoutMaps(reports: found).first {
                throw CommandFailure("no web map found under '\(empty)' (pass --allow-empty to accept a directory without one)")
            }
            reports += found
        }
        reports = try applyBaseline(to: reports)
        var report = LintReport(files: reports)
        if quiet { report = report.filtered(minimumSeverity: .error) }
        let reportOptions = ReportOptions(
            color: output == nil && color.enabled(forTerminal: Console.stdoutIsTerminal),
            rules: RuleCatalog.all.map { $0.description },
            baseDirectory: FileManager.default.currentDirectoryPath,
            githubStepSummaryPath: ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"],
            source: format == .html ? Self.sourceReader(standardInput: standardInput) : nil)
        // With --fix-dry-run standard output holds the diff: the report goes only to --output.
        if !fixDryRun || output != nil {
            switch format {
            case .json where output == nil, .sarif where output == nil:
                // Standard output gets the report as it is written, a megabyte at a time.
                try emitToStandardOutput { try ReportRenderer.write(report, as: format, options: reportOptions, to: $0) }
            case .json, .sarif: try emit(ReportRenderer.renderUTF8(report, as: format, options: reportOptions), to: output)
            case .stylish, .junit, .github, .html: try emit(ReportRenderer.render(report, as: format, options: reportOptions), to: output)
            }
        }
        if format == .github {
            do { try ReportRenderer.appendGitHubStepSummary(report, options: reportOptions) } catch {
                Console.error("warning: \(error)")
            }
        }
        if writeBaseline != nil { return }
        if report.summary.errors > 0 { throw ExitCode(1) }
        if let maxWarnings, report.summary.warnings > maxWarnings { throw ExitCode(1) }
    }

    private func lintOptions() throws -> LintOptions {
        var options = LintOptions()
        if let config {
            let configuration = try ConfigurationFile.load(path: config)
            try configuration.validate(knownIds: RuleCatalog.allIds)
            options.configuration = configuration
        }
        for entry in rules {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let setting = RuleSetting(parts[1]) else {
                throw CommandFailure("--rule \(entry): expected ID=off|info|warning|error")
            }
            options.commandLineRules[parts[0]] = setting
        }
        if !options.commandLineRules.isEmpty {
            try RuleConfiguration(rules: options.commandLineRules).validate(knownIds: RuleCatalog.allIds, file: "--rule")
        }
        for entry in variables {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw CommandFailure("--var \(entry): expected NAME=VALUE") }
            options.variables[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1]
        }
        for path in services { options.snapshots.append(try ServicesSnapshot.load(path: path)) }
        if let layer { options.popupLayer = try Self.layerMetadata(path: layer) }
        options.recordSubjects = baseline != nil || writeBaseline != nil
        options.offline = offline
        if fetch {
            options.fetcher = MetadataOverURLSession.fetcher(token: token ?? ProcessInfo.processInfo.environment["MAPRULES_TOKEN"], timeout: timeout)
        }
        return options
    }

    /// The text of a reported file for the HTML report's excerpts: standard input as read, else the file on disk.
    private static func sourceReader(standardInput: (name: String, text: String)?) -> @Sendable (String) -> String? {
        { path in
            if let standardInput, path == standardInput.name { return standardInput.text }
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// The metadata in a `--layer` file.
    private static func layerMetadata(path: String) throws -> LayerMetadata {
        let file = try SourceFile.read(path: path)
        let parsed: ParsedJSON
        do { parsed = try JSONParser.parse(file.text) } catch {
            throw DocumentError(path: path, message: "not valid JSON at \(file.text.position(ofOffset: error.offset)): \(error.message)")
        }
        return LayerMetadata(parsed.root)
    }
}

extension ReportFormat: ExpressibleByArgument {}
