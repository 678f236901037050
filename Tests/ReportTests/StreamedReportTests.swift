import Foundation
@testable import Report
import Rules
import Testing

/// The JSON formats handed over in chunks as they are written (`ReportRenderer.write`, what `lint` sends to
/// standard output) are the bytes of the whole report, whatever the chunk size.
@Suite struct StreamedReportTests {
    static func streamed(_ report: LintReport, as format: ReportFormat, chunkSize: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunks = 0
        try ReportRenderer.write(report, as: format, options: ReportFixtures.options, chunkSize: chunkSize) { chunk in
            bytes.append(contentsOf: chunk)
            chunks += 1
        }
        if format == .json || format == .sarif, chunkSize < bytes.count / 2 { #expect(chunks > 1) }
        return bytes
    }

    @Test(arguments: ReportFormat.allCases)
    func chunksMakeTheWholeReport(format: ReportFormat) throws {
        for report in [ReportFixtures.report, FixReportTests.report, ManyFindingsTests.report] {
            let whole = ReportRenderer.renderUTF8(report, as: format, options: ReportFixtures.options)
            #expect(Array(ReportRenderer.render(report, as: format, options: ReportFixtures.options).utf8) == whole)
            for chunkSize in [1, 7, 4096, 1 << 20] {
                #expect(try Self.streamed(report, as: format, chunkSize: chunkSize) == whole, "\(format), chunks of \(chunkSize)")
            }
        }
    }

    /// Each diagnostic written straight into the output is what its value would print, at every indentation.
    @Test func jsonDiagnosticsWrittenDirectlyAreTheirValuesBytes() throws {
        for diagnostic in FixReportTests.report.files.flatMap(\.diagnostics) + ManyFindingsTests.report.files[0].diagnostics.prefix(3) {
            for indent in [0, 6] {
                var direct = JSONByteWriter(capacity: 0)
                JSONReportFormatter.write(diagnostic, indent: indent, to: &direct)
                var viaValue = JSONByteWriter(capacity: 0)
                JSONOutput.write(JSONReportFormatter.value(of: diagnostic), indent: indent, to: &viaValue)
                #expect(direct.bytes == viaValue.bytes)
            }
        }
    }

    /// A consumer that fails (standard output closed) stops the hand-over; its error is what `write` throws.
    @Test func theConsumersErrorIsThrownAndNothingMoreIsHandedOver() throws {
        struct Closed: Error {}
        var calls = 0
        #expect(throws: Closed.self) {
            try ReportRenderer.write(ManyFindingsTests.report, as: .sarif, options: ReportFixtures.options, chunkSize: 1024) { _ in
                calls += 1
                throw Closed()
            }
        }
        #expect(calls == 1)
    }

    /// Findings whose fingerprint keys alternate (pointer A, B, A, A, B) are counted per key, not per run.
    @Test func sarifOccurrencesCountEachKeyAcrossRuns() throws {
        let pointers = ["/a", "/b", "/a", "/a", "/b"]
        let diagnostics = pointers.enumerated().map { i, pointer in
            Diagnostic(ruleId: "popup/unknown-field", severity: .warning, message: "m\(i)", pointer: pointer, line: i + 1, column: 1)
        }
        let report = LintReport(files: [FileReport(path: "/repo/m.json", kind: "webmap", diagnostics: diagnostics)])
        let text = ReportRenderer.render(report, as: .sarif, options: ReportFixtures.options)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let results = try #require(((object["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        let prints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["mapRulesFingerprint/v1"] }
        #expect(prints.map { $0.split(separator: ":").last.map(String.init) } == ["1", "1", "2", "3", "2"])
        let digests = prints.map { $0.split(separator: ":").first.map(String.init) ?? "" }
        #expect(digests[0] == digests[2] && digests[2] == digests[3] && digests[1] == digests[4] && digests[0] != digests[1])
    }
}
