import Foundation
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

/// The same scenarios in-process and over HTTP against `maprules serve`: the two must agree step by step.
@Suite struct HTTPParityTests {
    @Test(arguments: ["DamageAssessment-branch-versioning.yaml", "TreesOfPortland-new-tree.yaml"])
    func sampleScriptsAgreeInProcessAndOverHTTP(_ name: String) async throws {
        let path = EditScriptTests.scripts + "/" + name
        let inProcess = try await EditScriptTests.runInProcess(path)
        let sample = String(name.split(separator: "-")[0])
        let overHTTP = try await offThePool { try await withMapRulesServer { site in
            let script = try EditScript.load(path: path)
            let environment = try await ScriptEnvironment.prepare(script: script, target: "\(site)/rest/services/\(sample)/FeatureServer",
                                                                  credential: Runtimes.editor01, usersFile: nil, timeout: 10)
            try await environment.load(credential: Runtimes.editor01)
            let report = await EditScriptRunner(script: script, geodatabase: environment.geodatabase, runId: "abc123").run()
            await environment.close()
            return report
        } }
        for step in overHTTP.steps where !step.ok { Issue.record("over HTTP, step \(step.index) \(step.operation): \(step.summary)") }
        #expect(overHTTP.exitCode == 0)
        #expect(inProcess.steps.count == overHTTP.steps.count)
        for (a, b) in zip(inProcess.steps, overHTTP.steps) {
            #expect(a.ok == b.ok, "step \(a.index)")
            #expect(a.error?.identifier == b.error?.identifier, "step \(a.index): \(a.error?.description ?? "-") / \(b.error?.description ?? "-")")
            #expect(a.error?.serviceCode == b.error?.serviceCode, "step \(a.index)")
            #expect(Self.withoutTimes(a.result) == Self.withoutTimes(b.result), "step \(a.index) \(a.operation): \(a.result?.text ?? "-") / \(b.result?.text ?? "-")")
        }
    }

    /// Results without the members that differ between two runs (dates written by the service, GUIDs it makes).
    static func withoutTimes(_ json: JSON?) -> JSON? {
        guard let json else { return nil }
        switch json {
        case .object(let members):
            return .object(members.filter { !["created_date", "last_edited_date", "versionGuid", "globalId", "GlobalID", "globalid"].contains($0.0) }
                .map { ($0.0, withoutTimes($0.1) ?? .null) })
        case .array(let items): return .array(items.map { withoutTimes($0) ?? .null })
        default: return json
        }
    }
}

/// Every operation of edit-scripts.md in one script, in-process and over HTTP.
@Suite struct EveryOperationTests {
    static let script = """
        map: ../TreesOfPortland/TreesOfPortland.json
        steps:
          - signIn: {user: editor02, password: sample-editor02}
          - fetchVersions: {}
            expectFailure: runtime/service-error
          - query: {layer: Trees, where: "Neighborhood = 'Kerns'", orderBy: "OBJECTID DESC", limit: 2}
            save: kerns
          - expect: {layer: Trees, objectIds: ["$kerns.features.0.OBJECTID", "$kerns.features.1.OBJECTID"], count: 2, attributes: {Neighborhood: Kerns}}
          - relate: {layer: Trees, objectId: "$kerns.features.0.OBJECTID", relationship: Species, to: 3}
          - relate: {layer: Trees, objectId: "$kerns.features.0.OBJECTID", relationship: Nope, to: 3}
            expectFailure: runtime/relationship-not-found
          - addAttachment: {layer: 0, objectId: "$kerns.features.0.OBJECTID", file: leaf.txt, contentType: text/plain}
            save: photo
          - deleteFeature: {layer: Trees, objectId: "$kerns.features.1.OBJECTID"}
          - expect: {layer: Trees, objectIds: ["$kerns.features.1.OBJECTID"], count: 0}
          - expectLocalEdits: true
          - signIn: {user: editor01, password: sample-editor01}
            expectFailure: runtime/local-edits-pending
          - undoLocalEdits: {}
          - expectLocalEdits: false
          - expect: {layer: Trees, objectIds: ["$kerns.features.1.OBJECTID"], count: 1}
          - relate: {layer: Trees, objectId: "$kerns.features.0.OBJECTID", relationship: Species, to: 3}
          - addAttachment: {layer: 0, objectId: "$kerns.features.0.OBJECTID", file: leaf.txt}
            save: photo
          - applyEdits: {}
            save: applied
          - query: {layer: Species, where: "OBJECTID = 3"}
            save: species
          - expect: {layer: Trees, objectIds: ["$kerns.features.0.OBJECTID"], attributes: {Species_ID: "$species.features.0.Species_ID"}}
          - deleteFeature: {layer: Neighborhoods, objectId: 1}
            expectFailure: runtime/cannot-delete
          - moveFeature: {layer: Trees, objectId: "$kerns.features.0.OBJECTID", geometry: {paths: [[[0, 0], [1, 1]]]}}
            expectFailure: runtime/invalid-geometry
          - updateAttributes: {layer: Trees, objectId: 999999, attributes: {Notes: "x"}}
            expectFailure: runtime/feature-not-found
          - updateAttributes: {layer: Trees, objectId: "$kerns.features.0.OBJECTID", attributes: {Nots: "x"}}
            expectFailure: runtime/unknown-field
          - deleteFeature: {layer: Trees, objectId: "$kerns.features.1.OBJECTID"}
          - applyEdits: {}
          - expect: {layer: Trees, objectIds: ["$kerns.features.1.OBJECTID"], count: 0}
        """

    static func run(target: String) async throws -> ScriptReport {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-every-\(UUID().uuidString)/Scripts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.folder + "/TreesOfPortland", toPath: folder.deletingLastPathComponent().appendingPathComponent("TreesOfPortland").path)
        try "a leaf".write(to: folder.appendingPathComponent("leaf.txt"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("every.yaml").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let loaded = try EditScript.load(path: path)
        let environment = try await ScriptEnvironment.prepare(script: loaded, target: target, credential: Runtimes.editor01, usersFile: Samples.usersFile, timeout: 10)
        try await environment.load(credential: Runtimes.editor01)
        let report = await EditScriptRunner(script: loaded, geodatabase: environment.geodatabase, runId: "abc123").run(keepGoing: true)
        await environment.close()
        return report
    }

    @Test func everyOperationAgreesInProcessAndOverHTTP() async throws {
        let inProcess = try await Self.run(target: Samples.folder + "/TreesOfPortland")
        for step in inProcess.steps where !step.ok { Issue.record("in-process step \(step.index) \(step.operation): \(step.summary)") }
        let overHTTP = try await offThePool { try await withMapRulesServer { site in try await Self.run(target: "\(site)/rest/services/TreesOfPortland/FeatureServer") } }
        for step in overHTTP.steps where !step.ok { Issue.record("over HTTP step \(step.index) \(step.operation): \(step.summary)") }
        #expect(inProcess.steps.map(\.ok) == overHTTP.steps.map(\.ok))
        #expect(inProcess.steps.map { $0.error?.identifier } == overHTTP.steps.map { $0.error?.identifier })
        for (a, b) in zip(inProcess.steps, overHTTP.steps) {
            #expect(HTTPParityTests.withoutTimes(a.result) == HTTPParityTests.withoutTimes(b.result), "step \(a.index) \(a.operation)")
        }
    }
}
