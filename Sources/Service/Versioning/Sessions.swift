import Foundation

/// Read and edit sessions on versions (startReading / startEditing), kept in memory like a server's locks.
final class SessionRegistry: @unchecked Sendable {
    struct VersionLocks {
        /// Session id -> user name (nil for anonymous).
        var readers: [String: String?] = [:]
        var editor: (session: String, user: String?, startMoment: Int64)?

        /// True when no session holds a lock, or every lock is `session`'s and was taken by `user`.
        func areAllHeld(by session: String?, user: String?) -> Bool {
            func isOwn(_ holder: String, _ holderUser: String?) -> Bool {
                holder == session && holderUser?.lowercased() == user?.lowercased()
            }
            if let editor, !isOwn(editor.session, editor.user) { return false }
            return readers.allSatisfy { isOwn($0.key, $0.value) }
        }
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

    /// Drops every lock of a deleted version.
    func forget(_ guid: String) {
        lock.lock()
        defer { lock.unlock() }
        locks[guid] = nil
    }

    func snapshot(_ guid: String) -> VersionLocks {
        lock.lock()
        defer { lock.unlock() }
        return locks[guid] ?? VersionLocks()
    }
}
