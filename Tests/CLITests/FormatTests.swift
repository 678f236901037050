import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Each output format of `maprules lint`, parsed back and checked against what its consumers require.
@Suite(.serialized) struct FormatTests {
    @Test func sarifHasWhatGitHubCodeScanningRequires() throws {
        let result = try CLI.run(["lint", "Samples/Broken", "--format", "sarif"])
        #expect(result.exitCode == 1)
        let sarif = try #require(CLI.json(result.stdout) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "maprules")
        #expect(driver["version"] as? String != nil)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIds = rules.compactMap { $0["id"] as? String }
        #expect(Set(ruleIds).count == ruleIds.count)
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] is String)
            let help = rule["help"] as? [String: Any]
            #expect(help?["text"] is String && help?["markdown"] is String)
            #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] is String)
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count > 40)
        for r in results {
            let ruleId = try #require(r["ruleId"] as? String)
            if let index = r["ruleIndex"] as? Int { #expect(ruleIds[index] == ruleId) }
            #expect(["error", "warning", "note"].contains(r["level"] as? String ?? ""))
            #expect((r["message"] as? [String: Any])?["text"] is String)
            let physical = try #require(((r["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(uri.hasPrefix("Samples/Broken/"))
            let region = try #require(physical["region"] as? [String: Any])
            #expect((region["startLine"] as? Int ?? 0) >= 1 && (region["startColumn"] as? Int ?? 0) >= 1)
            #expect(!((r["partialFingerprints"] as? [String: String]) ?? [:]).isEmpty)
        }
    }

    @Test func sarifFingerprintsSurviveReformatting() throws {
        let dir = try CLI.temporaryDirectory()
        let source = CLI.packageRoot.appendingPathComponent("Samples/Broken")
        for name in ["popup--unknown-field.json", "popup--unknown-field.services.json"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        func fingerprints() throws -> [String] {
            let result = try CLI.run(["lint", "popup--unknown-field.json", "--format", "sarif"], in: dir)
            let run = try #require(((CLI.json(result.stdout) as? [String: Any])?["runs"] as? [[String: Any]])?.first)
            return ((run["results"] as? [[String: Any]]) ?? []).map { "\($0["partialFingerprints"] ?? "")" }
        }
        let before = try fingerprints()
        // Reformat: minify the map onto one line; every line number changes.
        let mapURL = dir.appendingPathComponent("popup--unknown-field.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: mapURL))
        try JSONSerialization.data(withJSONObject: object).write(to: mapURL)
        #expect(try fingerprints() == before)
        #expect(!before.isEmpty)
    }

    @Test func junitParsesAndCountsFailures() throws {
        let result = try CLI.run(["lint", "Samples", "--format", "junit"])
        #expect(result.exitCode == 1)
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count >= 40)
        let failures = try root.nodes(forXPath: "//testcase/failure").count
        #expect(failures >= 17)
        #expect(Int(root.attribute(forName: "failures")?.stringValue ?? "") ?? -1 >= 1)
    }

    @Test func githubAnnotationsAreEscapedAndSummarised() throws {
        let summary = try CLI.temporaryDirectory().appendingPathComponent("summary.md")
        _ = FileManager.default.createFile(atPath: summary.path, contents: nil)
        let result = try CLI.run(["lint", "Samples/Broken", "--format", "github"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count > 40)
        let pattern = try NSRegularExpression(pattern: #"^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,title=[a-z-]+/[a-z-]+::.+$"#)
        for line in lines {
            let text = String(line)
            #expect(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil, "\(text)")
        }
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(markdown.contains("|"))
    }

    @Test func jsonReportHasTheDocumentedShape() throws {
        let result = try CLI.run(["lint", "Samples/Broken/popup--unknown-field.json", "--format", "json"])
        let report = try #require(CLI.json(result.stdout) as? [String: Any])
        #expect((report["tool"] as? [String: Any])?["name"] as? String == "maprules")
        let file = try #require((report["files"] as? [[String: Any]])?.first)
        #expect(file["path"] as? String == "Samples/Broken/popup--unknown-field.json")
        #expect(file["kind"] as? String == "webmap")
        let diagnostic = try #require((file["diagnostics"] as? [[String: Any]])?.first { $0["ruleId"] as? String == "popup/unknown-field" })
        #expect(diagnostic["metadataSource"] as? String == "snapshot")
        #expect((diagnostic["layer"] as? [String: Any])?["id"] as? String == "Trees_1234")
        #expect((diagnostic["pointer"] as? String)?.hasSuffix("/fieldName") == true)
        // The pointer's value starts at the reported line and column.
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/Broken/popup--unknown-field.json"), encoding: .utf8)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false)[(diagnostic["line"] as! Int) - 1]
        let column = diagnostic["column"] as! Int
        #expect(String(Array(line.unicodeScalars)[(column - 1)...].map(Character.init)).hasPrefix("\"Conditon\""), "\(line)")
    }
}
