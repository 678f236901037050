import Foundation
import JSONSchema
import Testing
import WebMap

@Suite(.serialized) struct ValidateCommandTests {
    func report(_ result: CLIResult) throws -> [String: Any] {
        try #require(CLI.json(result.stdout) as? [String: Any], "not JSON: \(result.stdout.prefix(500)) \(result.stderr)")
    }

    func diagnostics(_ report: [String: Any]) -> [[String: Any]] {
        ((report["files"] as? [[String: Any]]) ?? []).flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
    }

    @Test func validFilesExitZero() throws {
        let result = try CLI.run(["validate", "--schema", "webmap", "Samples/TreesOfPortland/TreesOfPortland.json",
                                  "Samples/DamageAssessment/DamageAssessment.json", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let files = try #require(try report(result)["files"] as? [[String: Any]])
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0["kind"] as? String == "webmap" && ($0["diagnostics"] as? [Any])?.isEmpty == true })
        let snapshots = try CLI.run(["validate", "--schema", "services-snapshot", "Samples/TreesOfPortland/TreesOfPortland.services.json"])
        #expect(snapshots.exitCode == 0, "\(snapshots.stdout)\(snapshots.stderr)")
    }

    @Test func violationsExitOneWithPositionsAndSuggestions() throws {
        let result = try CLI.run(["validate", "--schema", "webmap", "Samples/Broken/schema--invalid.json", "--format", "json"])
        #expect(result.exitCode == 1)
        let found = diagnostics(try report(result))
        #expect(found.allSatisfy { $0["ruleId"] as? String == "schema/invalid" && $0["severity"] as? String == "error" })
        let layerType = try #require(found.first { $0["pointer"] as? String == "/operationalLayers/0/layerType" })
        #expect(layerType["line"] as? Int == 6 && layerType["column"] as? Int == 20)
        #expect((layerType["message"] as? String)?.contains("Did you mean 'ArcGISFeatureLayer'?") == true)
        let stylish = try CLI.run(["validate", "--schema", "webmap", "Samples/Broken/schema--invalid.json"])
        #expect(stylish.stdout.contains("6:20"))
        #expect(stylish.stdout.contains("schema/invalid"))
    }

    @Test func everyFormatRenders() throws {
        for format in ["stylish", "json", "sarif", "junit", "github"] {
            let result = try CLI.run(["validate", "--schema", "webmap", "Samples/Broken/schema--invalid.json", "--format", format])
            #expect(result.exitCode == 1, "\(format): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(format)")
        }
        let dir = try CLI.temporaryDirectory()
        let output = dir.appendingPathComponent("report.sarif")
        let written = try CLI.run(["validate", "--schema", "webmap", "Samples/Broken/schema--invalid.json", "--format", "sarif", "--output", output.path])
        #expect(written.exitCode == 1)
        #expect(written.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: output.path))
    }

    @Test func standardInputAndDirectories() throws {
        let data = try Data(contentsOf: CLI.packageRoot.appendingPathComponent("Samples/Broken/schema--invalid.json"))
        let stdin = try CLI.run(["validate", "--schema", "webmap", "-", "--stdin-filename", "map.json", "--format", "json"], input: data)
        #expect(stdin.exitCode == 1)
        let files = try #require(try report(stdin)["files"] as? [[String: Any]])
        #expect(files.first?["path"] as? String == "map.json")
        // Directories: snapshots are validated only against the snapshot schema, maps only against the others.
        let folder = try CLI.run(["validate", "--schema", "services-snapshot", "Samples/TreesOfPortland", "--format", "json"])
        let paths = ((try report(folder)["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        #expect(paths.contains("Samples/TreesOfPortland/TreesOfPortland.services.json"), "\(paths)")
        // Every other JSON file of a folder is validated against the schema named: the sample maps pass, and
        // since issue 31 (the web map schema requires operationalLayers, baseMap, spatialReference and version)
        // the feature files beside them, which are not web maps, no longer do.
        let maps = try CLI.run(["validate", "--schema", "webmap", "Samples/TreesOfPortland", "Samples/DamageAssessment", "--format", "json"])
        #expect(maps.exitCode == 1, "\(maps.stdout)")
        let mapFiles = (try report(maps)["files"] as? [[String: Any]]) ?? []
        let mapPaths = mapFiles.compactMap { $0["path"] as? String }
        #expect(!mapPaths.contains { $0.hasSuffix(".services.json") }, "\(mapPaths)")
        let failing = mapFiles.filter { !(($0["diagnostics"] as? [Any]) ?? []).isEmpty }.compactMap { $0["path"] as? String }
        #expect(!failing.isEmpty && failing.allSatisfy { $0.contains("/features/") || $0.hasSuffix("/service.json") }, "\(failing)")
        for map in ["Samples/TreesOfPortland/TreesOfPortland.json", "Samples/DamageAssessment/DamageAssessment.json"] {
            #expect(mapPaths.contains(map))
            #expect(!failing.contains(map))
        }
    }

    @Test func filesThatAreNotJSONGetTheirJSONDiagnostic() throws {
        let dir = try CLI.temporaryDirectory()
        try Data(#"{"a": 1,}"#.utf8).write(to: dir.appendingPathComponent("bad.json"))
        let result = try CLI.run(["validate", "--schema", "config", "bad.json", "--format", "json"], in: dir)
        #expect(result.exitCode == 1)
        let found = diagnostics(try report(result))
        #expect(found.map { $0["ruleId"] as? String } == ["json/syntax"])
        #expect(found.first?["column"] as? Int == 9)
    }

    /// Issue 31, item 12: `validate --schema webmap` accepted `{}`. It now needs the four keys the web map
    /// specification requires, while `lint` keeps rules.md's answers: `{}` is json/not-a-map, and a map
    /// without spatialReference is not a schema/invalid.
    @Test func anEmptyObjectIsNotAWebMapButLintStillSaysNotAMap() throws {
        let dir = try CLI.temporaryDirectory()
        try Data("{}".utf8).write(to: dir.appendingPathComponent("empty.json"))
        let validated = try CLI.run(["validate", "--schema", "webmap", "empty.json", "--format", "json"], in: dir)
        #expect(validated.exitCode == 1, "\(validated.stdout)")
        let messages = diagnostics(try report(validated)).compactMap { $0["message"] as? String }
        #expect(messages.count == 4 && messages.allSatisfy { $0.contains("missing required property") }, "\(messages)")
        let linted = try CLI.run(["lint", "empty.json", "--format", "json"], in: dir)
        #expect(diagnostics(try report(linted)).map { $0["ruleId"] as? String } == ["json/not-a-map"], "\(linted.stdout)")
        try Data(#"{"operationalLayers": [], "baseMap": {"baseMapLayers": []}}"#.utf8).write(to: dir.appendingPathComponent("map.json"))
        let map = try CLI.run(["lint", "map.json", "--format", "json"], in: dir)
        #expect(diagnostics(try report(map)).map { $0["ruleId"] as? String } == ["map/no-operational-layers"], "\(map.stdout)")
    }

    @Test func problemsWithTheSchemaOrTheFilesExitTwo() throws {
        let dir = try CLI.temporaryDirectory()
        try Data("{}".utf8).write(to: dir.appendingPathComponent("x.json"))
        let unknown = try CLI.run(["validate", "--schema", "webmaps", "x.json"], in: dir)
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr.contains("webmap"), "\(unknown.stderr)")
        try Data(#"{"type": "strin"}"#.utf8).write(to: dir.appendingPathComponent("typo.schema.json"))
        let invalid = try CLI.run(["validate", "--schema", "typo.schema.json", "x.json"], in: dir)
        #expect(invalid.exitCode == 2)
        #expect(invalid.stderr.contains("did you mean 'string'"), "\(invalid.stderr)")
        try Data(#"{"$ref": "https://example.com/elsewhere.json"}"#.utf8).write(to: dir.appendingPathComponent("remote.schema.json"))
        let remote = try CLI.run(["validate", "--schema", "remote.schema.json", "x.json"], in: dir)
        #expect(remote.exitCode == 2)
        #expect(remote.stderr.contains("--ref-dir"), "\(remote.stderr)")
        let missing = try CLI.run(["validate", "--schema", "webmap", "missing.json"], in: dir)
        #expect(missing.exitCode == 2)
        let none = try CLI.run(["validate", "--schema", "webmap"], in: dir)
        #expect(none.exitCode == 2)
    }

    @Test func refDirectoriesAndSiblingFilesResolveReferences() throws {
        let dir = try CLI.temporaryDirectory()
        try Data(#"{"$ref": "http://localhost:1234/draft2020-12/integer.json"}"#.utf8).write(to: dir.appendingPathComponent("remote.schema.json"))
        try Data(#"{"properties": {"n": {"$ref": "count.schema.json"}}}"#.utf8).write(to: dir.appendingPathComponent("local.schema.json"))
        try Data(#"{"type": "integer", "minimum": 0}"#.utf8).write(to: dir.appendingPathComponent("count.schema.json"))
        try Data("12".utf8).write(to: dir.appendingPathComponent("twelve.json"))
        try Data(#"{"n": -1}"#.utf8).write(to: dir.appendingPathComponent("negative.json"))
        let remotes = CLI.fixtures.appendingPathComponent("jsonschema-test-suite/remotes").path
        let remote = try CLI.run(["validate", "--schema", "remote.schema.json", "--ref-dir", remotes, "twelve.json"], in: dir)
        #expect(remote.exitCode == 0, "\(remote.stdout)\(remote.stderr)")
        let local = try CLI.run(["validate", "--schema", "local.schema.json", "negative.json", "--format", "json"], in: dir)
        #expect(local.exitCode == 1, "\(local.stderr)")
        #expect(diagnostics(try report(local)).first?["pointer"] as? String == "/n")
    }

    /// The SARIF that `maprules lint` writes is valid SARIF 2.1.0, checked with this project's own validator.
    @Test func lintSARIFValidatesAgainstTheSARIFSchema() throws {
        let schemaURL = CLI.fixtures.appendingPathComponent("sarif/sarif-schema-2.1.0.json")
        let schemaText = SourceText(bytes: [UInt8](try Data(contentsOf: schemaURL)))
        let sarif = try SchemaRegistry().compile(JSONParser.parse(schemaText).root, uri: SchemaFiles.fileURI(path: schemaURL.path))
        let result = try CLI.run(["lint", "Samples/Broken", "--format", "sarif"])
        #expect(result.exitCode == 1)
        let output = try JSONParser.parse(result.stdout)
        #expect(output.root["runs"]?[0]?["results"]?.array?.isEmpty == false)
        let violations = sarif.validate(output)
        #expect(violations.isEmpty, "\(violations.prefix(10).map(\.description))")
        // The check has teeth: a result level SARIF does not know is caught at its place.
        let broken = try JSONParser.parse(result.stdout.replacingOccurrences(of: #""level" : "error""#, with: #""level" : "fatal""#)
            .replacingOccurrences(of: #""level": "error""#, with: #""level": "fatal""#))
        #expect(sarif.validate(broken).contains { $0.keyword == "enum" && $0.instancePointer.tokens.last == "level" })
        // And the command line agrees.
        let dir = try CLI.temporaryDirectory()
        try Data(result.stdout.utf8).write(to: dir.appendingPathComponent("lint.sarif"))
        let validate = try CLI.run(["validate", "--schema", schemaURL.path, dir.appendingPathComponent("lint.sarif").path])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
    }
}
