import Foundation
import Testing
@testable import Service

/// The repository's Samples folder, found from this file's path.
enum Fixtures {
    static let samples: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("Samples")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("users.json").path) { return candidate.path }
        }
        return "Samples"
    }()

    static var trees: String { samples + "/TreesOfPortland" }
    static var damage: String { samples + "/DamageAssessment" }
    static var usersFile: String { samples + "/users.json" }

    /// A fresh in-memory core with both samples and the sample users.
    static func core(users: Bool = true, database: String = ":memory:") async throws -> ServiceCore {
        try await ServiceCore.open(.init(database: database, sampleFolders: [trees, damage], usersFile: users ? usersFile : nil))
    }

    static func temporaryDatabase() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("maprules-\(UUID().uuidString).sqlite").path
    }
}

/// Signed-in callers, cached per core (bcrypt is slow on purpose).
struct Callers {
    let editor01: Caller
    let editor02: Caller
    let admin: Caller

    static func signIn(_ core: ServiceCore) async throws -> Callers {
        async let a = core.signIn(username: "editor01", password: "sample-editor01")
        async let b = core.signIn(username: "editor02", password: "sample-editor02")
        async let c = core.signIn(username: "admin", password: "sample-admin")
        return try await Callers(editor01: a, editor02: b, admin: c)
    }
}

extension ServiceCore {
    func features(_ service: String, _ layer: Int, where clause: String? = nil, version: String? = nil, as caller: Caller = .anonymous) async throws -> [Feature] {
        try await query(service: service, layer: layer, QueryParameters(where: clause, gdbVersion: version), as: caller).featureSet?.features ?? []
    }

    func count(_ service: String, _ layer: Int, where clause: String? = nil, version: String? = nil, as caller: Caller = .anonymous) async throws -> Int {
        try await query(service: service, layer: layer, QueryParameters(where: clause, returnCountOnly: true, gdbVersion: version), as: caller).count ?? -1
    }
}

/// Asserts that `body` throws a `ServiceError` with `code`, and answers it.
@discardableResult
func expectServiceError(_ code: Int, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> ServiceError? {
    do {
        try await body()
        Issue.record("expected ServiceError \(code), got success", sourceLocation: sourceLocation)
        return nil
    } catch let error as ServiceError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected ServiceError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
