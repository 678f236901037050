import Foundation
import Report
import Rules
import WebMap

extension LintCommand {
    /// `--fix` / `--fix-dry-run`: fixes each file (in memory), then writes the changed files or prints their
    /// diff (with `--format json`, their JSON Patch: `{"files": [{"path", "patch": [RFC 6902 operations]}]}`).
    /// Answers the reports of the fixed texts: what remains.
    func applyFixes(_ targets: [LintTarget], linter: Linter) throws -> [FileReport] {
        var reports: [FileReport] = []
        var patches: [FilePatch] = []
        var fixed = 0, files = 0
        for target in targets {
            if target.rawPath != nil {
                // A name that is not UTF-8: linted, but not rewritten (say so rather than pass it over).
                reports += try linter.lint([target])
                Console.error("warning: \(target.displayPath): not fixed, as its name is not UTF-8; rename it in UTF-8 to fix it")
                continue
            }
            guard let result = try linter.fix(path: target.path, displayPath: target.displayPath, isExplicit: target.isExplicit) else { continue }
            reports.append(result.report)
            guard result.changed else { continue }
            fixed += result.applied.count
            files += 1
            let shown = result.path.hasPrefix("./") ? String(result.path.dropFirst(2)) : result.path
            if fixDryRun && format == .json {
                patches.append(FilePatch(path: shown, patch: result.patch))
            } else if fixDryRun {
                print(UnifiedDiff.render(path: shown, old: result.original, new: result.fixed), terminator: "")
            } else {
                do { try Data(result.fixed).write(to: URL(fileURLWithPath: target.path)) } catch {
                    throw CommandFailure("cannot write the fixed \(target.path): \(error.localizedDescription) (check its permissions)")
                }
            }
        }
        if fixDryRun && format == .json { print(FilePatch.render(patches)) }
        let verb = fixDryRun ? "would fix" : "fixed"
        Console.error("\(verb) \(fixed) problem\(fixed == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")")
        return reports
    }
}

/// One file's changes as `--fix-dry-run --format json` prints them.
struct FilePatch: Encodable {
    var path: String
    var patch: [PatchOperation]

    static func render(_ patches: [FilePatch]) -> String {
        struct Output: Encodable { var files: [FilePatch] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Output(files: patches)) else { return #"{"files": []}"# }
        return String(decoding: data, as: UTF8.self)
    }
}
