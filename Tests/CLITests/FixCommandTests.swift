import Foundation
import Testing

/// `maprules lint --fix` and `--fix-dry-run`, and the fixes in the JSON and SARIF reports.
@Suite(.serialized) struct FixCommandTests {
    /// A copy of Samples/Broken in a fresh folder.
    static func brokenCopy() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let source = CLI.packageRoot.appendingPathComponent("Samples/Broken")
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        return dir
    }

    static func diagnostics(_ result: CLIResult) throws -> [(file: String, diagnostic: [String: Any])] {
        let report = try #require(try CLI.json(result.stdout) as? [String: Any], "\(result.stdout.prefix(300)) \(result.stderr)")
        return ((report["files"] as? [[String: Any]]) ?? []).flatMap { file in
            ((file["diagnostics"] as? [[String: Any]]) ?? []).map { (file["path"] as? String ?? "", $0) }
        }
    }

    static func contents(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            out[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return out
    }

    @Test func fixRemovesTheFixedFindingsTouchesOnlyTheirValuesAndIsIdempotent() throws {
        let dir = try Self.brokenCopy()
        let before = try Self.contents(dir)
        let linted = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        let fixable = try Self.diagnostics(linted).filter { $0.diagnostic["fix"] != nil }
        let fixedRules = Set(fixable.map { $0.diagnostic["ruleId"] as? String ?? "" })
        #expect(fixedRules.isSuperset(of: ["popup/missing-label", "popup/editable-but-service-readonly", "popup/editable-readonly-type",
                                         "popup/editable-unsupported-type", "popup/duplicate-field", "map/token-in-url",
                                         "form/nested-group", "form/duplicate-field", "form/expression-return-type"]), "\(fixedRules)")

        // The dry run prints the diff and changes nothing.
        let dryRun = try CLI.run(["lint", ".", "--fix-dry-run"], in: dir)
        #expect(dryRun.stdout.contains("--- a/popup--editable-but-service-readonly.json\n+++ b/popup--editable-but-service-readonly.json\n"), "\(dryRun.stdout.prefix(400))")
        #expect(dryRun.stdout.contains(#"-          {"fieldName": "Ward", "label": "Ward", "visible": true, "isEditable": true}"#))
        #expect(dryRun.stdout.contains(#"+          {"fieldName": "Ward", "label": "Ward", "visible": true, "isEditable": false}"#))
        #expect(dryRun.stderr.contains("would fix \(fixable.count) problems"), "\(dryRun.stderr)")
        #expect(try Self.contents(dir) == before)

        let fixed = try CLI.run(["lint", ".", "--fix", "--format", "json"], in: dir)
        #expect(fixed.exitCode == 1, "other findings remain: \(fixed.stderr)")
        #expect(fixed.stderr.contains("fixed \(fixable.count) problems"), "\(fixed.stderr)")
        let remaining = try Self.diagnostics(fixed)
        #expect(!remaining.contains { $0.diagnostic["fix"] != nil }, "a fixable finding remains")
        for (file, diagnostic) in fixable {
            #expect(!remaining.contains { $0.file == file && $0.diagnostic["ruleId"] as? String == diagnostic["ruleId"] as? String
                && $0.diagnostic["pointer"] as? String == diagnostic["pointer"] as? String }, "\(file): \(diagnostic)")
        }
        // The report after --fix is the report of a plain lint of the fixed files.
        let relinted = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        #expect(relinted.stdout == fixed.stdout)

        // Only the files with fixes changed, and in each only the lines of the fixed values (a removed last
        // element takes the comma at the end of the line before it).
        let after = try Self.contents(dir)
        for (name, data) in before where data != after[name] {
            let fixedLines = Set(fixable.filter { $0.file.hasSuffix(name) }.compactMap { $0.diagnostic["line"] as? Int })
            #expect(!fixedLines.isEmpty, "\(name) changed without a fix")
            let old = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
            let new = String(decoding: after[name]!, as: UTF8.self).components(separatedBy: "\n")
            var prefix = 0
            while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
            let changedOld = (prefix + 1)...max(prefix + 1, old.count - suffix)
            #expect(changedOld.allSatisfy { line in fixedLines.contains { abs($0 - line) <= 1 } }, "\(name): lines \(changedOld) vs fixes at \(fixedLines)")
        }

        // Applying again changes nothing: the second run finds nothing to fix.
        let again = try CLI.run(["lint", ".", "--fix", "--format", "json"], in: dir)
        #expect(again.stderr.contains("fixed 0 problems in 0 files"), "\(again.stderr)")
        #expect(try Self.contents(dir) == after)
        #expect(again.stdout == fixed.stdout)
    }

    @Test func eachPatchDescribesExactlyWhatTheFixDoes() throws {
        // Applying a diagnostic's JSON Patch to the parsed file gives the parsed fixed file.
        let dir = try Self.brokenCopy()
        for name in ["popup--missing-label.json", "popup--editable-readonly-type.json", "popup--duplicate-field.json", "map--token-in-url.json"] {
            let result = try CLI.run(["lint", name, "--format", "json"], in: dir)
            let fixes = try Self.diagnostics(result).compactMap { $0.diagnostic["fix"] as? [String: Any] }
            #expect(fixes.count == 1, "\(name): \(fixes)")
            let patch = try #require(fixes.first?["patch"] as? [[String: Any]])
            var document = try CLI.json(String(decoding: try Data(contentsOf: dir.appendingPathComponent(name)), as: UTF8.self))
            for operation in patch { document = try Self.apply(operation, to: document) }
            _ = try CLI.run(["lint", name, "--fix"], in: dir)
            let fixedDocument = try CLI.json(String(decoding: try Data(contentsOf: dir.appendingPathComponent(name)), as: UTF8.self))
            #expect((document as? NSDictionary) == (fixedDocument as? NSDictionary), "\(name)")
        }
        let token = try CLI.run(["lint", "map--token-in-url.json", "--format", "json"], in: dir)
        #expect(!(try Self.diagnostics(token)).contains { $0.diagnostic["ruleId"] as? String == "map/token-in-url" })
    }

    /// A minimal RFC 6902 `add` / `remove` / `replace` on JSONSerialization values.
    static func apply(_ operation: [String: Any], to document: Any) throws -> Any {
        let path = try #require(operation["path"] as? String)
        let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        func change(_ node: Any, _ rest: ArraySlice<String>) throws -> Any {
            let token = rest.first!
            if rest.count == 1 {
                if var object = node as? [String: Any] {
                    if operation["op"] as? String == "remove" { object[token] = nil } else { object[token] = operation["value"] }
                    return object
                }
                var array = try #require(node as? [Any])
                let index = try #require(Int(token))
                switch operation["op"] as? String {
                case "remove": array.remove(at: index)
                case "add": array.insert(operation["value"]!, at: index)
                default: array[index] = operation["value"]!
                }
                return array
            }
            if var object = node as? [String: Any] {
                object[token] = try change(try #require(object[token]), rest.dropFirst())
                return object
            }
            var array = try #require(node as? [Any])
            let index = try #require(Int(token))
            array[index] = try change(array[index], rest.dropFirst())
            return array
        }
        return try change(document, tokens[...])
    }

    @Test func jsonReportCarriesThePatchAndValidates() throws {
        let result = try CLI.run(["lint", "Samples/Broken/popup--editable-but-service-readonly.json", "--format", "json"])
        let diagnostic = try #require(try Self.diagnostics(result).first { $0.diagnostic["ruleId"] as? String == "popup/editable-but-service-readonly" })
        let fix = try #require(diagnostic.diagnostic["fix"] as? [String: Any])
        #expect((fix["description"] as? String)?.isEmpty == false)
        let patch = try #require(fix["patch"] as? [[String: Any]])
        #expect(patch.count == 1)
        #expect(patch[0]["op"] as? String == "replace")
        #expect(patch[0]["path"] as? String == "/operationalLayers/0/popupInfo/fieldInfos/0/isEditable")
        #expect(patch[0]["value"] as? Bool == false)
        let dir = try CLI.temporaryDirectory()
        let all = try CLI.run(["lint", "Samples/Broken", "--format", "json"])
        try Data(all.stdout.utf8).write(to: dir.appendingPathComponent("report.json"))
        let validate = try CLI.run(["validate", "--schema", "report", dir.appendingPathComponent("report.json").path])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
    }

    @Test func sarifReplacementsMakeTheSameChangeAsFix() throws {
        let dir = try Self.brokenCopy()
        for name in ["popup--missing-label.json", "popup--editable-unsupported-type.json", "popup--duplicate-field.json", "map--token-in-url.json",
                     "form--nested-group.json", "form--duplicate-field.json", "form--expression-return-type.json"] {
            let sarif = try CLI.run(["lint", name, "--format", "sarif"], in: dir)
            let run = try #require(((try CLI.json(sarif.stdout) as? [String: Any])?["runs"] as? [[String: Any]])?.first)
            let results = (run["results"] as? [[String: Any]]) ?? []
            let fixes = results.compactMap { ($0["fixes"] as? [[String: Any]])?.first }
            #expect(fixes.count == 1, "\(name)")
            let change = try #require((fixes.first?["artifactChanges"] as? [[String: Any]])?.first)
            #expect(((change["artifactLocation"] as? [String: Any])?["uri"] as? String) == name)
            var bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            let text = String(decoding: bytes, as: UTF8.self)
            let replacements = try #require(change["replacements"] as? [[String: Any]])
            for replacement in replacements.reversed() {
                let region = try #require(replacement["deletedRegion"] as? [String: Int])
                let offset = try #require(region["byteOffset"]), length = try #require(region["byteLength"])
                // The line and column agree with the byte offset.
                let lines = String(decoding: bytes[..<offset], as: UTF8.self).components(separatedBy: "\n")
                #expect(region["startLine"] == lines.count && region["startColumn"] == lines.last!.unicodeScalars.count + 1, "\(name)")
                let inserted = try #require((replacement["insertedContent"] as? [String: Any])?["text"] as? String)
                bytes.replaceSubrange(offset..<(offset + length), with: Array(inserted.utf8))
            }
            _ = try CLI.run(["lint", name, "--fix"], in: dir)
            let fixed = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            #expect(bytes == fixed, "\(name): SARIF gives\n\(String(decoding: bytes, as: UTF8.self))\n--fix gives\n\(String(decoding: fixed, as: UTF8.self))\nfrom\n\(text)")
        }
    }

    @Test func addedLabelFollowsTheFileFormattingAndTheRestStaysByteForByte() throws {
        let dir = try CLI.temporaryDirectory()
        let source = CLI.packageRoot.appendingPathComponent("Samples/Broken")
        try FileManager.default.copyItem(at: source.appendingPathComponent("popup--missing-label.services.json"),
                                         to: dir.appendingPathComponent("map.services.json"))
        let map = """
            {\r
            \t"operationalLayers": [{\r
            \t\t"id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer",\r
            \t\t"url": "https://example.com/arcgis/rest/services/Trees/FeatureServer/0",\r
            \t\t"popupInfo": {"title": "{Address}", "fieldInfos": [\r
            \t\t\t{\r
            \t\t\t\t"fieldName" :  "Address",\r
            \t\t\t\t"visible": true\r
            \t\t\t},\r
            \t\t\t{"fieldName":"Condition","visible":true, "label": " "}\r
            \t\t]}\r
            \t}],\r
            \t"baseMap": {"title": "Topographic", "baseMapLayers": []}\r
            }
            """
        try Data(map.utf8).write(to: dir.appendingPathComponent("map.json"))
        let result = try CLI.run(["lint", "map.json", "--fix"], in: dir)
        #expect(result.stderr.contains("fixed 2 problems in 1 file"), "\(result.stderr)")
        let fixed = String(decoding: try Data(contentsOf: dir.appendingPathComponent("map.json")), as: UTF8.self)
        let expected = map
            .replacingOccurrences(of: "\"fieldName\" :  \"Address\",\r\n", with: "\"fieldName\" :  \"Address\",\r\n\t\t\t\t\"label\" :  \"Address\",\r\n")
            .replacingOccurrences(of: "\"label\": \" \"", with: "\"label\": \"Condition\"")
        #expect(fixed == expected, "\(fixed)")
    }

    @Test func fixRefusesStandardInputAndDryRunWithFix() throws {
        let stdin = try CLI.run(["lint", "-", "--fix"], input: Data("{}".utf8))
        #expect(stdin.exitCode == 2)
        #expect(stdin.stderr.contains("standard input"), "\(stdin.stderr)")
        let both = try CLI.run(["lint", "Samples/Broken", "--fix", "--fix-dry-run"])
        #expect(both.exitCode == 2)
        let help = try CLI.run(["lint", "--help"]).stdout
        for option in ["--fix", "--fix-dry-run", "--baseline", "--write-baseline"] { #expect(help.contains(option), "\(option)") }
    }
}
