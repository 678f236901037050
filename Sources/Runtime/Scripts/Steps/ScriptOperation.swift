import Foundation
import FeatureServiceModel
import WebMap

/// One operation of an edit script (edit-scripts.md "Steps") as a type: its arguments, read from the script into
/// typed values, and `run`, the runtime call it stands for. `ScriptOperationCatalog` lists them all; adding an
/// operation is one type plus one line there (and its arguments in `Schemas/edit-script.schema.json`).
///
/// Reading arguments never fails: the schema has checked the script's types before anything runs, and a value a
/// `$NAME` reference brings is known only when the step runs. An argument the operation cannot use fails the step
/// when it runs (`script/argument`, `runtime/feature-not-found`, `runtime/invalid-geometry`), whether it was
/// written in the script or brought by a reference.
protocol ScriptOperation: Sendable {
    /// The step's key in the script: "deleteFeature".
    static var name: String { get }
    /// Reads the operation's arguments (the value of its key in the step).
    init(arguments: JSON)
    /// Problems that make the script invalid before anything runs, beyond the schema's; none unless the
    /// operation names something that can be looked for at once (an attachment's file).
    static func problems(in step: WrittenStep) -> [String]
    /// Runs the step: what happened (ids, counts) and the value `save` keeps.
    func run(in context: StepContext) async throws -> StepResult
}

extension ScriptOperation {
    static func problems(in step: WrittenStep) -> [String] { [] }
}

/// A step as the script writes it, for the checks made before anything runs.
struct WrittenStep {
    /// 1-based.
    let index: Int
    /// The operation's arguments (the value of its key).
    let arguments: JSON
    /// The step's object in the file, and the file (for the place of an argument).
    let node: JSONNode
    let source: ScriptSource
    /// The folder holding the script.
    let directory: String

    /// "path:line:column" of the argument `key`, else of the step.
    func place(ofArgument key: String, operation: String) -> String {
        source.place(node[operation]?[key] ?? node)
    }
}

/// What a step runs against: the geodatabase, and the script's folder (attachment files are relative to it).
struct StepContext {
    let geodatabase: ServiceGeodatabase
    let directory: String
}

/// What a step did: a line for the text output, and its result (what `save` keeps; null when it has none).
struct StepResult {
    var summary: String
    var value: JSON?

    init(_ summary: String, value: JSON? = nil) {
        self.summary = summary
        self.value = value
    }
}
