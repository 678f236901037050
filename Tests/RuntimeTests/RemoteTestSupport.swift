import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
@testable import Runtime
import Server
import Service
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import FeatureServiceModel
@testable import LocalFeatureService
import WebMap
#endif

/// The repository's Samples folder, found from this file's path.
enum RemoteSamples {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("Samples")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("users.json").path) { return candidate.path }
        }
        return "Samples"
    }()
    static var folders: [String] { [folder + "/TreesOfPortland", folder + "/DamageAssessment"] }
    static var usersFile: String { folder + "/users.json" }
}

let remoteTestLogger = Logger(label: "runtime-tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// Runs the test's jobs on Dispatch's threads instead of the concurrency pool. In `swift test` every suite
/// shares one process, and the pool has a thread per core (2 here): suites that block their thread (the CLI
/// tests wait for child processes) stall everything else for many seconds, which would make a 1 s timeout
/// look like 16 s and starve the test servers. Dispatch adds threads when some block.
@available(macOS 15.0, *)
final class DispatchTaskExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = DispatchTaskExecutor()
    private let queue = DispatchQueue(label: "runtime-tests", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// `body` with its jobs, and those of its child tasks and of the actors it calls, on `DispatchTaskExecutor`.
func offThePool<T>(_ body: () async throws -> T) async throws -> T {
    if #available(macOS 15.0, *) {
        return try await withTaskExecutorPreference(DispatchTaskExecutor.shared) { try await body() }
    }
    return try await body()
}

/// An unstructured task whose jobs run on `DispatchTaskExecutor` from its first one. `Task { offThePool {...} }`
/// is not enough: an unstructured task does not inherit the executor preference, so its first job waits for a
/// pool thread, and with both blocked by CLI tests it waited over a minute (a 0.2 s cancellation took 77 s).
func offThePoolTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
    if #available(macOS 15.0, *) {
        return Task(executorPreference: DispatchTaskExecutor.shared) { try await body() }
    }
    return Task { try await body() }
}

/// Runs `body` while every thread of the concurrency pool is held (blocked on a semaphore), as the CLI tests'
/// process waits hold them in a full `swift test`: whatever `body` needs from the pool waits until `body`
/// ends or `holdAtMost` has passed, whichever is first (so a regression shows as a slow `body`, not a hang).
func withConcurrencyPoolHeld<T>(holdAtMost: Duration = .seconds(30), _ body: () async throws -> T) async throws -> T {
    let width = ProcessInfo.processInfo.activeProcessorCount
    let hold = Double(holdAtMost.components.seconds)
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    for _ in 0..<width {
        Task.detached {
            started.signal()
            _ = release.wait(timeout: .now() + hold)
        }
    }
    defer { for _ in 0..<width { release.signal() } }
    // The holders may wait for threads that other tests hold: the pool is held either way.
    for _ in 0..<width { _ = started.wait(timeout: .now() + hold) }
    return try await body()
}

/// A Hummingbird application run for a test in a task with no task executor preference, stopped by a graceful
/// shutdown of its service group.
///
/// Run on `DispatchTaskExecutor` (`offThePoolTask`), a server could deadlock the whole test process (seen three times
/// in full `swift test` runs, every async test then hung): Hummingbird's date cache iterates a `merge`
/// (swift-async-algorithms' `cancelOnGracefulShutdown`), whose `next()` holds the merge's lock across the switch to
/// the preferred executor, and under a preference that switch takes the task's status lock; a service group that
/// cancels its children (when the server's service ends, even after a graceful shutdown) holds that status lock while
/// the merge's cancellation handler waits for the merge's lock. Without a preference the switch takes no status lock.
/// The server's requests still run off the concurrency pool: each connection prefers its event loop
/// (`EventLoopConnections`), and no merge runs there. `maprules serve` runs its service group with no preference too.
final class TestServerRun: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts `app`; `finished` is called when it has stopped (or failed to start).
    init<App: ApplicationProtocol & Sendable>(_ app: App, finished: @escaping @Sendable () -> Void = {}) {
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], cancellationSignals: [],
                                                      logger: remoteTestLogger))
        self.group = group
        task = Task.detached {
            defer { finished() }
            try await group.run()
        }
    }

    /// How the run ended (awaited: a server that failed to start ends on its own).
    var result: Result<Void, any Error> { get async { await task.result } }

    /// Stops the server (open requests are answered first, idle connections closed) and waits until it has stopped.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

/// Runs `body` with an HTTP server on a loopback port the system picks, then stops it. `body` gets the
/// port; the server's start is awaited (and its failure to start reported), never slept for.
func withLoopbackServer<App: ApplicationProtocol & Sendable, T>(_ make: (_ onRunning: @escaping @Sendable (Int) async -> Void) throws -> App,
                                              _ body: (Int) async throws -> T) async throws -> T {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = try make { port in continuation.yield(port) }
    let server = TestServerRun(app) { continuation.finish() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
        let outcome = await server.result
        throw RuntimeError(RuntimeError.Identifier.unreachable, "The test server did not start: \(outcome)")
    }
    do {
        let result = try await body(port)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// `maprules serve` in-process (a fresh in-memory core with both samples and the samples' users); `body`
/// gets the site URL, `http://127.0.0.1:<port>/arcgis`.
func withMapRulesServer<T>(_ body: (String) async throws -> T) async throws -> T {
    let core = try await ServiceCore.open(.init(database: ":memory:", sampleFolders: RemoteSamples.folders, usersFile: RemoteSamples.usersFile))
    return try await withLoopbackServer({ onRunning in
        try MapRulesServer.application(core: core, options: .init(host: "127.0.0.1", port: 0), logger: remoteTestLogger) { running in
            await onRunning(running.port)
        }
    }) { port in try await body("http://127.0.0.1:\(port)/arcgis") }
}

/// A `RemoteFeatureService` for `body`, shut down afterwards whatever happens.
func withRemote<T>(_ url: String, credential: Credential? = nil, timeout: Duration = .seconds(30),
                   _ body: (RemoteFeatureService) async throws -> T) async throws -> T {
    let service = try RemoteFeatureService(url: url, credential: credential, timeout: timeout)
    do {
        let result = try await offThePool { try await body(service) }
        try await service.shutdown()
        return result
    } catch {
        try? await service.shutdown()
        throw error
    }
}

/// A TCP port on loopback that accepts connections (the kernel completes them) and never answers: a
/// request to it can only end by its timeout. `close()` stops it; a closed one is a port nobody listens on.
final class SilentListener: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            if descriptor >= 0 { Self.closeDescriptor(descriptor) }
            throw RuntimeError(RuntimeError.Identifier.unreachable, "could not open a loopback socket")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Self.closeDescriptor(descriptor) }

    private static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// A loopback port that was just free: connecting to it is refused.
    static func closedPort() throws -> Int {
        let listener = try SilentListener()
        listener.close()
        return listener.port
    }
}

/// Runs `body`, answering how long it took and its outcome.
func measured<T>(_ body: () async throws -> T) async -> (seconds: Double, result: Result<T, any Error>) {
    let start = ContinuousClock.now
    let result: Result<T, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, result)
}

/// The `RuntimeError` a call failed with (a test failure message when it did not fail that way).
func remoteError<T>(_ body: () async throws -> T) async -> RuntimeError? {
    do {
        _ = try await body()
        return nil
    } catch let error as RuntimeError {
        return error
    } catch {
        return RuntimeError("not-a-runtime-error", "\(type(of: error)): \(error)")
    }
}
