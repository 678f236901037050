import Foundation
import Testing

/// The static binary (`swift build -c release --static-swift-stdlib --product maprules-service`, the complete
/// command line published as `maprules`, see
/// Benchmarks/static-binary.sh) copied alone into an empty folder and run with an empty environment: no Swift
/// runtime, no Foundation library, no schema or sample file beside it. Runs when `MAPRULES_STATIC_BINARY` names
/// such a binary (the script sets it): a second full build is more than `.ci/run`'s 30 minutes allow.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MAPRULES_STATIC_BINARY"] != nil, "MAPRULES_STATIC_BINARY is not set"))
struct StaticBinaryTests {
    static var binary: String { ProcessInfo.processInfo.environment["MAPRULES_STATIC_BINARY"] ?? "" }

    /// Runs `program ARGS` with an empty environment in `folder`.
    static func run(_ program: String, _ arguments: [String], in folder: URL, seconds: Double = 60) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["-i", program] + arguments
        process.currentDirectoryURL = folder
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return CLIResult(exitCode: process.terminationStatus,
                         stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                         stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func itLinksNoSwiftRuntimeAndNoFoundationLibrary() throws {
        let ldd = try Self.run("/usr/bin/ldd", [Self.binary], in: URL(fileURLWithPath: "/"))
        #expect(ldd.exitCode == 0, "\(ldd.stderr)")
        for name in ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libicu"] {
            #expect(!ldd.stdout.contains(name), "ldd lists \(name): \(ldd.stdout)")
        }
        // Nothing beyond what every glibc system with a C++ runtime has (SQLite is linked in: Package.swift).
        let everywhere = ["linux-vdso", "libc.so", "libm.so", "libz.so", "libstdc++.so", "libgcc_s.so", "ld-linux"]
        for line in ldd.stdout.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            #expect(everywhere.contains { line.contains($0) }, "ldd lists a library a user may not have: \(line)")
        }
    }

    @Test func itRunsAloneInAnEmptyFolderWithAnEmptyEnvironment() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("maprules")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.binary), to: copy)
        let name = try Self.run(copy.path, ["version-name", "MyWork", "--owner", "editor01"], in: folder)
        #expect(name.exitCode == 0, "\(name.stderr)")
        #expect(name.stdout.contains("editor01.MyWork"))
        // The rule catalogue and the schemas are inside it.
        #expect(try Self.run(copy.path, ["rules", "--format", "json"], in: folder).stdout.contains("popup/unknown-field"))
        let map = folder.appendingPathComponent("map.json")
        try Data(#"{"operationalLayers": [], "baseMap": {"baseMapLayers": []}, "spatialReference": {"wkid": 102100}, "version": "2.31"}"#.utf8).write(to: map)
        let validate = try Self.run(copy.path, ["validate", "--schema", "webmap", "map.json"], in: folder)
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        let lint = try Self.run(copy.path, ["lint", "map.json", "--format", "json"], in: folder)
        #expect(lint.stdout.contains("map/no-operational-layers"), "\(lint.stderr)")
        // The shipped samples too: `serve` with no folder serves them (stopped after it printed its port).
        let serve = try Self.run(copy.path, ["serve", "--port", "0", "--database", ":memory:"], in: folder, seconds: 5)
        #expect(serve.stdout.contains("TreesOfPortland: http://127.0.0.1:"), "\(serve.stdout)\(serve.stderr)")
    }
}
