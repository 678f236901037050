import ArgumentParser
import Foundation
import Rainbow
import Runtime
import Service
import LintCommands
import LocalFeatureService
import FeatureServiceModel
import WebMap

public struct EditCommand: AsyncParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Run an edit script through the editing runtime: every step refused locally when a rule forbids it.",
        discussion: """
            SCRIPT is JSON or YAML (schema: `maprules validate --schema edit-script`). \
            It is checked before anything runs: unknown operations, wrong argument \
            types and references to values no earlier step saves exit 2.

            --service URL talks HTTP to any ArcGIS REST feature service (maprules \
            serve included). --service DIR, a sample folder as `maprules serve` \
            reads it, runs in-process on a fresh in-memory copy (users: --users \
            FILE, else users.json in the folder or its parent, else anonymous full \
            access). --service FILE.geodatabase edits an offline geodatabase \
            made by `maprules offline generate`, with no network: the edits stay \
            in the file until `maprules offline sync FILE`.

            Examples:
              maprules edit Samples/Scripts/TreesOfPortland-new-tree.yaml \\
                --service Samples/TreesOfPortland \\
                --user editor01 --password sample-editor01
              maprules serve --port 8080 &
              maprules edit Samples/Scripts/DamageAssessment-branch-versioning.yaml \\
                --service http://127.0.0.1:8080/arcgis/rest/services/\\
            DamageAssessment/FeatureServer \\
                --user editor01 --password sample-editor01 --format json

            Exit codes: 0 every step passed; 1 a step failed (the run stops there \
            unless --keep-going); 2 the script is invalid or the service cannot be \
            reached.
            """
    )

    @Argument(help: "The edit script (.json, .yaml or .yml).")
    var script: String

    @Option(help: "The feature service URL (.../FeatureServer), a sample folder to run in-process, or an offline geodatabase file; wins over the script's `service`.")
    var service: String?

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Users file of an in-process run (--service DIR).")
    var users: String?

    @Flag(name: .customLong("keep-going"), help: "Run every step even after one fails.")
    var keepGoing = false

    @Option(help: "Output: text (one line per step) or json.")
    var format: Format = .text

    @Option(help: "Colour: auto, always or never.")
    var color: ColorChoice = .auto

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }
    enum ColorChoice: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

    public func run() async throws {
        Rainbow.enabled = color == .always || (color == .auto && Console.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        let loaded: EditScript
        do { loaded = try EditScript.load(path: script) } catch let invalid as EditScript.Invalid {
            Console.error("error: the script is invalid, nothing was run:\n" + invalid.problems.joined(separator: "\n"))
            throw ExitCode(2)
        }
        let signIn = connection.credential
        let timeout = connection.timeout
        let code = await Self.execute(loaded, target: service, credential: signIn, users: users, timeout: timeout, keepGoing: keepGoing, format: format)
        if code != 0 { throw ExitCode(code) }
    }

    private static func execute(_ script: EditScript, target: String?, credential: Credential?, users: String?, timeout: Double,
                                keepGoing: Bool, format: Format) async -> Int32 {
        let environment: ScriptEnvironment
        do {
            environment = try await ScriptEnvironment.prepare(script: script, target: target, credential: credential, usersFile: users, timeout: timeout)
        } catch {
            Console.error("error: \(error)")
            return 2
        }
        do { try await environment.load(credential: credential) } catch {
            let failure = RuntimeError.wrapping(error, operation: "Loading the service")
            Console.error("error: \(failure.description)")
            await environment.close()
            return 2
        }
        if format == .text {
            let version = await environment.geodatabase.versionName.map { " (version \($0))" } ?? ""
            print("Running \(script.path) against \(environment.service.url)\(version)")
        }
        let runner = EditScriptRunner(script: script, geodatabase: environment.geodatabase)
        let report = await runner.run(keepGoing: keepGoing) { step in
            guard format == .text else { return }
            let line = ScriptReport.textLine(step)
            print(step.ok ? line.replacingOccurrences(of: "✓", with: "✓".green) : line.replacingOccurrences(of: "✗", with: "✗".red))
        }
        await environment.close()
        switch format {
        case .json:
            print(report.json.text)
        case .text:
            var summary = "\(report.passed) passed, \(report.failed) failed"
            if report.skipped > 0 { summary += ", \(report.skipped) not run" }
            if report.unreachable { summary += " (the service could not be reached)" }
            print(summary)
        }
        return report.exitCode
    }
}
