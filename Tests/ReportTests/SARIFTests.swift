import Foundation
@testable import Report
import Rules
import Testing

@Suite struct SARIFTests {
    func run(_ output: String) throws -> [String: Any] {
        let log = try #require(try ReportFixtures.jsonObject(output) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        return runs[0]
    }

    func results(_ output: String) throws -> [[String: Any]] {
        try #require(try run(output)["results"] as? [[String: Any]])
    }

    func fingerprints(_ report: LintReport) throws -> [String] {
        try results(ReportFixtures.render(.sarif, report)).map {
            let prints = try #require($0["partialFingerprints"] as? [String: String])
            return try #require(prints["mapRulesFingerprint/v1"])
        }
    }

    @Test func hasWhatGitHubCodeScanningRequires() throws {
        let output = ReportFixtures.render(.sarif)
        let log = try #require(try ReportFixtures.jsonObject(output) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        let run = try run(output)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "maprules")
        #expect(driver["version"] as? String == MapRulesVersion.current)
        #expect(driver["informationUri"] as? String != nil)

        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.count == rules.count)
        #expect(Set(ids).count == ids.count, "rule ids are unique")
        #expect(Array(ids.prefix(RuleCatalog.allIds.count)) == RuleCatalog.allIds, "the whole catalogue, in order")
        for rule in rules {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] is String)
            let help = try #require(rule["help"] as? [String: String])
            #expect(help["text"] != nil && help["markdown"] != nil)
            let level = (rule["defaultConfiguration"] as? [String: String])?["level"]
            #expect(["error", "warning", "note"].contains(level ?? ""))
            #expect(rule["name"] as? String != nil)
        }
        let unknownField = try #require(rules.first { $0["id"] as? String == "popup/unknown-field" })
        #expect(unknownField["name"] as? String == "PopupUnknownField")
        #expect((unknownField["defaultConfiguration"] as? [String: String])?["level"] == "error")

        let base = try #require(run["originalUriBaseIds"] as? [String: [String: String]])
        #expect(base["%SRCROOT%"]?["uri"] == "file:///repo/")

        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 5)
        for result in results {
            let ruleId = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ids[index] == ruleId)
            #expect((result["message"] as? [String: Any])?["text"] is String)
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            let artifact = try #require(location["artifactLocation"] as? [String: String])
            let uri = try #require(artifact["uri"])
            #expect(!uri.hasPrefix("/") && !uri.contains("\\"))
            #expect(artifact["uriBaseId"] == "%SRCROOT%")
            let region = try #require(location["region"] as? [String: Int])
            #expect((region["startLine"] ?? 0) >= 1 && (region["startColumn"] ?? 0) >= 1)
        }
        let first = results[2]
        #expect(first["level"] as? String == "error")
        #expect((first["message"] as? [String: String])?["text"]?.hasPrefix("Pop-up of layer 'Trees'") == true)
        let region = ((first["locations"] as? [[String: Any]])?[0]["physicalLocation"] as? [String: Any])?["region"] as? [String: Int]
        #expect(region == ["startLine": 41, "startColumn": 27])
        #expect(results.map { $0["level"] as? String } == ["note", "warning", "error", "error", "error"])
        #expect((results[1]["message"] as? [String: String])?["text"] == ReportFixtures.trickyMessage)
    }

    @Test func urisAreRelativeAndPercentEncoded() throws {
        let uris = try results(ReportFixtures.render(.sarif)).map {
            (($0["locations"] as? [[String: Any]])?[0]["physicalLocation"] as? [String: Any]).flatMap {
                ($0["artifactLocation"] as? [String: String])?["uri"]
            }
        }
        #expect(uris.last == "Samples/Broken/not%20json.json")
        #expect(uris.first == "Samples/Broken/popup-unknown-field.json")

        let outside = LintReport(files: [FileReport(path: "/elsewhere/map.json", kind: "webmap", diagnostics: ReportFixtures.report.files[2].diagnostics)])
        let location = try #require(try results(ReportFixtures.render(.sarif, outside))[0]["locations"] as? [[String: Any]])
        let artifact = (location[0]["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: String]
        #expect(artifact == ["uri": "file:///elsewhere/map.json"])
    }

    @Test func fingerprintsIgnoreLinesButFollowPointerRuleFileAndLayer() throws {
        let original = try fingerprints(ReportFixtures.report)
        #expect(Set(original).count == original.count)
        for print in original { #expect(print.range(of: "^[0-9a-f]{64}:[0-9]+$", options: .regularExpression) != nil) }

        let moved = try fingerprints(ReportFixtures.changing(diagnostic: 2) { $0.line += 30; $0.column = 1; $0.message += " (reworded)" })
        #expect(moved == original)

        let repointed = try fingerprints(ReportFixtures.changing(diagnostic: 2) { $0.pointer = "/operationalLayers/1/popupInfo/fieldInfos/3/fieldName" })
        #expect(repointed[2] != original[2])
        #expect(repointed.enumerated().filter { $0.offset != 2 }.map(\.element) == original.enumerated().filter { $0.offset != 2 }.map(\.element))

        let otherLayer = try fingerprints(ReportFixtures.changing(diagnostic: 2) { $0.layer = LayerReference(id: "Trees_9", title: "Trees") })
        #expect(otherLayer[2] != original[2])
        let otherRule = try fingerprints(ReportFixtures.changing(diagnostic: 2) { $0.ruleId = "popup/title-unknown-field" })
        #expect(otherRule[2] != original[2])
    }

    @Test func repeatedKeysGetDistinctOccurrenceNumbers() throws {
        let diagnostic = ReportFixtures.report.files[2].diagnostics[0]
        var second = diagnostic
        second.line = 9
        let report = LintReport(files: [FileReport(path: ReportFixtures.brokenPath, kind: "json", diagnostics: [diagnostic, second])])
        let prints = try fingerprints(report)
        #expect(prints[0].hasSuffix(":1") && prints[1].hasSuffix(":2"))
        #expect(prints[0].dropLast(2) == prints[1].dropLast(2))
    }

    @Test func ruleUnknownToTheCatalogueIsDescribed() throws {
        let report = LintReport(files: [FileReport(path: "/repo/a.json", kind: "json", diagnostics: [
            Diagnostic(ruleId: "schema/invalid", severity: .error, message: "m", pointer: "", line: 1, column: 1),
        ])])
        let options = ReportOptions(rules: [], baseDirectory: "/repo")
        let log = try #require(try ReportFixtures.jsonObject(ReportRenderer.render(report, as: .sarif, options: options)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = (((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]]) ?? []
        #expect(rules.map { $0["id"] as? String } == ["schema/invalid"])
        #expect((run["results"] as? [[String: Any]])?.first?["ruleIndex"] as? Int == 0)
    }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func ruleNamesAreCamelCase() {
        #expect(SARIFFormatter.ruleName("add-feature/none-eligible") == "AddFeatureNoneEligible")
        #expect(SARIFFormatter.ruleName("json/syntax") == "JsonSyntax")
    }
}
