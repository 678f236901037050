import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// Two servers on one PostgreSQL database: version locks are shared, and those a server granted die with it, so
/// that a server that stops (or dies) never leaves a version locked for the others.
@Suite(.enabled(if: Fixtures.postgresServer != nil, "MAPRULES_POSTGRES_URL names no PostgreSQL server"))
struct ServerPresenceTests {
    static let service = "DamageAssessment"

    @Test func theLocksAServerGrantedDieWithIt() async throws {
        let folder = try ScaleProbe.folder(count: 10)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        var configuration = ServiceCore.Configuration(sampleFolders: [folder])
        configuration.postgres = Fixtures.newPostgresDatabase(on: Fixtures.postgresServer!)
        configuration.postgresPoolSize = 2
        let first = try await ServiceCore.open(configuration)
        let second = try await ServiceCore.open(configuration)
        defer { try? second.close() }
        let guid = try await first.versionManagementInfo(service: Self.service, as: .anonymous).defaultVersionGuid
        let (crew1, crew2) = ("{EEEEEEEE-0000-0000-0000-000000000001}", "{EEEEEEEE-0000-0000-0000-000000000002}")
        _ = try await first.startReading(service: Self.service, version: guid, sessionId: crew1, as: .anonymous)
        _ = try await first.startEditing(service: Self.service, version: guid, sessionId: crew1, as: .anonymous)

        // While the first server lives, the second sees the lock and refuses another session.
        #expect(try await second.versionInfo(service: Self.service, version: guid, as: .anonymous).isBeingEdited == true)
        await expectServiceError(400) { _ = try await second.startReading(service: Self.service, version: guid, sessionId: crew2, as: .anonymous) }
        // A session's locks can be used through either server.
        _ = try await second.stopEditing(service: Self.service, version: guid, sessionId: crew1, saveEdits: true, as: .anonymous)
        _ = try await second.startEditing(service: Self.service, version: guid, sessionId: crew1, as: .anonymous)

        // The first server stops (its presence lock goes with its connection): its session's locks are gone.
        try first.close()
        #expect(try await second.versionInfo(service: Self.service, version: guid, as: .anonymous).isBeingEdited == false)
        _ = try await second.startReading(service: Self.service, version: guid, sessionId: crew2, as: .anonymous)
        _ = try await second.startEditing(service: Self.service, version: guid, sessionId: crew2, as: .anonymous)
        let stored = try await second.database.read { db in try db.fetchValue("SELECT state FROM versionLock WHERE guid = \(guid)", as: String.self) }
        #expect(stored?.contains(crew1) == false)
        #expect(stored?.contains(crew2) == true)
    }

    @Test func aLostPresenceConnectionIsTakenAgain() async throws {
        var configuration = ServiceCore.Configuration(sampleFolders: [])
        configuration.postgres = Fixtures.newPostgresDatabase(on: Fixtures.postgresServer!)
        configuration.postgresPoolSize = 1
        let core = try await ServiceCore.open(configuration)
        defer { try? core.close() }
        let key = try #require(core.database.serverKey)
        func holder() async throws -> Int? {
            try await core.database.read { db in
                try db.fetchValue("""
                    SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = \(raw: String(PostgresStore.presenceLockSpace)) \
                    AND objid = \(raw: String(key)) AND objsubid = 2 AND granted
                    """, as: Int.self)
            }
        }
        let first = try #require(try await holder())
        _ = try await core.database.read { db in try db.fetchValue("SELECT pg_terminate_backend(\(raw: String(first)))::int", as: Int.self) }
        // The next statements notice the lost connection and take the key again on a new one.
        var again: Int?
        for _ in 0..<50 {
            again = try await holder()
            if let again, again != first { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(again != nil && again != first)
    }
}
