import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite struct ServeCommandTests {
    @Test func postgresIsNotSupportedYet() throws {
        let result = try CLI.run(["serve", "--postgres", "postgres://localhost/maprules"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("--postgres is not supported yet"))
    }

    @Test func badOptionsExit2() throws {
        #expect(try CLI.run(["serve", "--body-limit", "lots"]).exitCode == 2)
        #expect(try CLI.run(["serve", "--port", "70000"]).exitCode == 2)
        #expect(try CLI.run(["serve", "/no/such/folder"]).exitCode == 2)
    }

    /// `maprules serve --port 0` prints its URLs and warnings, answers /health, logs the request, and
    /// stops cleanly on SIGINT.
    @Test func servesOnAFreePortAndStopsOnSIGINT() async throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--port", "0", "--database", ":memory:"]
        process.currentDirectoryURL = CLI.packageRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Read standard output until the port line.
        var printed = ""
        var port: Int?
        let deadline = Date().addingTimeInterval(60)
        while port == nil, Date() < deadline, process.isRunning {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { try await Task.sleep(for: .milliseconds(50)); continue }
            printed += String(decoding: chunk, as: UTF8.self)
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("  port: ") }) {
                port = Int(line.dropFirst("  port: ".count))
            }
            if port != nil && !printed.contains("Listening;") { port = nil }
        }
        let bound = try #require(port, "no port printed: \(printed)")
        #expect(printed.contains("http://127.0.0.1:\(bound)/arcgis/rest/services/TreesOfPortland/FeatureServer"))
        #expect(printed.contains("http://127.0.0.1:\(bound)/arcgis/rest/services/DamageAssessment/VersionManagementServer"))
        #expect(printed.contains("warning: Using the sample credentials"))

        let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(bound)/health")!)
        #expect(String(decoding: data, as: UTF8.self).contains("\"ok\""))

        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(rest.contains("stopped"))
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /health 200"))
    }
}
