import ArgumentParser
import Foundation
import Runtime
import Service
import LintCommands
import LocalFeatureService
import FeatureServiceModel
import WebMap

/// `maprules offline COMMAND`: field crews' offline workflow (docs/cli.md; docs/runtime.md "Offline").
public struct OfflineCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "offline",
        abstract: "Take part of a feature service offline, edit it without network, and sync the edits back.",
        discussion: """
            A crew's day:
              maprules offline generate --service http://127.0.0.1:8080/arcgis/rest/\\
            services/TreesOfPortland/FeatureServer --output trees.geodatabase \\
                --user editor01 --password sample-editor01
              maprules edit Samples/Scripts/TreesOfPortland-offline-crew1.yaml \\
                --service trees.geodatabase          # offline: the edits stay in the file
              maprules offline status trees.geodatabase
              maprules offline sync trees.geodatabase --user editor01 --password sample-editor01

            Conflicts resolve "last in wins": where the crew and the service both changed a \
            field since the last sync, the later edit wins. A command killed half-way leaves \
            the file as it was; a second command on a file in use is refused.

            Exit codes: 0 done; 1 the service refused (nothing was marked synced); 2 the \
            command could not do its job (no such file, file in use, service unreachable, \
            bad credentials).
            """,
        subcommands: [OfflineGenerateCommand.self, OfflineSyncCommand.self, OfflineStatusCommand.self, OfflineExportDeltaCommand.self,
                      OfflineImportDeltaCommand.self, OfflineRegisterCommand.self, OfflineUnregisterCommand.self]
    )
}

/// Talking to the service from the offline commands.
extension ConnectionOptions {
    /// Runs `body` with the service at `url`, closing its connections after, whatever happens.
    func withService<T: Sendable>(_ url: String, _ body: (RemoteFeatureService) async throws -> T) async throws -> T {
        let remote = try service(url)
        do {
            let result = try await body(remote)
            try? await remote.shutdown()
            return result
        } catch {
            try? await remote.shutdown()
            throw error
        }
    }

    /// The service at `url`, signed in.
    func service(_ url: String) throws -> RemoteFeatureService {
        guard url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") else {
            throw OfflineFailure(code: 2, message: "'\(url)' is not a feature service URL (http:// or https://).")
        }
        do { return try RemoteFeatureService(url: url, credential: credential, timeout: timeout) } catch {
            throw OfflineFailure(code: 2, message: "\(url): \(error)")
        }
    }
}

struct OfflineOutputOptions: ParsableArguments {
    @Option(help: "Output: text or json.")
    var format: Format = .text

    @Option(help: "Progress bar on standard error: never, auto (on a terminal) or always.")
    var progress: ProgressChoice = .auto

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }
    enum ProgressChoice: String, ExpressibleByArgument, CaseIterable { case never, auto, always }

    var showsProgress: Bool { progress == .always || (progress == .auto && Console.stderrIsTerminal) }
}

/// A failed offline command: the message and its exit code.
struct OfflineFailure: Error {
    var code: Int32
    var message: String

    /// The exit code of docs/cli.md for a runtime error: 1 when the service refused, 2 when the work could not be done.
    init(_ error: any Error, doing operation: String) {
        if let failure = error as? OfflineFailure {
            self = failure
            return
        }
        let runtime = error as? RuntimeError ?? RuntimeError.wrapping(error, operation: operation)
        // The service refused, or the offline/ rules did (a layer set that cannot sync): the check found problems.
        code = runtime.identifier == RuntimeError.Identifier.serviceError || runtime.identifier.hasPrefix("offline/") ? 1 : 2
        message = runtime.description
    }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
}

/// Runs an offline command's async body, printing its failure and exiting with its code.
enum OfflineRun {
    static func run(_ operation: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            let failure = OfflineFailure(error, doing: operation)
            Console.error("error: \(failure.message)")
            throw ExitCode(failure.code)
        }
    }
}

/// A progress bar on standard error: `generating [########............]  42%`.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled: Bool
    private var last = -1
    private let lock = NSLock()

    init(_ label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
    }

    func update(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int((min(1, max(0, fraction)) * 100).rounded(.down))
        lock.lock()
        defer { lock.unlock() }
        guard percent != last else { return }
        last = percent
        let filled = percent / 5
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0))\(percent)%\(percent == 100 ? "\n" : "")".utf8))
    }

    func finish() {
        guard enabled, last >= 0, last < 100 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

/// Prints a JSON value as one document.
func printJSON(_ value: JSON) { print(value.text) }
