import Foundation
import Testing

/// What each executable links, read from the built binaries: the lint-side `maprules` carries no part of the
/// service stack, and an app that uses the runtime over HTTP (`runtime-client-example`) carries no storage engine.
/// Swift symbol names spell their module, so a module linked in leaves its name in the binary.
struct ModuleBoundaryTests {
    static func binary(_ name: String) throws -> Data {
        let url = CLI.executable.deletingLastPathComponent().appendingPathComponent(name)
        return try Data(contentsOf: url)
    }

    static func contains(_ data: Data, _ text: String) -> Bool { data.range(of: Data(text.utf8)) != nil }

    @Test func theRuntimeOverHTTPLinksNoStorageEngine() throws {
        let example = try Self.binary("runtime-client-example")
        #expect(Self.contains(example, "RemoteFeatureService"), "not the runtime client")
        for module in ["GRDB", "PostgresNIO", "HummingbirdBcrypt", "Hummingbird"] {
            #expect(!Self.contains(example, module), "runtime-client-example links \(module)")
        }
    }

    @Test func theLintExecutableLinksNoServiceStack() throws {
        let lint = try Self.binary("maprules")
        #expect(Self.contains(lint, "LintCommands"))
        for module in ["GRDB", "PostgresNIO", "Hummingbird", "NIOPosix", "AsyncHTTPClient", "FeatureServiceModel"] {
            #expect(!Self.contains(lint, module), "maprules links \(module)")
        }
    }

    @Test func theCompleteCommandLineHasEveryCommand() throws {
        let complete = CLI.executable.deletingLastPathComponent().appendingPathComponent("maprules-service")
        let process = Process()
        process.executableURL = complete
        process.arguments = ["--help"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for command in ["lint", "validate", "explain", "inspect", "serve", "edit", "offline", "lsp"] {
            #expect(text.contains("  \(command) "), "maprules-service --help lacks \(command)")
        }
    }
}
