import Foundation
import Testing

/// `maprules arcade` (arcade.md, "`maprules arcade`"), run through the built executable.
@Suite(.serialized) struct ArcadeCommandTests {
    @Test func evaluatesAnExpressionAsJSON() throws {
        let result = try CLI.run(["arcade", "Left('the quick brown fox', 3)", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"value\":\"the\",\"type\":\"Text\"}\n")
    }

    @Test func readsTheFeatureGiven() throws {
        let result = try CLI.run(["arcade", "IIf($feature.DBH > 20, \"big\", \"small\")", "--feature", "{\"attributes\":{\"DBH\":25}}"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "big\n")
        let small = try CLI.run(["arcade", "IIf($feature.DBH > 20, \"big\", \"small\")", "--feature", "{\"attributes\":{\"DBH\":3}}"])
        #expect(small.stdout == "small\n")
    }

    @Test func datesAreISOInUTCWithMilliseconds() throws {
        let result = try CLI.run(["arcade", "Date(2019, 3, 21)", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"value\":\"2019-04-21T00:00:00.000Z\",\"type\":\"Date\"}\n")
    }

    @Test func anExpressionFromAFileAndAFeatureFromAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arcade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "var n = $feature.Count\nreturn n * 2".write(to: folder.appendingPathComponent("double.arcade"), atomically: true, encoding: .utf8)
        try "{\"attributes\":{\"count\":21},\"geometry\":{\"x\":1,\"y\":2}}".write(to: folder.appendingPathComponent("f.json"), atomically: true, encoding: .utf8)
        let result = try CLI.run(["arcade", "--file", "double.arcade", "--feature", "@f.json"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "42\n")
        let geometry = try CLI.run(["arcade", "TypeOf(Geometry($feature))", "--feature", "@f.json"], in: folder)
        #expect(geometry.stdout == "Point\n", "\(geometry.stderr)")
    }

    @Test func formProfilesSeeTheOriginalAndTheEditType() throws {
        let result = try CLI.run(["arcade", "$editcontext.editType == 'UPDATE' && $originalFeature.Status != $feature.Status",
                                  "--profile", "form-constraint", "--edit-type", "UPDATE",
                                  "--feature", "{\"attributes\":{\"Status\":\"Damaged\"}}",
                                  "--original", "{\"attributes\":{\"Status\":\"Intact\"}}", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"value\":true,\"type\":\"Boolean\"}\n")
        let notBoolean = try CLI.run(["arcade", "'yes'", "--profile", "form-constraint", "--format", "json"])
        #expect(notBoolean.exitCode == 1)
        #expect(notBoolean.stdout.contains("\"ruleId\":\"arcade/runtime-error\""), "\(notBoolean.stdout)")
    }

    @Test func failuresAreJSONErrorsWithTheirPosition() throws {
        let syntax = try CLI.run(["arcade", "var x = \n(1 + ", "--format", "json"])
        #expect(syntax.exitCode == 1)
        let json = try #require(CLI.json(syntax.stdout) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["ruleId"] as? String == "arcade/syntax")
        #expect(error["line"] as? Int == 2, "\(error)")
        #expect(error["column"] is Int && error["message"] is String)
        let run = try CLI.run(["arcade", "[1, 2][5]"])
        #expect(run.exitCode == 1)
        #expect(run.stdout.isEmpty && run.stderr.contains("arcade/runtime-error"), "\(run.stderr)")
    }

    @Test func badOptionsExitTwo() throws {
        #expect(try CLI.run(["arcade", "1", "--profile", "label"]).exitCode == 2)
        #expect(try CLI.run(["arcade", "1", "--feature", "{not json"]).exitCode == 2)
        #expect(try CLI.run(["arcade"]).exitCode == 2)
        #expect(try CLI.run(["arcade", "1", "--map", "Samples/TreesOfPortland/TreesOfPortland.json"]).exitCode == 2)
        #expect(try CLI.run(["arcade", "1", "--format", "yaml"]).exitCode == 2)
        let noLayer = try CLI.run(["arcade", "1", "--map", "Samples/TreesOfPortland/TreesOfPortland.json", "--layer", "Nope"])
        #expect(noLayer.exitCode == 2 && noLayer.stderr.contains("Trees_7125"), "\(noLayer.stderr)")
    }

    @Test func theMapsLayerGivesFieldsTypesAndLayers() throws {
        let map = ["--map", "Samples/TreesOfPortland/TreesOfPortland.json", "--layer", "Trees_7125"]
        let year = try CLI.run(["arcade", "Year($feature.Planted_Date)", "--feature", "{\"attributes\":{\"Planted_Date\":1555804800000}}"] + map)
        #expect(year.exitCode == 0, "\(year.stderr)")
        #expect(year.stdout == "2019\n")
        let missing = try CLI.run(["arcade", "$feature.NoSuchField", "--feature", "{\"attributes\":{}}", "--format", "json"] + map)
        #expect(missing.exitCode == 1, "\(missing.stdout)")
        #expect(missing.stdout.contains("arcade/runtime-error"), "\(missing.stdout)")
        let layers = try CLI.run(["arcade", "TypeOf(FeatureSetByName($map, 'Species'))"] + map)
        #expect(layers.exitCode == 0, "\(layers.stderr)")
        #expect(layers.stdout == "FeatureSet\n")
        let unknown = try CLI.run(["arcade", "FeatureSetByName($map, 'Nope')"] + map)
        #expect(unknown.exitCode == 1)
    }

    /// `--service`: FeatureSet functions read the service, in-process from a sample folder and over HTTP alike.
    @Test func featureSetsReadTheServiceGiven() throws {
        let trees = CLI.packageRoot.appendingPathComponent("Samples/TreesOfPortland").path
        let count = try CLI.run(["arcade", "Count(FeatureSetByName($map, 'Trees'))", "--service", trees, "--format", "json"])
        #expect(count.exitCode == 0, "\(count.stderr)")
        #expect(count.stdout == "{\"value\":24,\"type\":\"Number\"}\n")

        let map = CLI.packageRoot.appendingPathComponent("Samples/TreesOfPortland/TreesOfPortland.json").path
        let hood = try CLI.run(["arcade", "First(Intersects(FeatureSetByName($map, 'Neighborhoods'), Geometry($feature))).NAME",
                                "--service", trees, "--map", map, "--layer", "Trees",
                                "--feature", #"{"attributes": {}, "geometry": {"x": -122.64834, "y": 45.525014, "spatialReference": {"wkid": 4326}}}"#])
        #expect(hood.exitCode == 0, "\(hood.stderr)")
        #expect(hood.stdout == "Kerns\n")

        let related = try CLI.run(["arcade", "Count(FeatureSetByRelationshipName($feature, 'Inspections'))", "--service", trees,
                                   "--layer", "Trees", "--feature", #"{"attributes": {"GlobalID": "{ED881BC9-049E-43F2-A301-9F26837E55B9}"}}"#])
        #expect(related.exitCode == 0, "\(related.stderr)")
        #expect((Int(related.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 1, "\(related.stdout)")

        let unknown = try CLI.run(["arcade", "FeatureSetByName($map, 'Nope')", "--service", trees, "--format", "json"])
        #expect(unknown.exitCode == 1 && unknown.stdout.contains("\"ruleId\":\"arcade/runtime-error\""), "\(unknown.stdout)")
        let missing = try CLI.run(["arcade", "1", "--service", "/no/such/folder"])
        #expect(missing.exitCode == 2 && missing.stderr.contains("--service"), "\(missing.stderr)")
        let badLayer = try CLI.run(["arcade", "1", "--service", trees, "--layer", "Oaks"])
        #expect(badLayer.exitCode == 2 && badLayer.stderr.contains("--layer"), "\(badLayer.stderr)")

        let server = try ServedSamples.start()
        defer { server.stop() }
        let remote = try CLI.run(["arcade", "Count(Filter(FeatureSetByName($map, 'Trees'), \"Condition = 'Good'\"))", "--service",
                                  "http://127.0.0.1:\(server.port)/arcgis/rest/services/TreesOfPortland/FeatureServer"])
        let local = try CLI.run(["arcade", "Count(Filter(FeatureSetByName($map, 'Trees'), \"Condition = 'Good'\"))", "--service", trees])
        #expect(remote.exitCode == 0 && local.exitCode == 0, "\(remote.stderr)\(local.stderr)")
        #expect(remote.stdout == local.stdout && (Int(local.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0)
    }
}
