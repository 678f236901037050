import ArgumentParser
import Foundation
import LanguageServer

public struct LSPCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run a Language Server over standard input and output, for editors.",
        discussion: """
            Speaks LSP 3.17 (JSON-RPC 2.0 with Content-Length framing) on stdin/stdout. Open web maps are linted \
            as you type with the same rules as `maprules lint`: the services snapshot beside the file \
            (<map>.services.json or services.json) and the nearest .maprules.json apply, found from the file's \
            path. Diagnostics carry the rule ID as their code; hover a diagnostic for the rule's rationale and fix.

            Editors start it themselves. Neovim, for example:
              vim.lsp.start({ name = "maprules", cmd = { "maprules", "lsp" }, root_dir = vim.fn.getcwd() })
            VS Code: any generic LSP client extension, command `maprules lsp`, language `json`.
            """)

    @Flag(help: "Log each lint's duration to standard error.")
    var verbose = false

    public func run() throws {
        let server = LanguageServer()
        if verbose {
            server.onLint = { uri, seconds in
                FileHandle.standardError.write(Data("linted \(uri) in \(String(format: "%.1f", seconds * 1000)) ms\n".utf8))
            }
        }
        let code = server.run()
        if code != 0 { throw ExitCode(code) }
    }
}
