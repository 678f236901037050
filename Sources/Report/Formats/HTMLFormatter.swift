import Foundation
import Rules

/// `--format html`: one self-contained page (``LintPageTemplate``): totals by severity and by rule, then per file
/// its diagnostics in report order, each with a few source lines around it and the position marked, the rule's
/// summary, rationale and fix; severity filters that work without a server or script. Files are collapsed when
/// the report has many of them, so that a report of 1,000 files stays usable.
enum HTMLFormatter {
    /// Files with findings open by default up to this many; above it every file starts collapsed.
    static let openFilesLimit = 20

    struct Count { var severity: String; var text: String }
    struct RuleRow {
        var id: String, anchor: String, severity: String, count: Int, countText: String
        var summary: String, rationale: String, fix: String
    }
    struct DiagnosticRow {
        var severity: String, line: Int, column: Int, message: String, ruleId: String, anchor: String
        var layer: String?, pointer: String, snippet: SourceSnippet?
        var summary: String?, rationale: String, fix: String
        /// The automatic fix `maprules lint --fix` would make, when the rule knows one.
        var autofix: String?
    }
    struct FileSection { var number: Int, path: String, open: Bool, counts: [Count], diagnostics: [DiagnosticRow] }
    struct Page {
        var policy = PageStyle.policy, css = PageStyle.css
        var headline: String, version: String
        var files: Int, errors: Int, warnings: Int, infos: Int, hasProblems: Bool
        var filesWithFindings: Int
        var rules: [RuleRow], ruleCount: Int, rulesPlural: String, rulesOpen: Bool
        var fileSections: [FileSection]
        var cleanFiles: [String], hasCleanFiles: Bool, cleanCount: Int
    }

    static func render(_ report: LintReport, options: ReportOptions) -> String {
        HTMLTemplates.render(page(report, options: options), template: "lint")
    }

    static func page(_ report: LintReport, options: ReportOptions) -> Page {
        let catalogue = Dictionary(options.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let withFindings = report.files.filter { !$0.diagnostics.isEmpty }
        let open = withFindings.count <= openFilesLimit
        var sections: [FileSection] = []
        for (index, file) in withFindings.enumerated() {
            let lines = options.source?(file.path).map(SourceSnippet.lines(of:))
            let rows = file.diagnostics.map { diagnostic -> DiagnosticRow in
                let rule = catalogue[diagnostic.ruleId]
                return DiagnosticRow(
                    severity: diagnostic.severity.rawValue, line: diagnostic.line, column: diagnostic.column,
                    message: TextSanitizing.visibleControlCharacters(diagnostic.message), ruleId: diagnostic.ruleId, anchor: anchor(diagnostic.ruleId),
                    layer: layerText(diagnostic.layer), pointer: diagnostic.pointer.isEmpty ? "the document" : diagnostic.pointer,
                    snippet: lines.flatMap { SourceSnippet(lines: $0, line: diagnostic.line, column: diagnostic.column) },
                    summary: rule?.summary, rationale: rule?.rationale ?? "", fix: rule?.fix ?? "",
                    autofix: diagnostic.fix.map(\.description))
            }
            sections.append(FileSection(number: index + 1, path: TextSanitizing.visibleControlCharacters(file.path), open: open, counts: counts(file.diagnostics), diagnostics: rows))
        }
        var byRule: [String: (severity: Severity, count: Int)] = [:]
        for diagnostic in report.files.flatMap(\.diagnostics) {
            let current = byRule[diagnostic.ruleId]
            byRule[diagnostic.ruleId] = (max(current?.severity ?? diagnostic.severity, diagnostic.severity), (current?.count ?? 0) + 1)
        }
        let rules = byRule.sorted { a, b in
            a.value.severity != b.value.severity ? a.value.severity > b.value.severity
                : a.value.count != b.value.count ? a.value.count > b.value.count : a.key < b.key
        }.map { id, entry in
            let rule = catalogue[id]
            return RuleRow(id: id, anchor: anchor(id), severity: entry.severity.rawValue, count: entry.count,
                           countText: plural(entry.count, "finding"), summary: rule?.summary ?? "",
                           rationale: rule?.rationale ?? "", fix: rule?.fix ?? "")
        }
        let clean = report.files.filter { $0.diagnostics.isEmpty }.map { TextSanitizing.visibleControlCharacters($0.path) }
        let summary = report.summary
        let headline = summary.problems == 0
            ? "\(plural(summary.files, "file")), no problems"
            : "\(plural(summary.problems, "problem")) in \(plural(withFindings.count, "file")) of \(summary.files)"
        return Page(headline: headline, version: report.tool.version, files: summary.files, errors: summary.errors,
                    warnings: summary.warnings, infos: summary.infos, hasProblems: summary.problems > 0,
                    filesWithFindings: withFindings.count, rules: rules, ruleCount: rules.count,
                    rulesPlural: rules.count == 1 ? "" : "s", rulesOpen: rules.count <= 12, fileSections: sections,
                    cleanFiles: clean, hasCleanFiles: !clean.isEmpty, cleanCount: clean.count)
    }

    private static func counts(_ diagnostics: [Diagnostic]) -> [Count] {
        Severity.allCases.sorted(by: >).compactMap { severity in
            let n = diagnostics.filter { $0.severity == severity }.count
            return n == 0 ? nil : Count(severity: severity.rawValue, text: plural(n, severity.rawValue))
        }
    }

    /// A fragment identifier for a rule ID (`popup/unknown-field` → `popup-unknown-field`).
    static func anchor(_ id: String) -> String {
        String(id.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" ? Character($0) : "-" })
    }

    private static func layerText(_ layer: LayerReference?) -> String? {
        guard let layer else { return nil }
        switch (layer.title, layer.id) {
        case let (title?, id?): return "‘\(title)’ (id \(id))"
        case let (title?, nil): return "‘\(title)’"
        case let (nil, id?): return "id \(id)"
        case (nil, nil): return nil
        }
    }

    private static func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
