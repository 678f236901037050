import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite struct ServeCommandTests {
    @Test func postgresThatCannotBeReachedOrReadExits2() throws {
        // Port 1 on loopback: nothing listens there.
        let unreachable = try CLI.run(["serve", "--port", "0", "--postgres", "postgres://maprules:secret@127.0.0.1:1/maprules"])
        #expect(unreachable.exitCode == 2)
        #expect(unreachable.stderr.contains("Cannot connect to PostgreSQL at postgres://maprules:***@127.0.0.1:1/maprules"), "\(unreachable.stderr)")
        #expect(!unreachable.stderr.contains("secret"))
        let notAURL = try CLI.run(["serve", "--postgres", "mysql://127.0.0.1/maprules"])
        #expect(notAURL.exitCode == 2)
        #expect(notAURL.stderr.contains("is not a PostgreSQL URL"), "\(notAURL.stderr)")
        #expect(try CLI.run(["serve", "--postgres", "postgres://127.0.0.1/x", "--postgres-connections", "0"]).exitCode == 2)
    }

    @Test func badOptionsExit2() throws {
        #expect(try CLI.run(["serve", "--body-limit", "lots"]).exitCode == 2)
        #expect(try CLI.run(["serve", "--port", "70000"]).exitCode == 2)
        #expect(try CLI.run(["serve", "/no/such/folder"]).exitCode == 2)
    }

    /// A running `maprules serve` and what it printed up to "Listening;".
    struct RunningServe {
        let process: Process
        let out: Pipe
        let err: Pipe
        let port: Int
        let printed: String

        /// Starts `executable serve ARGS` in `directory` and waits (up to a minute) for its port.
        static func start(_ arguments: [String], in directory: URL = CLI.packageRoot, executable: URL = CLI.executable) async throws -> RunningServe {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["serve"] + arguments
            process.currentDirectoryURL = directory
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
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
            guard let port else {
                if process.isRunning { process.terminate() }
                let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw CLIError("no port printed: \(printed) \(log)")
            }
            return RunningServe(process: process, out: out, err: err, port: port, printed: printed)
        }

        /// GETs `path` (below the base URL) and answers the body.
        func get(_ path: String) async throws -> String {
            let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            return String(decoding: data, as: UTF8.self)
        }

        /// SIGINT, then the exit status, the rest of standard output and the request log.
        func stop() -> (status: Int32, rest: String, log: String) {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, rest, log)
        }
    }

    struct CLIError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// `maprules serve --port 0` prints its URLs and warnings, answers /health, logs the request, and
    /// stops cleanly on SIGINT.
    @Test func servesOnAFreePortAndStopsOnSIGINT() async throws {
        let serve = try await RunningServe.start(["--port", "0", "--database", ":memory:"])
        defer { if serve.process.isRunning { serve.process.terminate() } }
        let bound = serve.port
        #expect(serve.printed.contains("http://127.0.0.1:\(bound)/arcgis/rest/services/TreesOfPortland/FeatureServer"))
        #expect(serve.printed.contains("http://127.0.0.1:\(bound)/arcgis/rest/services/DamageAssessment/VersionManagementServer"))
        #expect(serve.printed.contains("warning: Using the sample credentials"))

        #expect(try await serve.get("/health").contains("\"ok\""))

        let stopped = serve.stop()
        #expect(stopped.status == 0)
        #expect(stopped.rest.contains("stopped"))
        #expect(stopped.log.contains("GET /health 200"))
    }

    /// With no DIR the shipped samples come from the binary itself: a copy of it, run from an empty
    /// folder, serves both samples with their users, and keeps its database under that folder.
    @Test func servesTheBuiltInSamplesFromAnyFolder() async throws {
        let elsewhere = try CLI.temporaryDirectory(), workingDirectory = try CLI.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: elsewhere)
            try? FileManager.default.removeItem(at: workingDirectory)
        }
        let copy = elsewhere.appendingPathComponent("maprules")
        try FileManager.default.copyItem(at: CLI.executable, to: copy)

        let serve = try await RunningServe.start(["--port", "0"], in: workingDirectory, executable: copy)
        defer { if serve.process.isRunning { serve.process.terminate() } }
        #expect(serve.printed.contains("/arcgis/rest/services/TreesOfPortland/FeatureServer"), "\(serve.printed)")
        #expect(serve.printed.contains("/arcgis/rest/services/DamageAssessment/VersionManagementServer"))
        #expect(serve.printed.contains("warning: Using the sample credentials"))

        let samples = CLI.packageRoot.appendingPathComponent("Samples")
        for (service, layer) in [("TreesOfPortland", 0), ("TreesOfPortland", 3), ("DamageAssessment", 0)] {
            let file = try Data(contentsOf: samples.appendingPathComponent("\(service)/features/\(layer).json"))
            let expected = try #require((try CLI.json(String(decoding: file, as: UTF8.self)) as? [String: Any])?["features"] as? [Any]).count
            let answer = try await serve.get("/arcgis/rest/services/\(service)/FeatureServer/\(layer)/query?where=1%3D1&returnCountOnly=true&f=json")
            let count = (try CLI.json(answer) as? [String: Any])?["count"] as? Int
            #expect(count == expected, "\(service)/\(layer): \(answer)")
        }
        // The portal serves the built-in web maps as items.
        let search = try await serve.get("/arcgis/sharing/rest/search?q=type%3A%22Web%20Map%22&f=json")
        #expect(search.contains("TreesOfPortland") && search.contains("DamageAssessment"), "\(search)")
        // The sample users sign in.
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(serve.port)/arcgis/sharing/rest/generateToken")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("username=admin&password=sample-admin&f=json".utf8)
        let (token, _) = try await URLSession.shared.data(for: request)
        #expect(String(decoding: token, as: UTF8.self).contains("\"token\""))

        #expect(serve.stop().status == 0)
        // --database keeps its default below the working directory.
        #expect(FileManager.default.fileExists(atPath: workingDirectory.appendingPathComponent(".maprules/service.sqlite").path))
    }
}
