import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `maprules serve --port 0 --database :memory:` in the background (the shipped samples and sample users, as a
/// new user starts it), for pages a browser walks to.
final class ServedSamples: @unchecked Sendable {
    let process = Process()
    let baseURL: String
    private let output = Pipe()

    /// Starts the server and waits (at most 120 s) for the port it prints.
    init(arguments: [String] = []) throws {
        process.executableURL = MapRulesTool.executable
        process.arguments = ["serve", "--port", "0", "--database", ":memory:"] + arguments
        process.currentDirectoryURL = MapRulesTool.packageRoot
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seen = ""
        let deadline = Date().addingTimeInterval(120)
        var port: Int?
        while port == nil, Date() < deadline, process.isRunning {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            for line in seen.split(separator: "\n") where line.hasPrefix("  port: ") {
                port = Int(line.dropFirst("  port: ".count).trimmingCharacters(in: .whitespaces))
            }
        }
        guard let port else {
            process.terminate()
            throw BrowserError(description: "maprules serve did not print its port: \(seen)")
        }
        baseURL = "http://127.0.0.1:\(port)"
        // Keep draining the request log so that the server never blocks on a full pipe.
        let handle = output.fileHandleForReading
        Thread.detachNewThread { while !handle.availableData.isEmpty {} }
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A JSON request to the server (outside the browser), e.g. to make a version a page should show.
    func json(_ path: String, form: [String: String]) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&").utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
