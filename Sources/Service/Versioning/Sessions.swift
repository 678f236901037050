import Foundation

/// Read and edit sessions on versions (startReading / startEditing), kept in memory like a server's locks.
final class SessionRegistry: @unchecked Sendable {
    struct VersionLocks {
        /// Session id -> user name (nil for anonymous).
        var readers: [String: String?] = [:]
        var editor: (session: String, user: String?, startMoment: Int64)?
    }

    private let lock = NSLock()
    private var locks: [String: VersionLocks] = [:]

    func with<T>(_ guid: String, _ body: (inout VersionLocks) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        var entry = locks[guid] ?? VersionLocks()
        defer { locks[guid] = entry }
        return try body(&entry)
    }

    func snapshot(_ guid: String) -> VersionLocks {
        lock.lock()
        defer { lock.unlock() }
        return locks[guid] ?? VersionLocks()
    }
}
