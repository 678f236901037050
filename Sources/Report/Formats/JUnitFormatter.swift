import Foundation
import Rules
import WebMap

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
    /// Written into one string as it goes (the counts first): a report of 250,000 findings is some 75 MB of
    /// XML, and joining it from pieces copied it several times over.
    static func render(_ report: LintReport) -> String {
        struct Suite {
            var file: FileReport
            /// The file's diagnostics by rule, rules sorted by ID.
            var rules: [(id: String, diagnostics: [Diagnostic])]
            var tests: Int { rules.isEmpty ? 1 : rules.count }
            var failures: Int { rules.filter { $0.diagnostics.contains { $0.severity == .error } }.count }
        }
        let suites = report.files.map { file in
            let byRule = Dictionary(grouping: file.diagnostics, by: \.ruleId)
            return Suite(file: file, rules: byRule.keys.sorted().map { ($0, byRule[$0]!) })
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // Room for the whole report at once (each finding's message and its `line:column severity ` prefix, a test
        // case per rule): grown step by step, 75 MB of XML was copied and its pages touched twice over.
        out.reserveCapacity(suites.reduce(256) { total, suite in
            suite.file.diagnostics.reduce(total + 256 + suite.rules.count * 160 + suite.file.path.utf8.count * (suite.rules.count + 1)) {
                $0 + $1.message.utf8.count + 24
            }
        })
        out += "<testsuites name=\"maprules\" tests=\"\(suites.reduce(0) { $0 + $1.tests })\" "
            + "failures=\"\(suites.reduce(0) { $0 + $1.failures })\" errors=\"0\">\n"
        for suite in suites {
            let path = attribute(suite.file.path)
            out += "  <testsuite name=\"\(path)\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"0\" skipped=\"0\">\n"
            if suite.rules.isEmpty {
                out += "    <testcase classname=\"\(path)\" name=\"maprules\"/>\n"
            }
            for (ruleId, diagnostics) in suite.rules {
                out += "    <testcase classname=\"\(path)\" name=\"\(attribute(ruleId))\">\n"
                let errors = diagnostics.filter { $0.severity == .error }
                let others = diagnostics.filter { $0.severity != .error }
                if !errors.isEmpty {
                    let message = errors.count == 1 ? errors[0].message : TextSanitizing.count(errors.count, "error") + ": " + errors[0].message
                    out += "      <failure message=\"\(attribute(message))\" type=\"\(attribute(ruleId))\">"
                    appendLines(errors, to: &out) { String($0.line) + ":" + String($0.column) + " " }
                    out += "</failure>\n"
                }
                if !others.isEmpty {
                    out += "      <system-out>"
                    appendLines(others, to: &out) { String($0.line) + ":" + String($0.column) + " " + $0.severity.rawValue + " " }
                    out += "</system-out>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// One line per diagnostic, `prefix` then its message, escaped as character data (escaping is per
    /// character, so the lines are escaped one by one, as they are written).
    /// Many lines (one rule's 250,000 findings in a generated expression) are written in chunks on every core,
    /// each into a string of its own, then joined in order.
    private static func appendLines(_ diagnostics: [Diagnostic], to out: inout String, prefix: (Diagnostic) -> String) {
        let cores = ProcessorCount.active
        guard diagnostics.count >= 20_000, cores > 1 else {
            appendLines(diagnostics[...], to: &out, prefix: prefix)
            return
        }
        let chunks = cores * 4
        var parts = [String](repeating: "", count: chunks)
        parts.withUnsafeMutableBufferPointer { parts in
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let lines = diagnostics[(diagnostics.count * chunk / chunks)..<(diagnostics.count * (chunk + 1) / chunks)]
                var part = chunk > 0 ? "\n" : ""
                part.reserveCapacity(lines.reduce(0) { $0 + $1.message.utf8.count + 24 })
                appendLines(lines, to: &part, prefix: prefix)
                parts[chunk] = part
            }
        }
        for part in parts { out += part }
    }

    private static func appendLines(_ diagnostics: ArraySlice<Diagnostic>, to out: inout String, prefix: (Diagnostic) -> String) {
        for (i, diagnostic) in zip(diagnostics.indices, diagnostics) {
            if i > diagnostics.startIndex { out += "\n" }
            appendText(prefix(diagnostic), to: &out)
            appendText(diagnostic.message, to: &out)
        }
    }

    /// Escaped for character data.
    static func text(_ s: String) -> String { escape(s, inAttribute: false) }

    /// Escaped for a double- or single-quoted attribute value; line breaks and tabs survive normalization.
    static func attribute(_ s: String) -> String { escape(s, inAttribute: true) }

    private static func escape(_ s: String, inAttribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        append(s, inAttribute: inAttribute, to: &out)
        return out
    }

    private static func appendText(_ s: String, to out: inout String) { append(s, inAttribute: false, to: &out) }

    private static func append(_ s: String, inAttribute: Bool, to out: inout String) {
        TextEscaping.append(s, to: &out, isPlainASCII: { byte in
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
