import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// The request log's writer (`LogLineWriter`): lines appended on the event loops, written by a thread of its own,
/// none lost and none reordered.
@Suite struct LogLineWriterTests {
    /// A file of its own for one test's lines, and the descriptor the writer writes to.
    final class LogFile: @unchecked Sendable {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-log-\(UUID().uuidString).txt").path
        let descriptor: Int32

        init() throws {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        deinit {
            close(descriptor)
            try? FileManager.default.removeItem(atPath: path)
        }

        var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        var lines: [Substring] { text.split(separator: "\n") }

        /// Waits (at most `seconds`) until `ready` holds for the file's text.
        func waitFor(seconds: Double = 10, _ ready: (String) -> Bool) async -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if ready(text) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return ready(text)
        }
    }

    /// Concurrent clients, each with its own sequence of requests: after the server stops and the log is flushed,
    /// every request has its line, each client's in the order it asked, in the format `maprules serve` writes.
    @Test func everyLineOfConcurrentRequestsIsWrittenInOrderAfterAStop() async throws {
        let file = try LogFile()
        // The thread never writes on its own here (an hour's delay, a buffer larger than the lines): only `flush` does.
        let writer = LogLineWriter(fileDescriptor: file.descriptor, delay: .seconds(3600), limit: 1 << 20)
        let logger = Logger(label: "test", factory: { ServeLogHandler(label: $0, lines: writer) })
        let clients = 8, requests = 25
        let app = try await Fixtures.app(logger: logger)
        try await app.test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for c in 0..<clients {
                    group.addTask {
                        for r in 0..<requests {
                            _ = try await client.execute(uri: "/arcgis/rest/services/client\(c)request\(r)/FeatureServer?f=json", method: .get)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(file.text.isEmpty, "the lines are written by the writer, not by each request")
        writer.flush()
        let lines = file.lines.filter { $0.contains("/arcgis/rest/services/client") }
        #expect(lines.count == clients * requests)
        for c in 0..<clients {
            let order = lines.compactMap { line -> Int? in
                guard let range = line.range(of: "client\(c)request") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            #expect(order == Array(0..<requests), "client \(c)")
        }
        for line in lines {
            // `2026-01-01T12:00:00Z GET /path STATUS 1.2ms user=anonymous`
            let parts = line.split(separator: " ")
            #expect(parts.count == 6 && parts[0].count == 20 && parts[0].hasSuffix("Z") && parts[1] == "GET"
                && parts[4].hasSuffix("ms") && parts[5] == "user=anonymous", "\(line)")
        }
    }

    /// Without `flush`, the thread writes the lines once the first has waited the delay.
    @Test func linesAreWrittenAfterTheDelay() async throws {
        let file = try LogFile()
        let writer = LogLineWriter(fileDescriptor: file.descriptor, delay: .milliseconds(20))
        for n in 0..<3 {
            writer.append { $0.append(contentsOf: "line \(n)\n".utf8) }
        }
        #expect(await file.waitFor { $0 == "line 0\nline 1\nline 2\n" })
        writer.append { $0.append(contentsOf: "line 3\n".utf8) }
        #expect(await file.waitFor { $0.hasSuffix("line 2\nline 3\n") })
    }

    /// A buffer of `limit` bytes is written at once, however long the delay.
    @Test func aFullBufferIsWrittenWithoutWaitingForTheDelay() async throws {
        let file = try LogFile()
        let writer = LogLineWriter(fileDescriptor: file.descriptor, delay: .seconds(3600), limit: 1000)
        let line = String(repeating: "x", count: 99) + "\n"
        for _ in 0..<5 { writer.append { $0.append(contentsOf: line.utf8) } }
        try await Task.sleep(for: .milliseconds(50))
        #expect(file.text.isEmpty)
        for _ in 0..<5 { writer.append { $0.append(contentsOf: line.utf8) } }
        #expect(await file.waitFor { $0.utf8.count == 1000 })
        writer.append { $0.append(contentsOf: "last\n".utf8) }
        writer.flush()
        #expect(file.text.utf8.count == 1005 && file.text.hasSuffix("x\nlast\n"))
    }

    /// Threads appending at once while the writer writes and others flush: every line once, each thread's in order.
    @Test func concurrentAppendsAndFlushesKeepEveryLineInOrder() async throws {
        let file = try LogFile()
        let writer = LogLineWriter(fileDescriptor: file.descriptor, delay: .milliseconds(1), limit: 512)
        let threads = 6, count = 2000
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for n in 0..<count {
                writer.append { $0.append(contentsOf: "\(t) \(n)\n".utf8) }
                if n % 500 == 0 { writer.flush() }
            }
        }
        writer.flush()
        let lines = file.lines
        #expect(lines.count == threads * count)
        var next = [Int](repeating: 0, count: threads)
        var inOrder = true
        for line in lines {
            let parts = line.split(separator: " ").compactMap { Int($0) }
            guard parts.count == 2, parts[1] == next[parts[0]] else { inOrder = false; break }
            next[parts[0]] += 1
        }
        #expect(inOrder && next == [Int](repeating: count, count: threads))
    }
}
