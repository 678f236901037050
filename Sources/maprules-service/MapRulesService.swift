import ArgumentParser
import LintCommands
import Report
import ServiceCommands

/// The complete `maprules` command line: the lint-side commands and `serve`, `edit`, `offline`. The `maprules`
/// executable runs this one for the service commands; a single-file install ships this one, named `maprules`.
@main
struct MapRulesService: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maprules",
        abstract: CommandLineRunner.abstract,
        discussion: CommandLineRunner.discussion,
        version: MapRulesVersion.current,
        subcommands: CommandLineRunner.lintCommands
            + [ServeCommand.self, EditCommand.self, OfflineCommand.self]
            + CommandLineRunner.editorCommands
    )

    static func main() async {
        ArcadeServiceEvaluation.install()
        await CommandLineRunner.main(MapRulesService.self)
    }
}
