import Foundation
import FeatureServiceModel
import WebMap

/// Read and edit sessions on versions (startReading / startEditing). On a store of its own (SQLite) they are
/// kept in memory like a server's locks; on a store several servers share (PostgreSQL) they are rows of the
/// `versionLock` table, read and changed inside the caller's transaction, so that every server sees the same
/// locks and two servers cannot both grant an exclusive lock (writes are serialized by the store).
///
/// A session's locks live as long as the server that granted its first lock, on either store: a SQLite server's
/// die with its process; in PostgreSQL each session is stamped with its server's key (`Store.serverKey`),
/// and the locks of a session whose server no longer holds its presence lock (the process died, or its
/// connection did) are dropped by whichever server next reads them. A dead server never leaves a version locked.
final class SessionRegistry: @unchecked Sendable {
    struct VersionLocks: Codable {
        struct Editor: Codable {
            var session: String
            var user: String?
            var startMoment: Int64
        }
        /// Session id -> user name (nil for anonymous).
        var readers: [String: String?] = [:]
        var editor: Editor?
        /// Session id -> the key of the server that granted its first lock (shared store only; absent in entries
        /// written before servers were tracked, which are kept as they are).
        var servers: [String: Int32]?

        var isEmpty: Bool { readers.isEmpty && editor == nil }

        /// True when no session holds a lock, or every lock is `session`'s and was taken by `user`.
        func areAllHeld(by session: String?, user: String?) -> Bool {
            func isOwn(_ holder: String, _ holderUser: String?) -> Bool {
                holder == session && holderUser?.lowercased() == user?.lowercased()
            }
            if let editor, !isOwn(editor.session, editor.user) { return false }
            return readers.allSatisfy { isOwn($0.key, $0.value) }
        }
    }

    /// True when the locks live in the store's `versionLock` table.
    var isShared: Bool { serverKey != nil }
    /// This server's key when the locks are shared (`Store.serverKey`).
    let serverKey: Int32?
    /// The store the locks are shared through, which tells which servers are alive.
    private let store: any Store
    private let lock = NSLock()
    private var locks: [String: VersionLocks] = [:]

    /// Locks shared through `store` when it shares sessions between servers (`Store.sharesSessionsBetweenServers`),
    /// else kept in this process.
    init(store: any Store) {
        self.store = store
        self.serverKey = store.sharesSessionsBetweenServers ? store.serverKey : nil
    }

    /// Changes the locks of a version; `db` is the caller's write transaction (used when shared).
    func with<T>(_ guid: String, in db: any StoreConnection, _ body: (inout VersionLocks) throws -> T) throws -> T {
        if let serverKey {
            var entry = try stored(guid, db)
            let result = try body(&entry)
            // Sessions this server just gave their first lock are stamped with its key; gone sessions unstamped.
            var holders = Set(entry.readers.keys)
            if let editor = entry.editor { holders.insert(editor.session) }
            var servers = (entry.servers ?? [:]).filter { holders.contains($0.key) }
            for session in holders where servers[session] == nil { servers[session] = serverKey }
            entry.servers = servers
            if entry.isEmpty {
                try db.execute("DELETE FROM versionLock WHERE guid = \(guid)")
            } else {
                let text = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
                try db.execute("INSERT INTO versionLock (guid, state) VALUES (\(guid), \(text)) ON CONFLICT (guid) DO UPDATE SET state = excluded.state")
            }
            return result
        }
        lock.lock()
        defer { lock.unlock() }
        var entry = locks[guid] ?? VersionLocks()
        defer { locks[guid] = entry.isEmpty ? nil : entry }
        return try body(&entry)
    }

    /// Drops every lock of a deleted version.
    func forget(_ guid: String, in db: any StoreConnection) throws {
        if isShared {
            try db.execute("DELETE FROM versionLock WHERE guid = \(guid)")
            return
        }
        lock.lock()
        defer { lock.unlock() }
        locks[guid] = nil
    }

    func snapshot(_ guid: String, in db: any StoreConnection) throws -> VersionLocks {
        if isShared { return try stored(guid, db) }
        lock.lock()
        defer { lock.unlock() }
        return locks[guid] ?? VersionLocks()
    }

    /// The stored locks of a version, without those of sessions whose server is no longer alive.
    private func stored(_ guid: String, _ db: any StoreConnection) throws -> VersionLocks {
        guard let text = try db.fetchValue("SELECT state FROM versionLock WHERE guid = \(guid)", as: String.self) else { return VersionLocks() }
        var entry = try JSONDecoder().decode(VersionLocks.self, from: Data(text.utf8))
        guard let servers = entry.servers else { return entry }
        for key in Set(servers.values) where key != serverKey {
            guard try !store.isServerAlive(key, in: db) else { continue }
            for (session, holder) in servers where holder == key {
                entry.readers[session] = nil
                if entry.editor?.session == session { entry.editor = nil }
                entry.servers?[session] = nil
            }
        }
        return entry
    }
}
