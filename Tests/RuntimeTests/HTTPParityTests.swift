import Foundation
import Runtime
import Service
import Testing

/// The same scenarios in-process and over HTTP against `maprules serve`: the two must agree step by step.
@Suite struct HTTPParityTests {
    @Test(arguments: ["DamageAssessment-branch-versioning.yaml", "TreesOfPortland-new-tree.yaml"])
    func sampleScriptsAgreeInProcessAndOverHTTP(_ name: String) async throws {
        let path = EditScriptTests.scripts + "/" + name
        let inProcess = try await EditScriptTests.runInProcess(path)
        let sample = String(name.split(separator: "-")[0])
        let overHTTP = try await withMapRulesServer { site in
            let script = try EditScript.load(path: path)
            let environment = try await ScriptEnvironment.prepare(script: script, target: "\(site)/rest/services/\(sample)/FeatureServer",
                                                                  credential: Runtimes.editor01, usersFile: nil, timeout: 10)
            try await environment.load(credential: Runtimes.editor01)
            let report = await EditScriptRunner(script: script, geodatabase: environment.geodatabase, runId: "abc123").run()
            await environment.close()
            return report
        }
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
