import Rules

/// `--format github`: GitHub Actions workflow commands, one per diagnostic, which the runner turns into
/// annotations on the pull request:
///
/// ```
/// ::error file=Samples/Broken/popup-unknown-field.json,line=41,col=27,title=popup/unknown-field::Pop-up of …
/// ```
///
/// `error` for errors, `warning` for warnings, `notice` for infos; `file` relative to
/// ``ReportOptions/baseDirectory`` (the repository root in a workflow). Escaped as the Actions toolkit does:
/// in the message `%`, CR and LF become `%25`, `%0D`, `%0A`; in property values `:` and `,` also become `%3A`
/// and `%2C`. Other control characters are written as visible escapes (`\u{1B}`), so that a map cannot put
/// terminal escape sequences into the workflow log.
///
/// ``stepSummary(_:options:)`` is the Markdown for `$GITHUB_STEP_SUMMARY`: the counts, then a table of
/// diagnostics for each file that has any.
enum GitHubFormatter {
    static func render(_ report: LintReport, options: ReportOptions) -> String {
        var out = ""
        for file in report.files {
            let path = escapeProperty(ReportPaths.display(file.path, base: options.baseDirectory))
            for diagnostic in file.diagnostics {
                out += "::"
                out += command(diagnostic.severity)
                out += " file="
                out += path
                out += ",line="
                out += String(max(1, diagnostic.line))
                out += ",col="
                out += String(max(1, diagnostic.column))
                out += ",title="
                out += escapeProperty(diagnostic.ruleId)
                out += "::"
                diagnostic.message.appendReplacingAll(GitHubFormatter.dataEscapes, to: &out)
                out += "\n"
            }
        }
        return out
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "notice"
        }
    }

    /// The toolkit's `escapeData`.
    static func escapeData(_ s: String) -> String {
        s.replacingAll(dataEscapes)
    }

    private static let dataEscapes: [Unicode.Scalar: String] = ["%": "%25", "\r": "%0D", "\n": "%0A"]
    private static let propertyEscapes: [Unicode.Scalar: String] = ["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"]

    /// The toolkit's `escapeProperty`.
    static func escapeProperty(_ s: String) -> String {
        s.replacingAll(propertyEscapes)
    }

    static func stepSummary(_ report: LintReport, options: ReportOptions) -> String {
        let s = report.summary
        var out = "### MapRules \(report.tool.version)\n\n"
        out += "| Files | Errors | Warnings | Infos |\n| ---: | ---: | ---: | ---: |\n"
        out += "| \(s.files) | \(s.errors) | \(s.warnings) | \(s.infos) |\n\n"
        if s.problems == 0 {
            out += "No problems found.\n\n"
            return out
        }
        for file in report.files where !file.diagnostics.isEmpty {
            let path = ReportPaths.display(file.path, base: options.baseDirectory)
            out += "#### " + markdown(path) + "\n\n"
            out += "| Line:Column | Severity | Rule | Message |\n| --- | --- | --- | --- |\n"
            for d in file.diagnostics {
                out += "| \(d.line):\(d.column) | \(d.severity.rawValue) | " + markdown(d.ruleId) + " | " + markdown(d.message) + " |\n"
            }
            out += "\n"
        }
        return out
    }

    /// Text made inert for a Markdown table cell or heading: HTML and Markdown punctuation escaped, line
    /// breaks as `<br>`, other control characters as visible escapes.
    static func markdown(_ text: String) -> String {
        TextEscaping.escaped(text, isPlainASCII: { byte in
            switch byte {
            case 0x00..<0x20, 0x7F, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "`"),
                 UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "|"), UInt8(ascii: "~"),
                 UInt8(ascii: "#"), UInt8(ascii: "!"):
                return false
            default: return true
            }
        }, replacement: { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\n": return "<br>"
            case "\r": return ""
            case "\\", "`", "*", "_", "[", "]", "|", "~", "#", "!": return "\\" + String(scalar)
            default: return TextSanitizing.isControl(scalar) ? TextSanitizing.escape(scalar) : nil
            }
        })
    }
}

extension String {
    /// Replaces each Unicode scalar that is a key of `table` by its value, and other control characters but
    /// tab by visible escapes, in one pass. (Scalars, not characters: "\r\n" is one `Character`, and each
    /// half must be escaped.)
    fileprivate func replacingAll(_ table: [Unicode.Scalar: String]) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        appendReplacingAll(table, to: &out)
        return out
    }

    /// ``replacingAll(_:)`` appended to `out`. The keys of `table` are ASCII punctuation; other ASCII text is
    /// copied without a look-up.
    fileprivate func appendReplacingAll(_ table: [Unicode.Scalar: String], to out: inout String) {
        TextEscaping.append(self, to: &out, isPlainASCII: { byte in
            byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: ":") && byte != UInt8(ascii: ",")
        }, replacement: { scalar in
            if let replacement = table[scalar] { return replacement }
            return TextSanitizing.isControl(scalar) && scalar != "\t" ? TextSanitizing.escape(scalar) : nil
        })
    }
}
