import Foundation
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

@Suite struct EditScriptTests {
    static let scripts = Samples.folder + "/Scripts"

    /// Runs a script in-process against a fresh copy of the sample its name starts with.
    static func runInProcess(_ path: String, credential: Credential? = Runtimes.editor01, keepGoing: Bool = false) async throws -> ScriptReport {
        let script = try EditScript.load(path: path)
        let sample = ((path as NSString).lastPathComponent.split(separator: "-").first).map(String.init) ?? ""
        let environment = try await ScriptEnvironment.prepare(script: script, target: Samples.folder + "/" + sample, credential: credential,
                                                              usersFile: nil, timeout: 30)
        try await environment.load(credential: credential)
        let report = await EditScriptRunner(script: script, geodatabase: environment.geodatabase, runId: "abc123").run(keepGoing: keepGoing)
        await environment.close()
        return report
    }

    static func write(_ text: String, name: String = "script.yaml") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-scripts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: ["DamageAssessment-branch-versioning.yaml", "TreesOfPortland-new-tree.yaml"])
    func sampleScriptsPassInProcess(_ name: String) async throws {
        let report = try await Self.runInProcess(Self.scripts + "/" + name)
        for step in report.steps where !step.ok { Issue.record("step \(step.index) \(step.operation): \(step.summary)") }
        #expect(report.exitCode == 0)
        #expect(report.steps.count == (try EditScript.load(path: Self.scripts + "/" + name)).steps.count)
        #expect(report.steps.contains { $0.expectedFailure != nil && $0.ok })
    }

    @Test func invalidScriptsAreReportedBeforeAnythingRuns() throws {
        let unknown = try Self.write("steps:\n  - frobnicate: {layer: 0}\n")
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: unknown) }
        do { _ = try EditScript.load(path: unknown) } catch let invalid as EditScript.Invalid {
            #expect(invalid.problems.first?.contains(":2:") == true)
            #expect(invalid.problems.first?.contains("frobnicate") == true)
        }
        let reference = try Self.write("steps:\n  - query: {layer: 0}\n    save: a\n  - deleteFeature: {layer: 0, objectId: \"$b.features.0.objectid\"}\n")
        do { _ = try EditScript.load(path: reference); Issue.record("unknown reference accepted") } catch let invalid as EditScript.Invalid {
            #expect(invalid.problems.count == 1)
            #expect(invalid.problems[0].contains("$b.features.0.objectid") && invalid.problems[0].contains("script.yaml:4:"))
        }
        let wrongType = try Self.write(#"{"steps": [{"query": {"layer": 0, "limit": true}}]}"#, name: "s.json")
        do { _ = try EditScript.load(path: wrongType); Issue.record("wrong type accepted") } catch let invalid as EditScript.Invalid {
            #expect(invalid.problems.first?.contains("s.json:1:") == true)
        }
        let brokenYAML = try Self.write("steps:\n  - query: {layer: 0\n")
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: brokenYAML) }
        let twoOperations = try Self.write("steps:\n  - query: {layer: 0}\n    expect: {layer: 0, where: \"1=1\", count: 1}\n")
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: twoOperations) }
        // A repeated key would silently replace the earlier value (a second steps: drops the first list).
        let repeated = try Self.write("steps:\n  - applyEdits: {}\nsteps:\n  - undoLocalEdits: {}\n")
        do { _ = try EditScript.load(path: repeated); Issue.record("a repeated key was accepted") } catch let invalid as EditScript.Invalid {
            #expect(invalid.problems.first?.contains("script.yaml:3:1:") == true, "\(invalid.problems)")
            #expect(invalid.problems.first?.contains("'steps'") == true)
        }
        let repeatedJSON = try Self.write(#"{"steps": [{"query": {"layer": 0, "layer": 1}}]}"#, name: "r.json")
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: repeatedJSON) }
        // An attachment's file is looked for before anything runs, as the map is.
        let missingFile = try Self.write("steps:\n  - addAttachment: {layer: Trees, objectId: 1, file: nope.txt}\n")
        do { _ = try EditScript.load(path: missingFile); Issue.record("a missing attachment file was accepted") } catch let invalid as EditScript.Invalid {
            #expect(invalid.problems.first?.contains("script.yaml:2:") == true && invalid.problems.first?.contains("nope.txt") == true, "\(invalid.problems)")
        }
    }

    @Test func referencesSubstituteValuesAndText() async throws {
        let path = try Self.write("""
            steps:
              - query: {layer: Trees, where: "Address = '1823 NE Davis St'"}
                save: hit
              - expect: {layer: 0, where: "OBJECTID = $hit.features.0.OBJECTID", count: 1, attributes: {Address: "$hit.features.0.Address"}}
              - expect: {layer: 0, objectIds: ["$hit.features.0.OBJECTID"], count: "$hit.count"}
              - expect: {layer: 0, where: "OBJECTID = $hit.features.5.OBJECTID", count: 1}
            """)
        let script = try EditScript.load(path: path)
        let environment = try await ScriptEnvironment.prepare(script: script, target: Samples.folder + "/TreesOfPortland", credential: Runtimes.editor01, usersFile: nil, timeout: 30)
        try await environment.load(credential: Runtimes.editor01)
        let report = await EditScriptRunner(script: script, geodatabase: environment.geodatabase).run(keepGoing: true)
        #expect(report.steps.map(\.ok) == [true, true, true, false])
        #expect(report.steps[3].error?.identifier == "script/reference")
        #expect(report.exitCode == 1)
        let json = report.json
        #expect(json["passed"]?.int == 3 && json["failed"]?.int == 1)
        #expect(json["steps"]?.array?[3]["error"]?["ruleId"]?.string == "script/reference")
    }

    /// YAML 1.2, not Yams' 1.1 reading: unquoted URLs, times of day and yes/no stay text (spec example:
    /// `service: https://127.0.0.1:8443/.../FeatureServer`), numbers and booleans stay numbers and booleans.
    @Test func plainScalarsAreReadByYAML12sCoreSchema() throws {
        let path = try Self.write("""
            service: https://127.0.0.1:8443/arcgis/rest/services/TreesOfPortland/FeatureServer
            steps:
              - updateAttributes: {layer: 0, objectId: 1, attributes: {Notes: 10:20:30, Address: http://x.org/a, Wires: Yes, DBH: 1.5, Site_Width: +4}}
            """)
        let script = try EditScript.load(path: path)
        #expect(script.service == "https://127.0.0.1:8443/arcgis/rest/services/TreesOfPortland/FeatureServer")
        let attributes = script.steps[0].arguments["attributes"]
        #expect(attributes?["Notes"]?.string == "10:20:30")
        #expect(attributes?["Address"]?.string == "http://x.org/a")
        #expect(attributes?["Wires"]?.string == "Yes")
        #expect(attributes?["DBH"]?.double == 1.5)
        #expect(attributes?["Site_Width"]?.int == 4)
    }

    /// Values no argument can hold fail their step (or the script) instead of being ignored or written as
    /// something else: a count that is text, an object as an attribute, a date beyond Int64's milliseconds,
    /// coordinates that do not project; and the table is left as it was.
    @Test func valuesNoArgumentCanHoldFailTheirStep() async throws {
        let path = try Self.write("""
            steps:
              - query: {layer: 0, limit: 1}
                save: q
              - expect: {layer: 0, where: "1=1", count: "$q.features.0.Address"}
              - updateAttributes: {layer: 0, objectId: 1, attributes: {Notes: "$q.features.0"}}
              - updateAttributes: {layer: 0, objectId: 1, attributes: {Planted_Date: 1e300}}
              - moveFeature: {layer: 0, objectId: 2, geometry: {x: 1e308, y: 1e308, spatialReference: {wkid: 4326}}}
              - applyEdits: {}
              - expect: {layer: 0, where: "1=1", count: 24}
            """, name: "TreesOfPortland-bad-values.yaml")
        let report = try await Self.runInProcess(path, keepGoing: true)
        #expect(report.steps.map(\.ok) == [true, false, false, false, false, true, true], "\(report.steps.map { $0.error?.message ?? "ok" })")
        #expect(report.steps[1].error?.identifier == "script/argument")
        #expect(report.steps[2].error?.identifier == "script/argument")
        #expect(report.steps[3].error?.message.contains("beyond the latest date") == true, "\(report.steps[3].error?.message ?? "")")
        #expect(report.steps[4].error?.identifier == "runtime/invalid-geometry")
        let huge = try Self.write(#"{"steps": [{"expect": {"layer": 0, "where": "1=1", "count": 1e300}}]}"#, name: "huge.json")
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: huge) }
    }

    /// runtime.md: applyEdits replaces temporary ids with the service's; an attachment's temporary id, saved
    /// before the apply, still names that attachment after it.
    @Test func anAppliedAttachmentKeepsAnsweringToItsTemporaryId() async throws {
        let path = try Self.write("""
            steps:
              - addAttachment: {layer: Trees, objectId: 1, file: note.txt, contentType: text/plain}
                save: a
              - applyEdits: {}
              - deleteAttachment: {layer: Trees, objectId: 1, attachmentId: "$a.attachmentId"}
              - applyEdits: {}
            """, name: "TreesOfPortland-attachment.yaml")
        try "a note".write(toFile: (path as NSString).deletingLastPathComponent + "/note.txt", atomically: true, encoding: .utf8)
        let report = try await Self.runInProcess(path)
        #expect(report.steps.map(\.ok) == [true, true, true, true], "\(report.steps.map { $0.error?.message ?? "ok" })")
        #expect(report.json["steps"]?.array?[3]["result"]?.text.contains("attachmentDeletes") == true)
    }

    @Test func aFailedStepStopsTheRunUnlessKeepGoing() async throws {
        let path = try Self.write("""
            steps:
              - expect: {layer: 0, where: "1 = 1", count: 0}
              - expectLocalEdits: false
            """)
        let script = try EditScript.load(path: path)
        let environment = try await ScriptEnvironment.prepare(script: script, target: Samples.folder + "/TreesOfPortland", credential: nil, usersFile: nil, timeout: 30)
        try await environment.load(credential: nil)
        let once = await EditScriptRunner(script: script, geodatabase: environment.geodatabase).run()
        #expect(once.steps.count == 1 && once.skipped == 1 && once.exitCode == 1)
        let all = await EditScriptRunner(script: script, geodatabase: environment.geodatabase).run(keepGoing: true)
        #expect(all.steps.count == 2 && all.passed == 1)
    }

    @Test func expectFailureOfAStepThatSucceedsIsAFailure() async throws {
        let path = try Self.write("""
            steps:
              - query: {layer: 0, limit: 1}
                expectFailure: runtime/cannot-add
            """)
        let script = try EditScript.load(path: path)
        let environment = try await ScriptEnvironment.prepare(script: script, target: Samples.folder + "/TreesOfPortland", credential: nil, usersFile: nil, timeout: 30)
        try await environment.load(credential: nil)
        let report = await EditScriptRunner(script: script, geodatabase: environment.geodatabase).run()
        #expect(report.steps.first?.ok == false)
        #expect(report.steps.first?.summary.contains("succeeded") == true)
    }
}

@Suite struct HostileScriptTests {
    @Test func aliasBombsAndDeepNestingAreRefusedNotExpanded() throws {
        var bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for level in 1...9 { bomb += "\(Character(UnicodeScalar(97 + level)!)): &\(Character(UnicodeScalar(97 + level)!)) [" + Array(repeating: "*\(Character(UnicodeScalar(96 + level)!))", count: 10).joined(separator: ",") + "]\n" }
        bomb += "steps: [{expectLocalEdits: false}]\n"
        let path = try EditScriptTests.write(bomb)
        do { _ = try EditScript.load(path: path); Issue.record("an alias bomb was accepted") } catch let invalid as EditScript.Invalid {
            #expect(invalid.problems.joined().contains("32 MB") || invalid.problems.joined().contains("additional"))
        }
        let deep = try EditScriptTests.write("steps: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "\n")
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: deep) }
        let empty = try EditScriptTests.write("")
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: empty) }
        let notUTF8 = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-latin1-\(UUID().uuidString).yaml")
        try Data([0x73, 0x74, 0x65, 0x70, 0x73, 0x3A, 0x20, 0xE9, 0xFF]).write(to: notUTF8)
        #expect(throws: EditScript.Invalid.self) { try EditScript.load(path: notUTF8.path) }
    }
}
