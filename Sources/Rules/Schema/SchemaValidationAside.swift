import Foundation
import JSONSchema
import WebMap

/// `schema/invalid`'s validation of one large map, started on a thread of its own so that it runs on a second
/// core while the other rules run on the first. It reads only the tree (values the rules never change) and a
/// shipped schema (which threads linting files in parallel already validate with at once). Its violations are
/// reported in `schema/invalid`'s own turn, so the findings and their order are those of a serial run.
/// Maps smaller than ``LintOptions/workAsideMinimumSize`` are validated in turn: a thread costs more than it
/// saves on them.
final class SchemaValidationAside: @unchecked Sendable {
    private var violations: [SchemaViolation] = []
    private let finished = DispatchSemaphore(value: 0)

    init(schema: Schema, root: JSONNode, repeatedKeys: Bool) {
        let thread = Thread { [self] in
            violations = schema.validate(root, repeatedKeys: repeatedKeys)
            finished.signal()
        }
        // As deep as the thread that would otherwise validate (the parser bounds the nesting).
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// The violations, once the validation is over (waits for it).
    func wait() -> [SchemaViolation] {
        finished.wait()
        finished.signal()
        return violations
    }
}
