import Foundation
import FeatureServiceModel
import WebMap

/// What one step of an edit script did.
public struct StepOutcome: Sendable {
    /// 1-based.
    public var index: Int
    public var operation: String
    /// True when the step succeeded, or failed exactly as its `expectFailure` says.
    public var ok: Bool
    /// The step's `expectFailure`, when it has one.
    public var expectedFailure: String?
    /// The failure (expected or not).
    public var error: RuntimeError?
    /// The step's result (what `save` keeps).
    public var result: JSON?
    /// What happened, for the text output: ids, counts, the rule and message of a failure.
    public var summary: String
    /// "path:line:column" of the step in the script.
    public var place: String
}

/// The outcome of a whole script run.
public struct ScriptReport: Sendable {
    public var steps: [StepOutcome]
    /// True when the run stopped because the service could not be reached.
    public var unreachable: Bool
    /// Steps not run (after a failure without `--keep-going`).
    public var skipped: Int

    public var passed: Int { steps.filter(\.ok).count }
    public var failed: Int { steps.filter { !$0.ok }.count }

    /// 0 when every step passed, 1 when any failed, 2 when the service could not be reached.
    public var exitCode: Int32 { unreachable ? 2 : (failed > 0 ? 1 : 0) }

    /// docs/edit-scripts.md's JSON: `{"steps": [{"index", "operation", "ok", "expectedFailure", "error", "result"}], "passed", "failed"}`.
    public var json: JSON {
        .object([
            ("steps", .array(steps.map { step in
                var members: [(String, JSON)] = [("index", .int(step.index)), ("operation", .string(step.operation)), ("ok", .bool(step.ok))]
                members.append(("expectedFailure", step.expectedFailure.map(JSON.string) ?? .null))
                if let error = step.error {
                    var detail: [(String, JSON)] = []
                    if let code = Int(error.identifier) { detail.append(("code", .int(code))) } else { detail.append(("ruleId", .string(error.identifier))) }
                    if let code = error.serviceCode, Int(error.identifier) == nil { detail.append(("code", .int(code))) }
                    detail.append(("message", .string(error.message)))
                    members.append(("error", .object(detail)))
                } else {
                    members.append(("error", .null))
                }
                members.append(("result", step.result ?? .null))
                return .object(members)
            })),
            ("passed", .int(passed)),
            ("failed", .int(failed)),
            ("skipped", .int(skipped)),
        ])
    }

    /// One line per step: ✓ or ✗, the index, the operation, what happened.
    public static func textLine(_ step: StepOutcome) -> String {
        let mark = step.ok ? "✓" : "✗"
        let index = String(step.index).leftPadded(to: 3)
        return "\(mark) \(index) \(step.operation.rightPadded(to: 17)) \(step.summary)"
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    func rightPadded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
