import Foundation

/// Runs the built `maprules` executable (built by `swift test` with the rest of the package).
enum MapRulesTool {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var executable: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("maprules"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("maprules"),
            packageRoot.appendingPathComponent(".build/debug/maprules"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    struct Result: Sendable { var exitCode: Int32; var stdout: String; var stderr: String }

    /// Runs `maprules ARGS` in the package root on a thread of its own (not the cooperative pool).
    static func run(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result {
                    let process = Process()
                    process.executableURL = executable
                    process.arguments = arguments
                    process.currentDirectoryURL = packageRoot
                    let out = Pipe(), err = Pipe()
                    process.standardOutput = out
                    process.standardError = err
                    process.standardInput = FileHandle.nullDevice
                    try process.run()
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
                    return Result(exitCode: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                  stderr: String(decoding: errData, as: UTF8.self))
                })
            }
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Runs `body` with a fresh browser tab, closing the browser afterwards whatever happens.
func withBrowserPage<T>(width: Int = 1280, height: Int = 900, _ body: (BrowserPage) async throws -> T) async throws -> T {
    let browser = try Chromium.launch()
    defer { browser.close() }
    let page = try await BrowserPage.open(in: browser, width: width, height: height)
    return try await body(page)
}
