import Foundation
import Report
import Rules
import WebMap

extension LintCommand {
    /// `--fix` / `--fix-dry-run`: fixes each file (in memory), then writes the changed files or prints their
    /// diff. Answers the reports of the fixed texts: what remains.
    func applyFixes(_ targets: [LintTarget], linter: Linter) throws -> [FileReport] {
        var reports: [FileReport] = []
        var fixed = 0, files = 0
        for target in targets {
            guard let result = try linter.fix(path: target.path, displayPath: target.displayPath, isExplicit: target.isExplicit) else { continue }
            reports.append(result.report)
            guard result.changed else { continue }
            fixed += result.applied.count
            files += 1
            if fixDryRun {
                let shown = result.path.hasPrefix("./") ? String(result.path.dropFirst(2)) : result.path
                print(UnifiedDiff.render(path: shown, old: result.original, new: result.fixed), terminator: "")
            } else {
                do { try Data(result.fixed).write(to: URL(fileURLWithPath: target.path)) } catch {
                    throw CommandFailure("cannot write the fixed \(target.path): \(error.localizedDescription) (check its permissions)")
                }
            }
        }
        let verb = fixDryRun ? "would fix" : "fixed"
        Console.error("\(verb) \(fixed) problem\(fixed == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")")
        return reports
    }
}
