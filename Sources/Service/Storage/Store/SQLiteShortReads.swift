import Foundation
import GRDB

/// Read-only connections of their own to a database file in WAL mode, for the one-statement short reads of
/// `SQLiteStore.answerAloneOnCallingThread` (a page of DEFAULT, the server's most frequent request).
///
/// A read through the store's `DatabasePool` costs about a third of such a page's CPU in GRDB itself: the pool's
/// checkout (a semaphore and a lock), a `PRAGMA schema_version` on every read to keep GRDB's schema cache fresh,
/// and BEGIN and COMMIT. A statement in autocommit mode is its own snapshot, and these statements need no GRDB schema
/// introspection, so a read here is a `DatabaseQueue`'s `unsafeRead`: the connection's serial queue and the
/// statement, nothing else. A connection is taken from the idle ones under a lock (or opened, read-only, on first
/// use by each concurrent caller) and given back after the read; at most `keptIdle` are kept.
final class SQLiteShortReads: @unchecked Sendable {
    private let path: String
    private let configuration: GRDB.Configuration
    private let lock = NSLock()
    private var idle: [DatabaseQueue] = []
    private var closed = false
    /// Idle connections kept for the next reads; one a concurrent caller (the server reads on its event loops, one
    /// a core) is what a server uses.
    static let keptIdle = 16

    /// `configuration` is the store's (its `prepareDatabase` included); the connections open read-only.
    init(path: String, configuration: GRDB.Configuration) {
        self.path = path
        var readOnly = configuration
        readOnly.readonly = true
        self.configuration = readOnly
    }

    /// `body` run on one of the connections, synchronously on the calling thread's behalf, with no transaction; nil
    /// once closed.
    func read<T>(_ body: (Database) throws -> T) throws -> T? {
        guard let queue = try take() else { return nil }
        defer { giveBack(queue) }
        return try queue.unsafeRead(body)
    }

    private func take() throws -> DatabaseQueue? {
        let (isClosed, found): (Bool, DatabaseQueue?) = lock.withLock { (closed, idle.popLast()) }
        if isClosed { return nil }
        if let found { return found }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    private func giveBack(_ queue: DatabaseQueue) {
        let kept = lock.withLock { () -> Bool in
            guard !closed, idle.count < Self.keptIdle else { return false }
            idle.append(queue)
            return true
        }
        if !kept { try? queue.close() }
    }

    /// Closes the idle connections; reads after this answer nil.
    func close() {
        let queues = lock.withLock { () -> [DatabaseQueue] in
            closed = true
            defer { idle.removeAll() }
            return idle
        }
        for queue in queues { try? queue.close() }
    }
}
