import Foundation

/// Log lines written to a file descriptor by a thread of their own, so that a request's line costs its event loop
/// an append to a buffer, not a `write` system call (one a request was 1.5-2 % of a page's CPU).
///
/// The buffer is written, in the order the lines were appended, when it has waited `delay` since its first line, as
/// soon as it holds `limit` bytes, and whenever `flush()` is called (`flush` returns once every line appended before
/// it is written). `LogLineWriter.standardError` is also flushed by `exit` (an `atexit` handler) and `maprules serve`
/// flushes it after its graceful stop (SIGINT, SIGTERM); only a process killed outright (SIGKILL, a crash) can lose
/// the lines of its last `delay`.
///
/// ```swift
/// let writer = LogLineWriter(fileDescriptor: 2)
/// writer.append { $0.append(contentsOf: "GET /health 200 0.1ms user=anonymous\n".utf8) }
/// writer.flush()
/// ```
public final class LogLineWriter: @unchecked Sendable {
    /// Standard error, as `maprules serve`'s log (`ServeLogHandler`) writes it.
    public static let standardError: LogLineWriter = {
        let writer = LogLineWriter(fileDescriptor: 2)
        atexit { LogLineWriter.standardError.flush() }
        return writer
    }()

    public let fileDescriptor: Int32
    /// How long the first line of a buffer may wait for the thread's write.
    public let delay: Duration
    /// The size (bytes) at which the buffer is written without waiting for `delay`.
    public let limit: Int

    /// Guards `pending`, `spare`, `threadStarted` and `writerWaitsForLines`.
    private let condition = NSCondition()
    /// Held while a buffer is taken and written: lines reach the descriptor in the order they were appended.
    private let writing = NSLock()
    private var pending: [UInt8] = []
    /// An empty buffer with the capacity of one already written.
    private var spare: [UInt8] = []
    private var threadStarted = false
    /// True while the thread waits, with no deadline, for a first line (the one wait an append must signal).
    private var writerWaitsForLines = false

    public init(fileDescriptor: Int32, delay: Duration = .milliseconds(50), limit: Int = 64 * 1024) {
        self.fileDescriptor = fileDescriptor
        self.delay = delay
        self.limit = max(1, limit)
    }

    /// Appends one or more whole lines: `body` adds their bytes to the pending buffer (under its lock: keep it short).
    public func append(_ body: (inout [UInt8]) -> Void) {
        condition.lock()
        body(&pending)
        if !threadStarted {
            threadStarted = true
            let thread = Thread { [self] in run() }
            thread.name = "log writer"
            thread.start()
        }
        // Wake the thread only from its wait for a first line, or when the buffer is full (never for each line).
        if writerWaitsForLines || pending.count >= limit { condition.signal() }
        condition.unlock()
    }

    /// Writes every line appended before the call, on the calling thread, before it returns.
    public func flush() {
        writing.lock()
        defer { writing.unlock() }
        condition.lock()
        var lines = spare
        swap(&lines, &pending)
        condition.unlock()
        write(lines)
        // The written buffer, emptied, is the next one's storage (no allocation a batch).
        lines.removeAll(keepingCapacity: true)
        condition.lock()
        spare = lines
        condition.unlock()
    }

    /// The thread: waits for a first line, then for `delay` (or a full buffer), then writes what is pending.
    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty {
                writerWaitsForLines = true
                condition.wait()
                writerWaitsForLines = false
            }
            let components = delay.components
            let deadline = Date(timeIntervalSinceNow: Double(components.seconds) + Double(components.attoseconds) / 1e18)
            while pending.count < limit && !pending.isEmpty {
                if !condition.wait(until: deadline) { break }
            }
            condition.unlock()
            flush()
        }
    }

    /// One `write` at a time until every byte is out (interrupted writes retried); a descriptor that refuses the
    /// bytes (closed, full disk) loses them, as a `write` a line did.
    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
