import Rules

/// `--format junit`: JUnit XML for CI test-report views.
///
/// One `<testsuite>` per file, named by its path. In it, one `<testcase>` per rule with diagnostics in that
/// file (sorted by rule ID, `classname` the file path, `name` the rule ID). A test case with error-severity
/// diagnostics fails: its `<failure type="RULE-ID">` lists them, one `line:column message` per line. Warnings
/// and infos do not fail a test case; they are listed in its `<system-out>`. A file without diagnostics gets
/// a single passing test case named `maprules`.
///
/// Text from the maps is escaped for XML 1.0: the five markup characters become entities, line breaks and tabs
/// in attributes become character references, and characters XML 1.0 cannot hold at all (most C0 controls,
/// U+FFFE, U+FFFF) are written as visible escapes such as `\u{1B}`.
enum JUnitFormatter {
    static func render(_ report: LintReport) -> String {
        var suites: [String] = []
        var totalTests = 0
        var totalFailures = 0
        for file in report.files {
            var cases: [String] = []
            var failures = 0
            let path = file.path
            if file.diagnostics.isEmpty {
                cases.append("    <testcase classname=\"\(attribute(path))\" name=\"maprules\"/>\n")
            }
            let byRule = Dictionary(grouping: file.diagnostics, by: \.ruleId)
            for ruleId in byRule.keys.sorted() {
                let diagnostics = byRule[ruleId]!
                let errors = diagnostics.filter { $0.severity == .error }
                let others = diagnostics.filter { $0.severity != .error }
                var body = ""
                if !errors.isEmpty {
                    failures += 1
                    let message = errors.count == 1 ? errors[0].message : TextSanitizing.count(errors.count, "error") + ": " + errors[0].message
                    let lines = errors.map { String($0.line) + ":" + String($0.column) + " " + $0.message }.joined(separator: "\n")
                    body += "      <failure message=\"\(attribute(message))\" type=\"\(attribute(ruleId))\">\(text(lines))</failure>\n"
                }
                if !others.isEmpty {
                    let lines = others.map { "\($0.line):\($0.column) \($0.severity.rawValue) \($0.message)" }.joined(separator: "\n")
                    body += "      <system-out>\(text(lines))</system-out>\n"
                }
                cases.append("    <testcase classname=\"\(attribute(path))\" name=\"\(attribute(ruleId))\">\n" + body + "    </testcase>\n")
            }
            totalTests += cases.count
            totalFailures += failures
            suites.append("  <testsuite name=\"\(attribute(path))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
                          + cases.joined() + "  </testsuite>\n")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"maprules\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"0\">\n"
            + suites.joined()
            + "</testsuites>\n"
    }

    /// Escaped for character data.
    static func text(_ s: String) -> String { escape(s, inAttribute: false) }

    /// Escaped for a double- or single-quoted attribute value; line breaks and tabs survive normalization.
    static func attribute(_ s: String) -> String { escape(s, inAttribute: true) }

    private static func escape(_ s: String, inAttribute: Bool) -> String {
        TextEscaping.escaped(s, isPlainASCII: { byte in
            byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
                && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
        }, replacement: { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&apos;"
            case "\n": return inAttribute ? "&#10;" : nil
            case "\r": return "&#13;"
            case "\t": return inAttribute ? "&#9;" : nil
            default: return isAllowedInXML(scalar) ? nil : TextSanitizing.escape(scalar)
            }
        })
    }

    /// XML 1.0's `Char` production (tab, line feed and carriage return are handled before this).
    private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
