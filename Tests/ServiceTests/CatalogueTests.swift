import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

@Suite struct CatalogueTests {
    @Test func loadsBothSamplesWithTheirCounts() async throws {
        let core = try await Fixtures.core()
        #expect(core.serviceNames == ["DamageAssessment", "TreesOfPortland"])
        #expect(try await core.count("TreesOfPortland", 0) >= 20)
        #expect(try await core.count("TreesOfPortland", 1) >= 4)
        #expect(try await core.count("TreesOfPortland", 2) >= 5)
        #expect(try await core.count("TreesOfPortland", 3) >= 30)
        #expect(try await core.count("DamageAssessment", 0) >= 25)
        #expect(core.startup.loaded.sorted() == ["DamageAssessment", "TreesOfPortland"])
    }

    @Test func settingsComeFromServiceJSON() async throws {
        let core = try await Fixtures.core()
        let damage = try core.service("damageassessment")
        #expect(damage.isBranchVersioned)
        #expect(damage.defaultVersionAccess == .protected)
        let trees = try core.service("TreesOfPortland")
        #expect(!trees.isBranchVersioned)
        #expect(core.owners(of: "DamageAssessment") == ["admin"])
    }

    @Test func aSecondStartReusesTheDatabase() async throws {
        let path = Fixtures.temporaryDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let first = try await Fixtures.core(database: path)
        let admin = try await first.signIn(username: "admin", password: "sample-admin")
        let result = try await first.applyEdits(service: "TreesOfPortland", layer: 3, LayerEdits(adds: [
            EditFeature(attributes: Attributes([("Collected_Date", .int(1_700_000_000_000)), ("Condition", .string("Good"))])),
        ]), as: admin)
        #expect(result.succeeded)
        let before = try await first.count("TreesOfPortland", 3)

        let second = try await Fixtures.core(database: path)
        #expect(second.startup.loaded.isEmpty)
        #expect(second.startup.reused.sorted() == ["DamageAssessment", "TreesOfPortland"])
        #expect(try await second.count("TreesOfPortland", 3) == before)
    }

    @Test(.enabled(if: Fixtures.postgresServer != nil, "MAPRULES_POSTGRES_URL names no PostgreSQL server"))
    func aSecondStartReusesThePostgresDatabaseAndSeesTheFirstsTokens() async throws {
        var configuration = ServiceCore.Configuration(sampleFolders: [Fixtures.trees, Fixtures.damage], usersFile: Fixtures.usersFile)
        configuration.postgres = Fixtures.newPostgresDatabase(on: Fixtures.postgresServer!)
        configuration.postgresPoolSize = 2
        let first = try await ServiceCore.open(configuration)
        #expect(first.startup.loaded.sorted() == ["DamageAssessment", "TreesOfPortland"])
        // The load is analysed at once (reltuples is -1 for a table never analysed).
        let headRows = try await first.database.read { db in
            try db.fetchValue("SELECT reltuples FROM pg_class WHERE relname = 'head'", as: Double.self)
        }
        #expect((headRows ?? -1) > 0)
        let token = try await first.generateToken(username: "editor01", password: "sample-editor01")
        let second = try await ServiceCore.open(configuration)
        #expect(second.startup.loaded.isEmpty)
        #expect(second.startup.reused.sorted() == ["DamageAssessment", "TreesOfPortland"])
        // One service: a token issued by one server is valid on the other, and signing out on one signs out on both.
        #expect(try await second.caller(token: token.token).username == "editor01")
        try await second.revoke(token: token.token)
        await expectServiceError(498) { _ = try await first.caller(token: token.token) }
        try first.close()
        try second.close()
    }

    @Test func metadataIsServedHonestly() async throws {
        let core = try await Fixtures.core()
        let root = try core.serviceInfo(service: "DamageAssessment", as: .anonymous)
        #expect(root["hasVersionedData"]?.bool == true)
        let layer = try core.layerInfo(service: "TreesOfPortland", layer: 1, as: .anonymous)
        #expect(layer["capabilities"]?.string == "Query,Update,Sync", "as stored: boundaries may be corrected; the sample service is sync-enabled")
        #expect(layer["advancedQueryCapabilities"]?["supportsPagination"]?.bool == true)
        #expect(layer["isDataBranchVersioned"]?.bool == false)
        await expectServiceError(404) { _ = try core.layerInfo(service: "TreesOfPortland", layer: 9, as: .anonymous) }
        await expectServiceError(404) { _ = try core.serviceInfo(service: "Nope", as: .anonymous) }
    }

    @Test func usersFileHoldsOnlyHashes() throws {
        let text = try String(contentsOfFile: Fixtures.usersFile, encoding: .utf8)
        #expect(!text.contains("sample-editor01\""))
        let file = try UsersFile.load(path: Fixtures.usersFile)
        #expect(file.users.map(\.username) == ["editor01", "editor02", "admin"])
        #expect(file.users.allSatisfy { $0.passwordHash.hasPrefix("$2b$") })
    }
}
