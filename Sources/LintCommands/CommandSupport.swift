import ArgumentParser
import Foundation
import Report
import Rules
import WebMap

/// How every `maprules` executable starts: parses the command line against `root` and runs the command, with
/// the exit codes of docs/cli.md: 0 success, 1 problems, 2 could not do the job (argument-parser's own usage
/// errors exit 64 by default; here they exit 2).
public enum CommandLineRunner {
    public static func main<Root: ParsableCommand>(_ root: Root.Type, arguments: [String]? = nil) async -> Never {
        do {
            var command = try Root.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as CustomStringConvertible where error is CommandFailure || error is DocumentError || error is ConfigurationError || error is BaselineError {
            Console.error("error: \(error.description)")
            Foundation.exit(2)
        } catch {
            let exitCode = Root.exitCode(for: error)
            if exitCode == .success {
                print(Root.fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((Root.fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }

    /// What `maprules --help` says before the list of commands.
    public static let abstract = "Check ArcGIS web maps against the rules a field-data-collection app lives by."
    public static let discussion = """
        Start with:
          maprules lint Samples                 lint every web map under Samples/
          maprules inspect Samples/TreesOfPortland/TreesOfPortland.json
          maprules explain popup/unknown-field

        Exit codes: 0 success, 1 problems found, 2 the command could not do its job.
        """

    /// The commands that need only the web map, the rules and the reports (this library), in the order
    /// `maprules --help` lists them; `serve`, `edit` and `offline` go between `lintCommands` and `editorCommands`.
    public static let lintCommands: [ParsableCommand.Type] = [
        LintCommand.self, ValidateCommand.self, RulesCommand.self, ExplainCommand.self, InspectCommand.self,
        VersionNameCommand.self, SnapshotCommand.self, ArcadeCommand.self,
    ]
    public static let editorCommands: [ParsableCommand.Type] = [LSPCommand.self]
}

/// A failure that stops a command: printed as `maprules: error: ...`, exit 2.
public struct CommandFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

public enum Console {
    public static func error(_ message: String) {
        FileHandle.standardError.write(Data(("maprules: " + message + "\n").utf8))
    }

    public static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
    public static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
}

public enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// Colours on a terminal unless NO_COLOR is set; `always`/`never` force it.
    public func enabled(forTerminal isTerminal: Bool) -> Bool {
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

/// Writes `bytes` to `path`, or to standard output when nil.
public func emit(_ bytes: [UInt8], to path: String?) throws {
    try bytes.withUnsafeBufferPointer { try emit(buffer: $0, to: path) }
}

/// Writes `text` to `path`, or to standard output when nil.
public func emit(_ text: String, to path: String?) throws {
    var text = text
    try text.withUTF8 { try emit(buffer: $0, to: path) }
}

/// Writes to standard output what `write` hands over, a chunk at a time, as it is handed over.
public func emitToStandardOutput(_ write: (_ emit: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void) throws {
    try write { chunk in try emit(buffer: chunk, to: nil) }
}

/// Writes the bytes themselves, not a copy: a report of 250,000 findings is 75 to 320 MB.
private func emit(buffer: UnsafeBufferPointer<UInt8>, to path: String?) throws {
    let data = buffer.baseAddress.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: buffer.count, deallocator: .none) } ?? Data()
    if let path {
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw CommandFailure("cannot write \(path): \(error.localizedDescription)")
        }
    } else {
        // The throwing write: the old one traps ("Fatal error") when standard output is full or closed.
        do { try FileHandle.standardOutput.write(contentsOf: data) } catch {
            throw CommandFailure("cannot write to standard output: \(error.localizedDescription)")
        }
    }
}
