import Foundation
import Report
import Rules
import Testing

@Suite struct GitHubTests {
    struct Annotation: Equatable {
        var command, file, title, message: String
        var line, column: Int
    }

    /// The workflow command grammar, and GitHub's unescaping.
    func parse(_ output: String) throws -> [Annotation] {
        let pattern = #/^::(error|warning|notice) file=([^,:\r\n]*),line=(\d+),col=(\d+),title=([^,:\r\n]*)::([^\r\n]*)$/#
        return try output.split(separator: "\n").map { line in
            let match = try #require(try pattern.wholeMatch(in: String(line)), "\(line)")
            return Annotation(command: String(match.1), file: unescape(String(match.2)), title: unescape(String(match.5)),
                              message: unescape(String(match.6)), line: Int(match.3)!, column: Int(match.4)!)
        }
    }

    func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
            .replacingOccurrences(of: "%25", with: "%")
    }

    @Test func oneCommandPerDiagnostic() throws {
        let annotations = try parse(ReportFixtures.render(.github))
        #expect(annotations.map(\.command) == ["notice", "warning", "error", "error", "error"])
        #expect(annotations.map(\.title) == ReportFixtures.report.files.flatMap(\.diagnostics).map(\.ruleId))
        #expect(annotations[2].file == "Samples/Broken/popup-unknown-field.json")
        #expect(annotations[2].line == 41 && annotations[2].column == 27)
        #expect(annotations[4].file == "Samples/Broken/not json.json")
        #expect(annotations[3].message == "Control \\u{1B}[31mred\\u{1B}[0m and \\u{1} <&>")
    }

    @Test func escapesAsTheToolkitDoes() throws {
        let output = ReportFixtures.render(.github)
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("::warning") })
        #expect(line.hasSuffix("::100%25 of <layers> & \"quoted\" 'names': Bäume, 🌳%0D%0Asecond line%0Athird"))
        #expect(try parse(output)[1].message == ReportFixtures.trickyMessage)

        let report = LintReport(files: [FileReport(path: "/repo/a,b:c%.json", kind: "json", diagnostics: [
            Diagnostic(ruleId: "json/syntax", severity: .error, message: "x", pointer: "", line: 2, column: 3),
        ])])
        let escaped = ReportFixtures.render(.github, report)
        #expect(escaped == "::error file=a%2Cb%3Ac%25.json,line=2,col=3,title=json/syntax::x\n")
        #expect(try parse(escaped)[0].file == "a,b:c%.json")
    }

    @Test func stepSummaryTablesCountsAndDiagnostics() {
        let summary = ReportRenderer.githubStepSummary(ReportFixtures.report, options: ReportFixtures.options)
        #expect(summary.contains("| Files | Errors | Warnings | Infos |"))
        #expect(summary.contains("| 3 | 3 | 1 | 0 |") == false)
        #expect(summary.contains("| 3 | 3 | 1 | 1 |"))
        #expect(summary.contains("#### Samples/Broken/popup-unknown-field.json"))
        #expect(summary.contains("| 41:27 | error | popup/unknown-field | Pop-up of layer 'Trees' (id Trees\\_1234)"))
        // Markdown and HTML in a message stay text, and a row stays one line.
        #expect(summary.contains("&lt;layers&gt; &amp; \"quoted\" 'names': Bäume, 🌳<br>second line<br>third |"))
        #expect(!summary.contains("\u{1B}"))
        let rows = summary.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains(" error ") }
        #expect(rows.count == 3)

        let clean = ReportRenderer.githubStepSummary(LintReport(files: [ReportFixtures.report.files[1]]), options: ReportFixtures.options)
        #expect(clean.contains("No problems found."))
    }

    @Test func stepSummaryIsAppended() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-summary-\(UUID().uuidString).md").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = ReportFixtures.options
        #expect(try ReportRenderer.appendGitHubStepSummary(ReportFixtures.report, options: options) == false)
        options.githubStepSummaryPath = path
        #expect(try ReportRenderer.appendGitHubStepSummary(ReportFixtures.report, options: options))
        #expect(try ReportRenderer.appendGitHubStepSummary(ReportFixtures.report, options: options))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let one = ReportRenderer.githubStepSummary(ReportFixtures.report, options: options)
        #expect(text == one + one)

        options.githubStepSummaryPath = "/nonexistent-folder-\(UUID().uuidString)/summary.md"
        #expect(throws: ReportOutputError.self) { try ReportRenderer.appendGitHubStepSummary(ReportFixtures.report, options: options) }
    }
}
