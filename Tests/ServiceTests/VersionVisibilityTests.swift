import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// rules.md: a private version is seen and edited only by its owner, the service owner and
/// administrators. The service owner and administrators see and open every version of the service
/// through every path: the version list, version info, read and edit sessions, queries and edits.
@Suite struct VersionVisibilityTests {
    static let service = "DamageAssessment"

    /// The sample users plus `owner01`, a publisher owning DamageAssessment but no administrator
    /// (password `sample-editor01`).
    static func coreWithAServiceOwner() async throws -> ServiceCore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-owner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("users.json").path
        var users = try UsersFile.load(path: Fixtures.usersFile)
        let editorHash = try #require(users.users.first { $0.username == "editor01" }?.passwordHash)
        users.users.append(.init(username: "owner01", passwordHash: editorHash, role: .publisher, ownedServices: [service]))
        try JSONEncoder().encode(users).write(to: URL(fileURLWithPath: path))
        return try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [Fixtures.damage], usersFile: path)))
    }

    @Test(arguments: ["admin", "owner01"])
    func privilegedCallersSeeAndOpenOthersPrivateVersions(privileged: String) async throws {
        let core = try await Self.coreWithAServiceOwner()
        let editor01 = try await core.signIn(username: "editor01", password: "sample-editor01")
        let editor02 = try await core.signIn(username: "editor02", password: "sample-editor02")
        let caller = try await core.signIn(username: privileged, password: privileged == "admin" ? "sample-admin" : "sample-editor01")
        let secret = try await core.createVersion(service: Self.service, versionName: "Secret", as: editor01).versionInfo
        #expect(secret.access == "esriVersionAccessPrivate")

        // The version list, without asking for hidden versions, and filtered by owner.
        #expect(try await core.versionInfos(service: Self.service, as: caller).versions.map(\.versionName) == ["sde.DEFAULT", "editor01.Secret"])
        #expect(try await core.versionInfos(service: Self.service, ownerFilter: "editor01", as: caller).versions.map(\.versionName) == ["editor01.Secret"])
        // Version info, by GUID.
        #expect(try await core.versionInfo(service: Self.service, version: secret.versionGuid, as: caller).versionName == "editor01.Secret")
        // Queries with gdbVersion, by name and by GUID.
        #expect(try await core.count(Self.service, 0, version: "editor01.Secret", as: caller) > 0)
        #expect(try await core.count(Self.service, 0, version: secret.versionGuid, as: caller) > 0)
        // Read and edit sessions, and an edit in the session.
        let session = "{\(UUID().uuidString)}"
        #expect(try await core.startReading(service: Self.service, version: secret.versionGuid, sessionId: session, as: caller).success)
        #expect(try await core.startEditing(service: Self.service, version: secret.versionGuid, sessionId: session, as: caller).success)
        let edit = LayerEdits(updates: [EditFeature(attributes: Attributes([("objectid", .int(1)), ("notes", .string("by \(privileged)"))]))])
        let options = EditOptions(gdbVersion: "editor01.Secret", sessionID: session)
        #expect(try await core.applyEdits(service: Self.service, layer: 0, edit, options: options, as: caller).succeeded)
        #expect(try await core.stopEditing(service: Self.service, version: secret.versionGuid, sessionId: session, saveEdits: true, as: caller).success)
        #expect(try await core.stopReading(service: Self.service, version: secret.versionGuid, sessionId: session, as: caller).success)
        #expect(try await core.features(Self.service, 0, where: "objectid = 1", version: "editor01.Secret", as: editor01).first?.attributes["notes"]
                == .string("by \(privileged)"))

        // Everyone else still finds nothing, whatever they ask for.
        #expect(try await core.versionInfos(service: Self.service, includeHidden: true, as: editor02).versions.map(\.versionName) == ["sde.DEFAULT"])
        await expectServiceError(404) { _ = try await core.versionInfo(service: Self.service, version: secret.versionGuid, as: editor02) }
        await expectServiceError(404) { _ = try await core.count(Self.service, 0, version: "editor01.Secret", as: editor02) }
        await expectServiceError(404) { _ = try await core.startReading(service: Self.service, version: secret.versionGuid, sessionId: session, as: editor02) }
    }
}
