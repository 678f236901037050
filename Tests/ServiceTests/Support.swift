import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

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

    /// A fresh core with both samples and the sample users: in memory, or, when MAPRULES_POSTGRES_URL names a
    /// PostgreSQL server (`.ci/run` starts one), in a new database of its own there. The whole suite runs once per
    /// backend that way (`Scripts/postgres-throwaway.sh`).
    static func core(users: Bool = true, database: String = ":memory:") async throws -> ServiceCore {
        try await ServiceCore.open(configuration(.init(database: database, sampleFolders: [trees, damage], usersFile: users ? usersFile : nil)))
    }

    /// The PostgreSQL server the suite runs against, when one is named.
    static let postgresServer = ProcessInfo.processInfo.environment["MAPRULES_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// `configuration` as given (SQLite), or pointed at a new PostgreSQL database when the suite runs on PostgreSQL
    /// and the configuration asks for memory (a file database is a test of SQLite files and stays one).
    static func configuration(_ configuration: ServiceCore.Configuration) -> ServiceCore.Configuration {
        guard let server = postgresServer, configuration.database == ":memory:" else { return configuration }
        var configuration = configuration
        configuration.postgres = newPostgresDatabase(on: server)
        configuration.postgresPoolSize = 2
        return configuration
    }

    /// A URL naming a database that does not exist yet on `server` (the store creates it).
    static func newPostgresDatabase(on server: String) -> String {
        var components = URLComponents(string: server)!
        components.path = "/t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return components.string!
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
