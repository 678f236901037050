import Foundation
import Service
import FeatureServiceModel
import Runtime
import WebMap

/// The service core called in-process: the runtime's "mock" is the real core without HTTP, so it answers
/// exactly what `maprules serve` answers over HTTP (same refusals, same codes).
///
/// Credentials behave as over HTTP: a password is exchanged for a token through the core's `generateToken`,
/// every call presents the token, and an expired token (498) is refreshed once.
public actor InProcessFeatureService: FeatureService {
    public nonisolated let core: ServiceCore
    public nonisolated let serviceName: String
    public nonisolated var url: String { "in-process service '\(serviceName)'" }
    private var credential: Credential?
    /// When set, every edit is refused with this reason (an offline geodatabase whose replica was unregistered).
    public private(set) var readOnlyReason: String?
    private var token: String?

    public init(core: ServiceCore, serviceName: String, credential: Credential? = nil) {
        self.core = core
        self.serviceName = serviceName
        self.credential = credential
    }

    /// Refuses every later edit with `reason` (nil allows them again).
    public func makeReadOnly(_ reason: String?) { readOnlyReason = reason }

    /// A fresh in-memory core loaded from a sample folder (the format `maprules serve` reads), with the users
    /// file given, else `users.json` in the folder or its parent, else anonymous full access.
    /// `database` is ":memory:" (a fresh copy) or a file, where a folder loaded once is reused by later opens.
    public static func loading(folder: String, usersFile: String? = nil, credential: Credential? = nil,
                               database: String = ":memory:") async throws -> InProcessFeatureService {
        let users = usersFile ?? Self.usersFile(near: folder)
        let core: ServiceCore
        do {
            core = try await ServiceCore.open(.init(database: database, sampleFolders: [folder], usersFile: users))
        } catch {
            throw RuntimeError.wrapping(error, operation: "Loading the sample folder '\(folder)'")
        }
        guard let name = core.startup.loaded.first ?? core.serviceNames.first else {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "The folder '\(folder)' holds no feature service.")
        }
        let service = InProcessFeatureService(core: core, serviceName: name)
        if let credential { try await service.signIn(credential) }
        return service
    }

    /// `users.json` in the folder or its parent, when there is one.
    public static func usersFile(near folder: String) -> String? {
        let url = URL(fileURLWithPath: folder)
        for candidate in [url.appendingPathComponent("users.json"), url.deletingLastPathComponent().appendingPathComponent("users.json")]
        where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate.path
        }
        return nil
    }

    // MARK: Sign-in

    public func signIn(_ credential: Credential?) async throws {
        self.credential = credential
        token = nil
        if credential != nil { _ = try await currentToken(refresh: true) }
    }

    public func userName() async -> String? {
        guard let token, let caller = try? await core.caller(token: token) else {
            if case .password(let user, _)? = credential { return user }
            return nil
        }
        return caller.username
    }

    private func currentToken(refresh: Bool) async throws -> String? {
        guard let credential else { return nil }
        if let token, !refresh { return token }
        switch credential {
        case .token(let given):
            token = given
        case .password(let user, let password):
            do {
                token = try await core.generateToken(username: user, password: password).token
            } catch let error as ServiceError {
                throw RuntimeError(RuntimeError.Identifier.authentication, "Signing in as '\(user)' failed: \(error.description)", serviceCode: error.code)
            }
        }
        return token
    }

    /// Runs `body` as the signed-in caller; an invalid token is refreshed once (password credentials only).
    func call<T: Sendable>(_ operation: String, _ body: (Caller) async throws -> T) async throws -> T {
        var refreshed = false
        while true {
            do {
                let caller = try await core.caller(token: try await currentToken(refresh: false))
                return try await body(caller)
            } catch let error as ServiceError where error.code == 498 && !refreshed {
                refreshed = true
                guard case .password? = credential else { throw RuntimeError.service(error, operation: operation) }
                token = nil
            } catch {
                throw RuntimeError.wrapping(error, operation: operation)
            }
        }
    }

    // MARK: Metadata

    public func describe() async throws -> ServiceDescription {
        let core = self.core, name = serviceName
        return try await call("Loading the service '\(name)'") { caller in
            let root = try core.serviceInfo(service: name, as: caller)
            let model = try core.service(name)
            let layers = try model.layers.map { (id: $0.id, metadata: try core.layerInfo(service: name, layer: $0.id, as: caller)) }
            return ServiceDescription(name: model.name, root: root, layers: layers)
        }
    }

    // MARK: Queries

    public func queryFeatures(layer: Int, _ parameters: QueryParameters) async throws -> FeatureSet {
        let core = self.core, name = serviceName
        return try await call("Querying layer \(layer)") { caller in
            guard let set = try await core.query(service: name, layer: layer, parameters, as: caller).featureSet else {
                throw RuntimeError(RuntimeError.Identifier.serviceError, "Querying layer \(layer) answered no feature set.")
            }
            return set
        }
    }

    public func queryCount(layer: Int, _ parameters: QueryParameters) async throws -> Int {
        var parameters = parameters
        parameters.returnCountOnly = true
        let core = self.core, name = serviceName, counting = parameters
        return try await call("Counting layer \(layer)") { caller in
            try await core.query(service: name, layer: layer, counting, as: caller).count ?? 0
        }
    }

    public func queryObjectIds(layer: Int, _ parameters: QueryParameters) async throws -> [Int64] {
        var parameters = parameters
        parameters.returnIdsOnly = true
        let core = self.core, name = serviceName, asking = parameters
        return try await call("Querying object ids of layer \(layer)") { caller in
            try await core.query(service: name, layer: layer, asking, as: caller).objectIds ?? []
        }
    }

    // MARK: Edits

    public func applyEdits(_ edits: [LayerEdits], options: EditOptions) async throws -> [LayerEditResults] {
        if let readOnlyReason { throw RuntimeError(RuntimeError.Identifier.serviceError, "Applying edits: \(readOnlyReason)") }
        let core = self.core, name = serviceName
        return try await call("Applying edits") { caller in
            try await core.applyEdits(service: name, edits, options: options, as: caller)
        }
    }

    public func attachments(layer: Int, objectId: Int64, gdbVersion: String?) async throws -> [AttachmentInfo] {
        let core = self.core, name = serviceName
        return try await call("Listing the attachments of feature \(objectId) of layer \(layer)") { caller in
            try await core.attachments(service: name, layer: layer, objectId: objectId, gdbVersion: gdbVersion, as: caller).attachmentInfos
        }
    }

    public func attachmentData(layer: Int, objectId: Int64, attachmentId: Int64, gdbVersion: String?) async throws -> Data {
        let core = self.core, name = serviceName
        return try await call("Fetching attachment \(attachmentId) of feature \(objectId)") { caller in
            try await core.attachmentData(service: name, layer: layer, objectId: objectId, attachmentId: attachmentId, gdbVersion: gdbVersion, as: caller).data
        }
    }

    // MARK: Versions

    public func versionManagementInfo() async throws -> VersionManagementInfo {
        let core = self.core, name = serviceName
        return try await call("Reading the version management server") { caller in
            try await core.versionManagementInfo(service: name, as: caller)
        }
    }

    public func versions() async throws -> [VersionInfo] {
        let core = self.core, name = serviceName
        return try await call("Listing versions") { caller in
            try await core.versionInfos(service: name, as: caller).versions
        }
    }

    public func version(named version: String) async throws -> VersionInfo {
        let core = self.core, name = serviceName
        return try await call("Reading the version '\(version)'") { caller in
            try await core.versionInfo(service: name, version: version, as: caller)
        }
    }

    public func createVersion(name versionName: String, access: String?, description: String) async throws -> VersionInfo {
        let core = self.core, name = serviceName
        return try await call("Creating the version '\(versionName)'") { caller in
            try await core.createVersion(service: name, versionName: versionName, description: description,
                                         accessPermission: access, as: caller).versionInfo
        }
    }
}
