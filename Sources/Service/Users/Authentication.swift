import Foundation
import FeatureServiceModel
import WebMap

extension ServiceCore {
    /// `generateToken`: checks the password (bcrypt) and issues a random token that expires after
    /// `expirationMinutes` (default and cap from the configuration). Wrong user or password: 400
    /// "Unable to generate token." (the same answer for both). Without a users file every name is
    /// accepted and the token carries administrator rights.
    public func generateToken(username: String, password: String, expirationMinutes: Int? = nil) async throws -> IssuedToken {
        let minutes = max(1, min(expirationMinutes ?? configuration.defaultTokenMinutes, configuration.maximumTokenMinutes))
        if !directory.isEnabled {
            guard !username.isEmpty else { throw ServiceError.invalidParameter("username is required.") }
            return try await directory.issue(for: username, lifetimeMinutes: minutes, now: Self.nowMillis())
        }
        let directory = self.directory
        // bcrypt is deliberately slow: keep it off the cooperative pool's shared threads.
        let user = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: directory.verify(username: username, password: password)) }
        }
        guard let user else {
            throw ServiceError(code: 400, message: "Unable to generate token.", details: ["Invalid username or password."])
        }
        return try await directory.issue(for: user.username, lifetimeMinutes: minutes, now: Self.nowMillis())
    }

    /// The caller a request's token stands for: anonymous without a token; 498 for an unknown or expired one.
    public func caller(token: String?) async throws -> Caller {
        guard let token, !token.isEmpty else { return .anonymous }
        guard let name = try await directory.validate(token: token, now: Self.nowMillis()) else { throw ServiceError.invalidToken }
        if !directory.isEnabled { return Caller(user: User(username: name, role: .admin)) }
        guard let user = directory.user(named: name) else { throw ServiceError.invalidToken }
        return Caller(user: user)
    }

    /// Signs in and answers the caller directly (the runtime's in-process path).
    public func signIn(username: String, password: String) async throws -> Caller {
        let token = try await generateToken(username: username, password: password)
        return try await caller(token: token.token)
    }

    /// Forgets a token (sign out).
    public func revoke(token: String) async throws { try await directory.revoke(token: token) }
}

/// Who may do what (docs/rules.md, "Access permissions"; docs/service.md, "Auth and users"). Who may view and edit
/// a version is said in one place, Versioning/VersionAccessCheck.swift.
struct AccessPolicy {
    let core: ServiceCore
    let service: ServiceModel
    let caller: Caller

    /// No users file: every caller may do everything.
    var isOpen: Bool { !core.directory.isEnabled }

    /// The user name written into editor-tracking fields and used as a version owner.
    var actingName: String { caller.username ?? "anonymous" }

    var isAdministrator: Bool { isOpen || caller.user?.role == .admin }
    var ownsService: Bool { isOpen || caller.user?.owns(service: service.name) == true }

    func requireQuery() throws {
        if isOpen || !caller.isAnonymous || service.allowsAnonymousQuery { return }
        throw ServiceError.tokenRequired
    }

    /// Edits and version operations need a signed-in user when a users file is in force.
    func requireSignedIn() throws {
        if isOpen || !caller.isAnonymous { return }
        throw ServiceError.tokenRequired
    }
}
