import ArgumentParser
import Foundation
import Report
import Rules
import WebMap

@main
struct MapRulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maprules",
        abstract: "Check ArcGIS web maps against the rules a field-data-collection app lives by.",
        discussion: """
            Start with:
              maprules lint Samples                 lint every web map under Samples/
              maprules inspect Samples/TreesOfPortland/TreesOfPortland.json
              maprules explain popup/unknown-field

            Exit codes: 0 success, 1 problems found, 2 the command could not do its job.
            """,
        version: MapRulesVersion.current,
        subcommands: [LintCommand.self, ValidateCommand.self, RulesCommand.self, ExplainCommand.self, InspectCommand.self,
                      VersionNameCommand.self, SnapshotCommand.self, ServeCommand.self, EditCommand.self, OfflineCommand.self,
                      LSPCommand.self]
    )

    /// Runs the command line with the exit codes of docs/cli.md: 0 success, 1 problems, 2 could not do the job
    /// (argument-parser's own usage errors exit 64 by default; here they exit 2).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as CustomStringConvertible where error is CommandFailure || error is DocumentError || error is ConfigurationError || error is BaselineError {
            Console.error("error: \(error.description)")
            Foundation.exit(2)
        } catch {
            let exitCode = Self.exitCode(for: error)
            if exitCode == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}

/// A failure that stops a command: printed as `maprules: error: ...`, exit 2.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum Console {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data(("maprules: " + message + "\n").utf8))
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// Colours on a terminal unless NO_COLOR is set; `always`/`never` force it.
    func enabled(forTerminal isTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            let env = ProcessInfo.processInfo.environment
            if let noColor = env["NO_COLOR"], !noColor.isEmpty { return false }
            return isTerminal && env["TERM"] != "dumb"
        }
    }
}

/// Writes `text` to `path`, or to standard output when nil.
func emit(_ text: String, to path: String?) throws {
    if let path {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw CommandFailure("cannot write \(path): \(error.localizedDescription)")
        }
    } else {
        // The throwing write: the old one traps ("Fatal error") when standard output is full or closed.
        do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch {
            throw CommandFailure("cannot write to standard output: \(error.localizedDescription)")
        }
    }
}
