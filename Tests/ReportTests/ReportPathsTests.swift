import Foundation
@testable import Report
import Rules
import Testing

@Suite struct ReportPathsTests {
    @Test func relativeToTheBase() {
        #expect(ReportPaths.relative("/repo/Samples/a.json", to: "/repo") == "Samples/a.json")
        #expect(ReportPaths.relative("/repo/Samples/../b.json", to: "/repo/") == "b.json")
        #expect(ReportPaths.relative("/repository/a.json", to: "/repo") == nil, "a sibling with a common prefix is outside")
        #expect(ReportPaths.relative("/elsewhere/a.json", to: "/repo") == nil)
        let cwd = FileManager.default.currentDirectoryPath
        #expect(ReportPaths.relative("Samples/a.json", to: cwd) == "Samples/a.json", "relative paths start at the current folder")
        #expect(ReportPaths.relative("./Samples/./a.json", to: ".") == "Samples/a.json")
        #expect(ReportPaths.relative("../outside.json", to: cwd) == nil || cwd == "/")
    }

    @Test func uris() {
        #expect(ReportPaths.folderURI("/repo") == "file:///repo/")
        #expect(ReportPaths.folderURI("/") == "file:///")
        #expect(ReportPaths.fileURI("/my maps/a#1.json") == "file:///my%20maps/a%231.json")
        #expect(ReportPaths.uriReference("Kärten/a b?.json") == "K%C3%A4rten/a%20b%3F.json")
    }

    @Test func relativeReportPathsInSARIFAndGitHub() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let report = LintReport(files: [FileReport(path: "Samples/a.json", kind: "json", diagnostics: ReportFixtures.report.files[2].diagnostics)])
        let options = ReportOptions(baseDirectory: cwd)
        #expect(ReportRenderer.render(report, as: .github, options: options).hasPrefix("::error file=Samples/a.json,line=3,col=1,"))
        #expect(ReportRenderer.render(report, as: .sarif, options: options).contains("\"uri\": \"Samples/a.json\""))
    }
}
