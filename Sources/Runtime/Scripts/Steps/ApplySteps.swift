import Foundation
import FeatureServiceModel
import WebMap

// The local edits of every table at once: applyEdits, undoLocalEdits.

/// `applyEdits`: one service-level apply of every table's local edits; saves the per-table results.
struct ApplyEditsStep: ScriptOperation {
    static let name = "applyEdits"

    init(arguments: JSON) {}

    func run(in context: StepContext) async throws -> StepResult {
        let results = try await context.geodatabase.applyEdits()
        return StepResult(StepText.describe(results), value: .array(results.map(StepText.resultsJSON)))
    }
}

/// `undoLocalEdits`: discards every local edit.
struct UndoLocalEditsStep: ScriptOperation {
    static let name = "undoLocalEdits"

    init(arguments: JSON) {}

    func run(in context: StepContext) async throws -> StepResult {
        let count = await context.geodatabase.localEditCount
        await context.geodatabase.undoLocalEdits()
        return StepResult("discarded \(StepText.counted(count, "local edit"))")
    }
}
