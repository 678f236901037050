import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

@Suite struct RelatedRecordsTests {
    @Test func treesInspectionsAndSpecies() async throws {
        let core = try await Fixtures.core()
        // One-to-many: a tree's inspections (Trees.GlobalID -> Inspections.Tree_GlobalID).
        let related = try await core.queryRelatedRecords(service: "TreesOfPortland", layer: 0,
            RelatedRecordsParameters(relationshipId: 1, objectIds: [1, 2], orderByFields: "Collected_Date DESC"), as: .anonymous)
        #expect(related.relatedRecordGroups.map(\.objectId) == [1, 2])
        let first = try #require(related.relatedRecordGroups.first?.relatedRecords)
        #expect(!first.isEmpty)
        let tree = try #require(try await core.features("TreesOfPortland", 0, where: "OBJECTID = 1").first)
        #expect(first.allSatisfy { $0.attributes["Tree_GlobalID"] == tree.attributes["GlobalID"] })
        let dates = first.compactMap { $0.attributes["Collected_Date"]?.double }
        #expect(dates == dates.sorted(by: >))
        // Many-to-one: a tree's species.
        let species = try await core.queryRelatedRecords(service: "TreesOfPortland", layer: 0,
            RelatedRecordsParameters(relationshipId: 0, objectIds: [1], outFields: ["Common_Name"]), as: .anonymous)
        #expect(species.relatedRecordGroups.first?.relatedRecords?.count == 1)
        // Counts, and a definition expression on the related table.
        let counts = try await core.queryRelatedRecords(service: "TreesOfPortland", layer: 0,
            RelatedRecordsParameters(relationshipId: 1, objectIds: [1], definitionExpression: "Condition = 'NoSuchCode'", returnCountOnly: true), as: .anonymous)
        #expect(counts.relatedRecordGroups.first?.count == 0)
        await expectServiceError(400) {
            _ = try await core.queryRelatedRecords(service: "TreesOfPortland", layer: 0, RelatedRecordsParameters(relationshipId: 9, objectIds: [1]), as: .anonymous)
        }
    }
}

@Suite struct AuthTests {
    @Test func tokens() async throws {
        let core = try await Fixtures.core()
        #expect(core.requiresAuthentication)
        await expectServiceError(400) { _ = try await core.generateToken(username: "editor01", password: "wrong") }
        await expectServiceError(400) { _ = try await core.generateToken(username: "nobody", password: "sample-editor01") }
        let token = try await core.generateToken(username: "EDITOR01", password: "sample-editor01", expirationMinutes: 5)
        #expect(token.token.count == 64)
        #expect(token.expires > Int64(Date().timeIntervalSince1970 * 1000))
        #expect(try await core.caller(token: token.token).username == "editor01")
        #expect(try await core.caller(token: nil).isAnonymous)
        await expectServiceError(498) { _ = try await core.caller(token: "not-a-token") }
        try await core.revoke(token: token.token)
        await expectServiceError(498) { _ = try await core.caller(token: token.token) }
        let other = try await core.generateToken(username: "editor01", password: "sample-editor01")
        #expect(other.token != token.token)
    }

    @Test func expiredTokensAreRefused() async throws {
        let core = try await Fixtures.core()
        let directory = core.directory
        let issued = try await directory.issue(for: "editor01", lifetimeMinutes: 1, now: ServiceCore.nowMillis() - 120_000)
        await expectServiceError(498) { _ = try await core.caller(token: issued.token) }
    }

    @Test func anonymousFullAccessWithoutAUsersFile() async throws {
        let core = try await Fixtures.core(users: false)
        #expect(!core.requiresAuthentication)
        #expect(core.startup.warnings.contains { $0.contains("anonymous full access") })
        let result = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(updates: [
            EditFeature(attributes: Attributes([("objectid", .int(1)), ("notes", .string("anonymous"))])),
        ]), as: .anonymous)
        #expect(result.succeeded)
        let version = try await core.createVersion(service: "DamageAssessment", versionName: "Open", as: .anonymous)
        #expect(version.versionInfo.versionName == "anonymous.Open")
        let token = try await core.generateToken(username: "whoever", password: "")
        #expect(try await core.caller(token: token.token).user?.role == .admin)
    }

    @Test func sampleCredentialsWarning() async throws {
        let core = try await Fixtures.core()
        #expect(core.startup.warnings.contains { $0.contains("sample credentials") })
    }
}
