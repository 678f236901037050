import ArgumentParser
import Foundation
import LintCommands
import Report

/// `maprules`: the lint-side commands (lint, validate, explain, inspect, lsp...) in an executable built over the
/// web map, rules and reports only, so that it builds in a minute or two from a fresh clone. `serve`, `edit` and
/// `offline` need the service stack (SwiftNIO, SQLite, PostgreSQL): they live in the companion executable
/// `maprules-service`, which this one runs in its place (as git and cargo run external subcommands). The
/// companion is the complete command line, so a single-file install ships it alone, named `maprules`.
@main
struct MapRules: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maprules",
        abstract: CommandLineRunner.abstract,
        discussion: CommandLineRunner.discussion,
        version: MapRulesVersion.current,
        subcommands: CommandLineRunner.lintCommands
            + [ServeForward.self, EditForward.self, OfflineForward.self]
            + CommandLineRunner.editorCommands
    )

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, ServiceCompanion.commands.contains(first) {
            ServiceCompanion.run(arguments)
        }
        // `arcade --service`: FeatureSet functions read a service through the runtime, which the companion has.
        if arguments.first == "arcade", arguments.contains(where: { $0 == "--service" || $0.hasPrefix("--service=") }) {
            ServiceCompanion.run(arguments)
        }
        // `maprules help serve ...`: the companion knows the command's options.
        if arguments.count >= 2, arguments[0] == "help", ServiceCompanion.commands.contains(arguments[1]) {
            ServiceCompanion.run(Array(arguments.dropFirst()) + ["--help"])
        }
        await CommandLineRunner.main(MapRules.self)
    }
}

/// `maprules serve|edit|offline ...`: listed in `maprules --help` here, run by the companion executable (which
/// parses the arguments and prints the command's own help).
struct ServeForward: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve sample folders as an ArcGIS REST feature service (branch versioning, token auth).",
        helpNames: [])
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServiceCompanion.run(["serve"] + arguments) }
}

struct EditForward: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Run an edit script against a feature service, under the map's rules.",
        helpNames: [])
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServiceCompanion.run(["edit"] + arguments) }
}

struct OfflineForward: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline", abstract: "Take part of a feature service offline, edit it there and sync it back.",
        helpNames: [])
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    func run() throws { ServiceCompanion.run(["offline"] + arguments) }
}
