import Crypto
import Foundation
import HummingbirdBcrypt
import FeatureServiceModel
import WebMap

/// A user's role (docs/service.md, "Auth and users").
public enum Role: String, Sendable, Codable, CaseIterable {
    /// Portal administrator: may view and edit every version of every service.
    case admin
    /// May publish (own) services; otherwise like a user.
    case publisher
    /// A signed-in user.
    case user
}

/// A user as the users file declares it (the password hash stays inside the core).
public struct User: Sendable, Codable, Equatable {
    public var username: String
    public var role: Role
    /// Names of the services this user owns (compared case-insensitively).
    public var ownedServices: [String]

    public init(username: String, role: Role, ownedServices: [String] = []) {
        self.username = username
        self.role = role
        self.ownedServices = ownedServices
    }

    public func owns(service: String) -> Bool {
        ownedServices.contains { $0.caseInsensitiveCompare(service) == .orderedSame }
    }
}

/// Who is calling: a signed-in user, or anonymous.
public struct Caller: Sendable, Equatable {
    /// Nil for an anonymous caller.
    public var user: User?

    public init(user: User?) { self.user = user }

    public static let anonymous = Caller(user: nil)

    public var isAnonymous: Bool { user == nil }
    public var username: String? { user?.username }
}

/// The users file: JSON of the form
///
/// ```json
/// {"users": [{"username": "admin", "passwordHash": "$2b$10$...", "role": "admin",
///             "ownedServices": ["TreesOfPortland"]}]}
/// ```
///
/// or the same fields in YAML (a `.yaml` or `.yml` file, or any file not starting with `{`):
///
/// ```yaml
/// users:
///   - username: admin
///     passwordHash: "$2b$10$..."
///     role: admin
///     ownedServices: [TreesOfPortland]
/// ```
///
/// Passwords are stored only as bcrypt hashes (`$2a$`, `$2b$` or `$2y$`).
public struct UsersFile: Sendable, Codable {
    public struct Entry: Sendable, Codable {
        public var username: String
        public var passwordHash: String
        public var role: Role
        public var ownedServices: [String]?

        public init(username: String, passwordHash: String, role: Role, ownedServices: [String]? = nil) {
            self.username = username
            self.passwordHash = passwordHash
            self.role = role
            self.ownedServices = ownedServices
        }
    }

    public var users: [Entry]

    public init(users: [Entry]) { self.users = users }

    /// Reads and checks a users file, JSON or YAML (by extension, else by content); refuses duplicate
    /// names and hashes that are not bcrypt. Errors name the file and, where known, the line
    /// (`users.yaml:7: the user 'editor01' is declared twice (first on line 2).`).
    public static func load(path: String) throws -> UsersFile {
        try UsersFileReader.read(path: path)
    }

    /// Reads and checks the text of a users file (as `load(path:)` does); `path` names it in errors.
    public static func parse(_ text: String, path: String) throws -> UsersFile {
        try UsersFileReader.read(text: text, path: path)
    }

    /// A bcrypt hash of `password`, for writing users files.
    public static func hash(password: String, cost: UInt8 = 10) -> String { Bcrypt.hash(password, cost: cost) }
}

/// An issued token.
public struct IssuedToken: Sendable, Codable, Equatable {
    public var token: String
    /// Expiry, epoch milliseconds.
    public var expires: Int64
    /// Always false: the core does not know whether the HTTP face serves TLS; the face may overwrite it.
    public var ssl: Bool
}

/// Users and their tokens. Tokens live in memory (they do not survive a restart, as with a restarted server),
/// or, on a store several servers share (PostgreSQL), in its `token` table: a token any server issued is
/// valid on all of them, and signing out on one signs out on all. The table keeps a token's SHA-256, never
/// the token itself.
final class Directory: @unchecked Sendable {
    private let entries: [String: UsersFile.Entry]
    let isEnabled: Bool
    private let lock = NSLock()
    private var tokens: [String: (username: String, expires: Int64)] = [:]
    private let shared: (any Store)?

    init(file: UsersFile?, shared: (any Store)? = nil) {
        isEnabled = file != nil
        var entries: [String: UsersFile.Entry] = [:]
        for entry in file?.users ?? [] { entries[entry.username.lowercased()] = entry }
        self.entries = entries
        self.shared = shared
    }

    func user(named name: String) -> User? {
        guard let entry = entries[name.lowercased()] else { return nil }
        return User(username: entry.username, role: entry.role, ownedServices: entry.ownedServices ?? [])
    }

    var allUsers: [User] { entries.keys.sorted().compactMap { user(named: $0) } }

    /// The owners of `service` named by the users file.
    func owners(of service: String) -> [String] {
        entries.values.filter { ($0.ownedServices ?? []).contains { $0.caseInsensitiveCompare(service) == .orderedSame } }.map(\.username).sorted()
    }

    func verify(username: String, password: String) -> User? {
        guard let entry = entries[username.lowercased()] else {
            // Spend the same time as a real check, so that response times do not reveal user names.
            _ = Bcrypt.verify(password, hash: "$2b$10$abcdefghijklmnopqrstuuL6nU7sO2Ulx2lXJ4u6uIUqYSRRSKx4y")
            return nil
        }
        guard Bcrypt.verify(password, hash: entry.passwordHash) else { return nil }
        return user(named: entry.username)
    }

    func issue(for username: String, lifetimeMinutes: Int, now: Int64) async throws -> IssuedToken {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        let token = bytes.map { String(format: "%02x", $0) }.joined()
        let expires = now + Int64(lifetimeMinutes) * 60_000
        if let shared {
            let digest = Self.digest(token)
            try await shared.write { db in
                try db.execute("DELETE FROM token WHERE expires <= \(now)")
                try db.execute("INSERT INTO token (digest, username, expires) VALUES (\(digest), \(username), \(expires))")
            }
        } else {
            lock.lock()
            tokens = tokens.filter { $0.value.expires > now }
            tokens[token] = (username, expires)
            lock.unlock()
        }
        return IssuedToken(token: token, expires: expires, ssl: false)
    }

    /// The user of a valid token; nil for an unknown or expired one.
    func validate(token: String, now: Int64) async throws -> String? {
        if let shared {
            let digest = Self.digest(token)
            return try await shared.read { db in
                try db.fetchValue("SELECT username FROM token WHERE digest = \(digest) AND expires > \(now)", as: String.self)
            }
        }
        lock.lock()
        defer { lock.unlock() }
        guard let entry = tokens[token] else { return nil }
        guard entry.expires > now else {
            tokens[token] = nil
            return nil
        }
        return entry.username
    }

    func revoke(token: String) async throws {
        if let shared {
            let digest = Self.digest(token)
            try await shared.write { db in _ = try db.execute("DELETE FROM token WHERE digest = \(digest)") }
            return
        }
        lock.lock()
        tokens[token] = nil
        lock.unlock()
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
