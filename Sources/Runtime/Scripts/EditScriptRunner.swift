import Foundation
import FeatureServiceModel
import WebMap

/// Runs an edit script's steps through the runtime, the way a field crew would (docs/edit-scripts.md): each step is
/// one runtime call (its `ScriptOperation`), refused locally (nothing sent) when a rule, a validation or a
/// capability forbids it.
public final class EditScriptRunner {
    public let script: EditScript
    public let geodatabase: ServiceGeodatabase
    private var saved: [String: JSON]

    /// `$run.id`: six hexadecimal digits, different for every run, for names that must be new on a service
    /// that keeps its data between runs (`name: "Crew3_$run.id"`).
    public static let predefinedName = "run"

    public init(script: EditScript, geodatabase: ServiceGeodatabase, runId: String? = nil) {
        self.script = script
        self.geodatabase = geodatabase
        let id = runId ?? String(UInt32.random(in: 0...0xFFFFFF), radix: 16, uppercase: false).leftPadded(to: 6).replacingOccurrences(of: " ", with: "0")
        saved = [Self.predefinedName: .object([("id", .string(id))])]
    }

    /// Runs the steps in order; stops at the first failed step unless `keepGoing`, and at once when the service
    /// cannot be reached. `onStep` sees each outcome as it happens.
    public func run(keepGoing: Bool = false, onStep: (StepOutcome) -> Void = { _ in }) async -> ScriptReport {
        var outcomes: [StepOutcome] = []
        for (position, step) in script.steps.enumerated() {
            let outcome = await run(step)
            outcomes.append(outcome)
            onStep(outcome)
            let unreachable = !outcome.ok && outcome.error?.identifier == RuntimeError.Identifier.unreachable
            if unreachable || (!outcome.ok && !keepGoing) {
                return ScriptReport(steps: outcomes, unreachable: unreachable, skipped: script.steps.count - position - 1)
            }
        }
        return ScriptReport(steps: outcomes, unreachable: false, skipped: 0)
    }

    /// One step: its operation with the saved values in place, run; the outcome judged against `expectFailure`.
    private func run(_ step: EditScript.Step) async -> StepOutcome {
        var outcome = StepOutcome(index: step.index, operation: step.operation, ok: false, expectedFailure: step.expectFailure,
                                  error: nil, result: nil, summary: "", place: step.place)
        do {
            let result = try await step.action(with: saved).run(in: StepContext(geodatabase: geodatabase, directory: script.directory))
            outcome.result = result.value
            if let expected = step.expectFailure {
                outcome.summary = "expected to fail with \(expected), but it succeeded: \(result.summary)"
                return outcome
            }
            outcome.ok = true
            outcome.summary = result.summary
            if let name = step.save { saved[name] = result.value ?? .null }
        } catch {
            let failure = RuntimeError.wrapping(error, operation: step.operation)
            outcome.error = failure
            if let expected = step.expectFailure, failure.matches(expected) {
                outcome.ok = true
                outcome.summary = "refused as expected: \(failure.identifier)\(failure.serviceCode.map { " (code \($0))" } ?? ""): \(failure.message)"
            } else if let expected = step.expectFailure {
                outcome.summary = "expected \(expected), got \(failure.description)"
            } else {
                outcome.summary = failure.description
            }
        }
        return outcome
    }
}
