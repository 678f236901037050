import Report
import Rules
import Testing

@Suite struct LintReportTests {
    @Test func summaryCountsFilesAndSeverities() {
        let summary = ReportFixtures.report.summary
        #expect(summary == LintReport.Summary(files: 3, errors: 3, warnings: 1, infos: 1))
        #expect(summary.problems == 5)
        #expect(ReportFixtures.report.tool == LintReport.ToolInfo(name: "maprules", version: MapRulesVersion.current))
    }

    @Test func filteringKeepsFilesAndRecounts() {
        let quiet = ReportFixtures.report.filtered(minimumSeverity: .error)
        #expect(quiet.files.count == 3)
        #expect(quiet.summary == LintReport.Summary(files: 3, errors: 3, warnings: 0, infos: 0))
        #expect(quiet.files.allSatisfy { $0.diagnostics.allSatisfy { $0.severity == .error } })
    }

    @Test(arguments: ReportFormat.allCases)
    func renderingIsDeterministic(format: ReportFormat) {
        for color in [false, true] {
            let first = ReportFixtures.render(format, color: color)
            let second = ReportFixtures.render(format, color: color)
            #expect(first == second)
            #expect(first.hasSuffix("\n") && !first.hasSuffix("\n\n") || format == .github)
        }
    }

    @Test(arguments: ReportFormat.allCases)
    func emptyReportsRender(format: ReportFormat) throws {
        let output = ReportFixtures.render(format, LintReport(files: []))
        switch format {
        case .json, .sarif: _ = try ReportFixtures.jsonObject(output)
        case .stylish: #expect(output == "No problems found\n")
        case .github: #expect(output.isEmpty)
        case .junit: #expect(output.contains("tests=\"0\" failures=\"0\""))
        case .html: #expect(output.hasPrefix("<!DOCTYPE html>") && output.contains("no problems found"))
        }
    }
}
