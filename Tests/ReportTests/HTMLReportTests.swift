import Foundation
import Report
import Rules
import Testing

/// `--format html`: escaping, source excerpts and their marks, deterministic output. The rendered page itself is
/// checked in a real browser by BrowserTests.
struct HTMLReportTests {
    static let source: @Sendable (String) -> String? = { path in
        guard path == ReportFixtures.mapPath else { return nil }
        // 45 lines; line 9 holds a hostile value, line 41 the unknown field.
        var lines = (1...45).map { "    \"line\($0)\": \($0)," }
        lines[8] = "    \"url\": \"http://x/<img src=x onerror=alert(1)>\","
        lines[40] = "           {\"fieldName\": \"Conditon\", \"label\": \"Condition\"},"
        return lines.joined(separator: "\r\n")
    }

    func render(_ report: LintReport = ReportFixtures.report) -> String {
        ReportRenderer.render(report, as: .html, options: ReportOptions(baseDirectory: ReportFixtures.baseDirectory, source: Self.source))
    }

    @Test func messagesPathsAndSourceLinesAreEscaped() {
        let html = render()
        #expect(!html.contains("<img"))
        #expect(!html.contains("<layers>"))
        #expect(html.contains("100% of &lt;layers&gt; &amp; &quot;quoted&quot; &#39;names&#39;"))
        #expect(html.contains("tp://x/&lt;img src=x onerror=alert(1)&gt;"))
        // Control characters in a message are escaped by the template and cannot reach a terminal-like view.
        #expect(!html.contains("\u{01}"))
    }

    @Test func theExcerptMarksTheColumnOfTheDiagnosticLine() throws {
        let html = render()
        // Line 41, column 27: the `C` of `Conditon` (scalars, 1-based), with two lines either side.
        let target = try #require(html.range(of: "<span class=\"line target\"><span class=\"ln\">41</span>"))
        let rest = html[target.upperBound...]
        #expect(rest.hasPrefix("           {&quot;fieldName&quot;: &quot;<mark>C</mark>onditon&quot;"))
        for number in [39, 40, 42, 43] { #expect(html.contains("<span class=\"ln\">\(number)</span>")) }
        #expect(!html.contains("<span class=\"ln\">38</span>"))
        // A file whose text is not available shows the pointer instead (the JSON syntax error's file).
        #expect(html.contains("at the document"))
    }

    @Test func aLongLineIsCutToAWindowAroundTheColumn() throws {
        let long = String(repeating: "a", count: 5_000) + "X" + String(repeating: "b", count: 5_000)
        let report = LintReport(files: [FileReport(path: "/repo/long.json", kind: "webmap", diagnostics: [
            Diagnostic(ruleId: "map/insecure-url", severity: .warning, message: "m", pointer: "/x", line: 1, column: 5_001),
        ])])
        let html = ReportRenderer.render(report, as: .html, options: ReportOptions(source: { _ in long }))
        #expect(html.contains("…" + String(repeating: "a", count: 70) + "<mark>X</mark>" + String(repeating: "b", count: 69) + "…"))
        #expect(html.utf8.count < 100_000)
    }

    @Test func totalsAndRulesComeFromTheReportAndTheCatalogue() throws {
        let html = render()
        #expect(html.contains("<title>MapRules lint report: 5 problems in 2 files of 3</title>"))
        let rule = try #require(RuleCatalog.all.first { $0.description.id == "popup/unknown-field" }?.description)
        let escapedRationale = rule.rationale.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
        #expect(html.contains(escapedRationale))
        #expect(html.contains("id=\"rule-popup-unknown-field\""))
        #expect(html.contains("<span class=\"badge error\">2 errors</span>"))
    }

    @Test func manyFilesStartCollapsed() {
        let files = (0..<30).map { index in
            FileReport(path: "/repo/m\(index).json", kind: "webmap", diagnostics: [
                Diagnostic(ruleId: "layer/hidden", severity: .info, message: "hidden", pointer: "/a", line: 1, column: 1),
            ])
        }
        let many = ReportRenderer.render(LintReport(files: files), as: .html, options: ReportOptions())
        #expect(!many.contains("<details class=\"file\" open id=\"file-"))
        let few = ReportRenderer.render(LintReport(files: Array(files.prefix(3))), as: .html, options: ReportOptions())
        #expect(few.contains("<details class=\"file\" open id=\"file-1\">"))
    }

    @Test func renderingIsDeterministic() {
        #expect(render() == render())
    }
}
