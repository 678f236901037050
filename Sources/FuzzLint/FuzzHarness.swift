import WebMap
import Rules

/// One fuzz iteration: parse the bytes, then lint them as an explicitly named file twice, once the way
/// `maprules lint MAP --services FILE` would and once the way `maprules lint POPUP --layer FILE` would.
/// Nothing is read from disk: the configuration is the default one, default snapshots are off, and the
/// metadata comes from ``FuzzFixtures``.
///
/// Besides "no crash, no hang, no sanitizer report", the harness checks what the spec promises of every
/// diagnostic (docs/inputs.md, "Positions"): a 1-based line and column and an RFC 6901 pointer. A broken promise
/// stops the run like a crash, so libFuzzer saves the input that caused it.
enum FuzzHarness {
    /// Name the input is linted under; only reports see it (no configuration or snapshot is looked up).
    static let inputPath = "fuzz-input.json"

    /// Lints the input as a map whose service-backed layers resolve through the fixture snapshot.
    static let mapLinter = Linter(options: options(popupLayer: nil))

    /// Lints the input as a standalone pop-up definition of the fixture's Trees layer (maps lint as maps).
    static let popupLinter = Linter(options: options(popupLayer: fixtureSnapshot.layer(url: FuzzFixtures.popupLayerURL)))

    static let fixtureSnapshot: ServicesSnapshot = {
        do {
            let parsed = try JSONParser.parse(FuzzFixtures.servicesSnapshot)
            return try ServicesSnapshot(path: "FuzzFixtures.servicesSnapshot", root: parsed.root)
        } catch {
            // The fixture is part of this target, not fuzz input: if it is broken the harness is.
            preconditionFailure("FuzzLint: the built-in services snapshot does not load: \(error)")
        }
    }()

    private static func options(popupLayer: LayerMetadata?) -> LintOptions {
        var options = LintOptions()
        options.configuration = .default
        options.useDefaultSnapshots = false
        options.snapshots = [fixtureSnapshot]
        options.popupLayer = popupLayer
        // So that `{{ HOST }}` placeholders in URLs are substituted as `--var HOST=...` would.
        options.variables = ["HOST": "https://maprules.example.com"]
        return options
    }

    /// Builds the shared linters and fixtures before the first input, so that their cost (and any failure
    /// in them) is not charged to an input.
    static func prepare() {
        _ = mapLinter
        _ = popupLinter
    }

    /// Runs one input; returns the reports (the driver prints a summary of them).
    @discardableResult
    static func run(_ bytes: [UInt8]) -> [FileReport] {
        let text = SourceText(bytes: bytes)

        // The parser on its own, and the positions of whatever it reports.
        let serial: Result<ParsedJSON, JSONParseError>
        do {
            let parsed = try JSONParser.parse(text)
            for duplicate in parsed.duplicateKeys { checkPosition(text.position(ofOffset: duplicate.offset), "duplicate key") }
            serial = .success(parsed)
        } catch {
            checkPosition(text.position(ofOffset: error.offset), "parse error")
            serial = .failure(error)
        }
        ConcurrentParseCheck.expectSameOutcome(text, as: serial)

        var reports: [FileReport] = []
        for linter in [mapLinter, popupLinter] {
            let report: FileReport?
            do {
                report = try linter.lint(path: inputPath, text: text, isExplicit: true)
            } catch {
                // Only a configuration or snapshot found on disk can throw, and neither is used here.
                preconditionFailure("FuzzLint: lint threw with no configuration or snapshot on disk: \(error)")
            }
            // An explicitly named file always gets a report (json/not-a-map at worst).
            guard let report else { preconditionFailure("FuzzLint: explicit file got no report") }
            for diagnostic in report.diagnostics { check(diagnostic) }
            reports.append(report)
        }
        return reports
    }

    private static func check(_ diagnostic: Diagnostic) {
        checkPosition(SourcePosition(line: diagnostic.line, column: diagnostic.column), diagnostic.ruleId)
        precondition(diagnostic.pointer.isEmpty || diagnostic.pointer.hasPrefix("/"),
                     "FuzzLint: \(diagnostic.ruleId) has pointer '\(diagnostic.pointer)', not an RFC 6901 pointer")
        precondition(!diagnostic.message.isEmpty, "FuzzLint: \(diagnostic.ruleId) has an empty message")
    }

    private static func checkPosition(_ position: SourcePosition, _ what: String) {
        precondition(position.line >= 1 && position.column >= 1, "FuzzLint: \(what) at \(position), not 1-based")
    }
}
