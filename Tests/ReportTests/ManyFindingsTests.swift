import Foundation
import Report
import Rules
import Testing

/// Every format with many findings in one file (what a huge Arcade expression produces), and the escapes
/// at the edges of the text runs the formats copy whole.
@Suite struct ManyFindingsTests {
    static let count = 5_000

    /// One file with `count` findings at the same pointer, as one expression's unknown calls are.
    static let report: LintReport = {
        let layer = LayerReference(id: "Trees_1", title: "Trees")
        let diagnostics = (0..<count).map { i in
            Diagnostic(ruleId: "arcade/unknown-function", severity: .error,
                       message: "Arcade expression 'summary' in the pop-up of layer 'Trees' (id Trees_1) calls 'Q\(i)', which is no Arcade function.",
                       pointer: "/operationalLayers/0/popupInfo/expressionInfos/0/expression", line: 1, column: 100 + 4 * i,
                       layer: layer, metadataSource: .snapshot)
        }
        return LintReport(files: [FileReport(path: "/repo/big.json", kind: "webmap", diagnostics: diagnostics)])
    }()

    @Test func jsonListsEveryFindingInOrder() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ReportFixtures.render(.json, Self.report).utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        let diagnostics = try #require(files.first?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == Self.count)
        #expect(diagnostics.compactMap { $0["column"] as? Int } == (0..<Self.count).map { 100 + 4 * $0 })
        #expect(diagnostics.last?["message"] as? String == Self.report.files[0].diagnostics.last?.message)
        #expect((object["summary"] as? [String: Any])?["errors"] as? Int == Self.count)
    }

    @Test func sarifCountsTheOccurrencesOfOneFingerprint() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ReportFixtures.render(.sarif, Self.report).utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == Self.count)
        let fingerprints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["mapRulesFingerprint/v1"] }
        #expect(fingerprints.count == Self.count)
        // Same file, rule, pointer and layer: one digest, occurrences 1...count.
        #expect(Set(fingerprints.map { $0.split(separator: ":")[0] }).count == 1)
        #expect(fingerprints.compactMap { Int($0.split(separator: ":")[1]) } == Array(1...Self.count))
    }

    @Test func textFormatsWriteOneLinePerFinding() {
        let github = ReportFixtures.render(.github, Self.report)
        #expect(github.split(separator: "\n").count == Self.count)
        #expect(github.hasSuffix("title=arcade/unknown-function::Arcade expression 'summary' in the pop-up of layer 'Trees' (id Trees_1) calls 'Q\(Self.count - 1)', which is no Arcade function.\n"))
        let stylish = ReportFixtures.render(.stylish, Self.report)
        #expect(stylish.split(separator: "\n").filter { $0.hasSuffix("arcade/unknown-function") }.count == Self.count)
        let junit = ReportFixtures.render(.junit, Self.report)
        #expect(junit.components(separatedBy: "which is no Arcade function.").count - 1 == Self.count + 1)  // + the failure's message
        #expect(junit.contains("1:120 Arcade expression &apos;summary&apos; in the pop-up of layer &apos;Trees&apos; (id Trees_1) calls &apos;Q5&apos;"))
    }

    /// Escapes at the start, the end and the middle of a message, next to plain text and to each other:
    /// where the formats switch between copying a run and writing an escape.
    @Test func escapesAtTheEdgesOfPlainRuns() throws {
        let message = "\u{85}a\u{2028}\u{2029}b\u{FFFE}\"<&>'%:,\u{7F}é🌳\u{1B}\r\n\tz\u{85}"
        let report = LintReport(files: [FileReport(path: "/repo/x.json", kind: "webmap", diagnostics: [
            Diagnostic(ruleId: "popup/unknown-field", severity: .error, message: message, pointer: "/a", line: 1, column: 2),
        ])])

        let json = ReportFixtures.render(.json, report)
        // U+0085 and U+FFFE are legal JSON and stay as they are; DEL, C0 and the line separators are escaped.
        #expect(json.contains(#""message": "\#u{85}a\u2028\u2029b\#u{FFFE}\"<&>'%:,\u007fé🌳\u001b\r\n\tz\#u{85}""#))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let files = try #require(decoded["files"] as? [[String: Any]])
        #expect((files[0]["diagnostics"] as? [[String: Any]])?[0]["message"] as? String == message)

        let github = ReportFixtures.render(.github, report)
        #expect(github == "::error file=x.json,line=1,col=2,title=popup/unknown-field::"
                + "\\u{85}a\u{2028}\u{2029}b\u{FFFE}\"<&>'%25:,\\u{7F}é🌳\\u{1B}%0D%0A\tz\\u{85}\n")

        let junit = ReportFixtures.render(.junit, report)
        #expect(junit.contains("<failure message=\"\u{85}a\u{2028}\u{2029}b\\u{FFFE}&quot;&lt;&amp;&gt;&apos;%:,\u{7F}é🌳\\u{1B}&#13;&#10;&#9;z\u{85}\""))
        #expect(junit.contains(">1:2 \u{85}a\u{2028}\u{2029}b\\u{FFFE}&quot;&lt;&amp;&gt;&apos;%:,\u{7F}é🌳\\u{1B}&#13;\n\tz\u{85}</failure>"))

        let stylish = ReportFixtures.render(.stylish, report)
        #expect(stylish.contains("\\u{85}a\u{2028}\u{2029}b\u{FFFE}\"<&>'%:,\\u{7F}é🌳\\u{1B}\\r\\n\\tz\\u{85}"))
    }
}
