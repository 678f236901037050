import Foundation

/// Runs the built `maprules` executable and captures what it prints.
struct CLIResult: Sendable {
    var exitCode: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    /// The package root (two levels above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Third-party test data kept in the repository (`Tests/Fixtures`, see its README).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var executable: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("maprules"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("maprules"),
            packageRoot.appendingPathComponent(".build/debug/maprules"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    /// Runs `maprules ARGS` in `directory` (the package root by default), feeding `input` on standard input.
    /// With `timeout`, a process still running after that many seconds is terminated (SIGTERM), for commands
    /// such as `serve` that run until stopped when the behaviour under test regresses.
    static func run(_ arguments: [String], in directory: URL? = nil, input: Data? = nil,
                    environment: [String: String] = [:], timeout: Double? = nil) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "GITHUB_STEP_SUMMARY")
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { if process.isRunning { process.terminate() } }
        }
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so that a large output cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLIResult(exitCode: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `run` on a thread of its own, for async tests: waiting for a process must not hold one of the few
    /// threads every async test shares (long CLI tests starved other suites' HTTP tests into timeouts).
    static func detached(_ arguments: [String], in directory: URL? = nil, timeout: Double? = nil) async throws -> CLIResult {
        try await offThePool { try run(arguments, in: directory, timeout: timeout) }
    }

    /// `body` on a thread of its own (not the cooperative pool), awaited.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }
}
