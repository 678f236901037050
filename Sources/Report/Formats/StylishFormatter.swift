import Foundation
import Rainbow
import Rules

/// `--format stylish`: ESLint's layout. For each file with diagnostics, its path, then one line per diagnostic
/// with `line:column`, severity, message and rule ID in aligned columns; a blank line between files; then a
/// summary line.
///
/// ```
/// Samples/Broken/popup-unknown-field.json
///    3:5   warning  Layer 'Trees' (id Trees_1234) uses http://…  map/insecure-url
///   41:27  error    Pop-up of layer 'Trees' lists field …        popup/unknown-field
///
/// ✖ 2 problems (1 error, 1 warning, 0 infos)
/// ```
///
/// When some diagnostics carry a fix, a last line says how many (`  1 problem fixable with --fix ...`).
///
/// Colour comes from Rainbow, switched on or off by ``ReportOptions/color`` alone: Rainbow's own detection of
/// the terminal and `NO_COLOR` is overridden for the duration of the call. Control characters in paths and
/// messages are shown as escapes (`\n`, `\u{1B}`), so a map cannot write escape sequences to the terminal.
enum StylishFormatter {
    /// Rainbow's switches are process-wide; renders that colour hold this lock while they use them.
    private static let rainbowLock = NSLock()

    static func render(_ report: LintReport, options: ReportOptions) -> String {
        rainbowLock.lock()
        let (savedEnabled, savedTarget) = (Rainbow.enabled, Rainbow.outputTarget)
        Rainbow.enabled = options.color
        Rainbow.outputTarget = options.color ? .console : .unknown
        defer {
            Rainbow.enabled = savedEnabled
            Rainbow.outputTarget = savedTarget
            rainbowLock.unlock()
        }
        return text(of: report)
    }

    private static func text(of report: LintReport) -> String {
        let summary = report.summary
        guard summary.problems > 0 else {
            return "No problems found".green + "\n"
        }
        let line = "✖ " + TextSanitizing.count(summary.problems, "problem") + " ("
            + TextSanitizing.count(summary.errors, "error") + ", "
            + TextSanitizing.count(summary.warnings, "warning") + ", "
            + TextSanitizing.count(summary.infos, "info") + ")"
        let colored = summary.errors > 0 ? line.red.bold : summary.warnings > 0 ? line.yellow.bold : line.cyan.bold
        // As ESLint says how many problems its --fix would fix.
        let fixable = report.files.reduce(0) { $0 + $1.diagnostics.filter { $0.fix != nil }.count }
        let hint = fixable == 0 ? "" : "  " + TextSanitizing.count(fixable, "problem") + " fixable with --fix (see the changes first with --fix-dry-run)\n"
        // One string written as it goes: a report of 250,000 findings is some 75 MB of text. Room for all of it at
        // once (each finding's message, its position, severity and rule): grown step by step, it was copied and its
        // pages touched twice over.
        var out = ""
        out.reserveCapacity(report.files.reduce(1024) { total, file in
            file.diagnostics.reduce(total + file.path.utf8.count + 64) { $0 + $1.message.utf8.count + $1.ruleId.utf8.count + 48 }
        })
        for (i, file) in report.files.filter({ !$0.diagnostics.isEmpty }).enumerated() {
            if i > 0 { out += "\n" }
            appendBlock(for: file, to: &out)
        }
        out += "\n"
        out += colored
        out += "\n"
        out += hint
        return out
    }

    private static func appendBlock(for file: FileReport, to out: inout String) {
        struct Row {
            var line: String
            var column: String
            var severity: Severity
            var message: String
            var ruleId: String
        }
        let rows = file.diagnostics.map {
            Row(line: String($0.line), column: String($0.column), severity: $0.severity,
                message: TextSanitizing.visibleControlCharacters($0.message),
                ruleId: TextSanitizing.visibleControlCharacters($0.ruleId))
        }
        let lineWidth = rows.map(\.line.count).max() ?? 0
        let columnWidth = rows.map(\.column.count).max() ?? 0
        let severityWidth = rows.map(\.severity.rawValue.count).max() ?? 0
        // Messages are whole sentences: aligning rule IDs after the longest would push them off screen.
        // (A message of at most 60 bytes has at most 60 characters: most are counted without walking them.)
        let messageWidth = rows.allSatisfy { $0.message.utf8.count <= 60 || $0.message.count <= 60 } ? (rows.map(\.message.count).max() ?? 0) : 0

        out += TextSanitizing.visibleControlCharacters(file.path).underline
        out += "\n"
        for row in rows {
            let position = pad(row.line, to: lineWidth, left: true) + ":" + pad(row.column, to: columnWidth)
            out += "  "
            out += position.dim
            out += "  "
            out += colored(row.severity, pad(row.severity.rawValue, to: severityWidth))
            out += "  "
            out += pad(row.message, to: messageWidth)
            out += "  "
            out += row.ruleId.dim
            out += "\n"
        }
    }

    /// Pads on the right (or left) to `width` characters; the padding goes outside any colour.
    private static func pad(_ text: String, to width: Int, left: Bool = false) -> String {
        guard width > 0 else { return text }
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }

    /// The padded severity word in its colour; the trailing padding is left uncoloured.
    private static func colored(_ severity: Severity, _ padded: String) -> String {
        let word = severity.rawValue
        let padding = String(padded.dropFirst(word.count))
        switch severity {
        case .error: return word.red + padding
        case .warning: return word.yellow + padding
        case .info: return word.cyan + padding
        }
    }
}
