// Headless Chromium driven over the DevTools protocol through `--remote-debugging-pipe` (file descriptors 3 and
// 4, messages separated by NUL): no port, no WebSocket library, nothing but the browser from Debian's packages.
// Written here because Foundation's `Process` cannot hand a child extra descriptors; posix_spawn can.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

struct BrowserError: Error, CustomStringConvertible {
    var description: String
}

/// Where Chromium is, or why the browser tests cannot run.
enum ChromiumLocation {
    static let candidates = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// `MAPRULES_CHROMIUM`, else the first candidate on `PATH`.
    static var executable: String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["MAPRULES_CHROMIUM"], !path.isEmpty { return path }
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in candidates where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") { return "\(folder)/\(name)" }
        }
        return nil
    }

    /// The browser tests run when Chromium is installed, and must run (failing without it) when
    /// `MAPRULES_REQUIRE_BROWSER` is set, as `.ci/run` sets it.
    static var testsEnabled: Bool {
        executable != nil || ProcessInfo.processInfo.environment["MAPRULES_REQUIRE_BROWSER"] != nil
    }
}

/// A DevTools message (JSON object) passed between the reader thread and the tasks waiting for it.
struct Message: @unchecked Sendable {
    var object: [String: Any]
}

/// One headless Chromium process and its DevTools connection.
final class Chromium: @unchecked Sendable {
    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: URL
    private let lock = NSLock()
    private var nextId = 1
    private var waiting: [Int: CheckedContinuation<Message, Error>] = [:]
    private var events: [(method: String, sessionId: String?, params: [String: Any])] = []
    private var closed = false
    private var reader: Thread?

    /// Starts the browser. Throws when Chromium is not installed (with how to install it) or does not start.
    static func launch() throws -> Chromium {
        guard let executable = ChromiumLocation.executable else {
            throw BrowserError(description: "Chromium was not found on PATH: install it (apt-get install chromium) or set MAPRULES_CHROMIUM")
        }
        return try Chromium(executable: executable)
    }

    private init(executable: String) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw BrowserError(description: "pipe() failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The browser reads commands on 3 and writes answers on 4; its own output goes nowhere.
        posix_spawn_file_actions_adddup2(&actions, input[0], 3)
        posix_spawn_file_actions_adddup2(&actions, output[1], 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for fd in [input[1], output[0]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let arguments = [
            executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--hide-scrollbars", "--mute-audio", "--force-color-profile=srgb",
            "--user-data-dir=\(profile.path)", "about:blank",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, &argv, environ)
        Glibc.close(input[0])
        Glibc.close(output[1])
        guard status == 0 else {
            Glibc.close(input[1]); Glibc.close(output[0])
            throw BrowserError(description: "could not start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        toBrowser = input[1]
        fromBrowser = output[0]
        let thread = Thread { [weak self] in self?.readLoop() }
        thread.name = "chromium-devtools"
        reader = thread
        thread.start()
    }

    deinit { close() }

    /// Ends the browser and removes its profile.
    func close() {
        lock.lock()
        let wasClosed = closed
        closed = true
        let pending = Array(waiting.values)
        waiting.removeAll()
        lock.unlock()
        if wasClosed { return }
        for continuation in pending { continuation.resume(throwing: BrowserError(description: "the browser was closed")) }
        Glibc.close(toBrowser)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends one DevTools command and waits for its answer (at most `timeout` seconds).
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: Double = 30) async throws -> [String: Any] {
        lock.lock()
        let id = nextId
        nextId += 1
        lock.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = try JSONSerialization.data(withJSONObject: message)
        bytes.append(0)
        let data = bytes
        let answer = try await withTimeout(timeout, what: method, onTimeout: { [self] in
            lock.lock()
            let continuation = waiting.removeValue(forKey: id)
            lock.unlock()
            continuation?.resume(throwing: BrowserError(description: "\(method): no answer within \(Int(timeout)) s"))
        }) { [self] in
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Message, Error>) in
                lock.lock()
                if closed {
                    lock.unlock()
                    continuation.resume(throwing: BrowserError(description: "the browser was closed"))
                    return
                }
                waiting[id] = continuation
                lock.unlock()
                data.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let n = write(toBrowser, buffer.baseAddress! + offset, buffer.count - offset)
                        if n <= 0 { break }
                        offset += n
                    }
                }
            }
        }
        if let error = answer.object["error"] as? [String: Any] {
            throw BrowserError(description: "\(method): \(error["message"] ?? error)")
        }
        return answer.object["result"] as? [String: Any] ?? [:]
    }

    /// Every event seen so far for `session`, oldest first.
    func seenEvents(session: String?) -> [(method: String, params: [String: Any])] {
        lock.lock()
        defer { lock.unlock() }
        return events.filter { $0.sessionId == session }.map { ($0.method, $0.params) }
    }

    private func readLoop() {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fromBrowser, &chunk, chunk.count)
            if n <= 0 { break }
            buffer.append(contentsOf: chunk[0..<n])
            while let end = buffer.firstIndex(of: 0) {
                let message = Data(buffer[0..<end])
                buffer.removeSubrange(0...end)
                if let object = (try? JSONSerialization.jsonObject(with: message)) as? [String: Any] { dispatch(object) }
            }
        }
        Glibc.close(fromBrowser)
        lock.lock()
        let pending = Array(waiting.values)
        waiting.removeAll()
        closed = true
        lock.unlock()
        for continuation in pending { continuation.resume(throwing: BrowserError(description: "the browser ended")) }
    }

    private func dispatch(_ object: [String: Any]) {
        lock.lock()
        if let id = object["id"] as? Int {
            let continuation = waiting.removeValue(forKey: id)
            lock.unlock()
            continuation?.resume(returning: Message(object: object))
            return
        }
        guard let method = object["method"] as? String else { lock.unlock(); return }
        let session = object["sessionId"] as? String
        let params = object["params"] as? [String: Any] ?? [:]
        events.append((method, session, params))
        if events.count > 10_000 { events.removeFirst(events.count - 10_000) }
        lock.unlock()
    }
}

/// Runs `body`, failing after `seconds` (and running `onTimeout`, which must end the body's wait).
func withTimeout<T: Sendable>(_ seconds: Double, what: String, onTimeout: (@Sendable () -> Void)? = nil,
                              _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return nil
        }
        defer { group.cancelAll() }
        while let result = try await group.next() {
            if let result { return result }
            onTimeout?()
            throw BrowserError(description: "\(what): no answer within \(Int(seconds)) s")
        }
        throw BrowserError(description: "\(what): no answer")
    }
}
