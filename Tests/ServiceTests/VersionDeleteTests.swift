import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// `delete` and session locks: the ArcGIS API for Python deletes a version it has edited while it still
/// holds its read session, and sends that sessionId. The requesting session's own locks do not block
/// the delete; any other session's lock still does.
@Suite struct VersionDeleteTests {
    static let service = "DamageAssessment"

    @Test func theEditingClientDeletesTheVersionItStillReads() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let info = try await core.createVersion(service: Self.service, versionName: "Edited", as: who.editor01).versionInfo
        let session = "{\(UUID().uuidString)}"
        _ = try await core.startReading(service: Self.service, version: info.versionGuid, sessionId: session, as: who.editor01)
        _ = try await core.startEditing(service: Self.service, version: info.versionGuid, sessionId: session, as: who.editor01)
        let edit = LayerEdits(updates: [EditFeature(attributes: Attributes([("objectid", .int(1)), ("notes", .string("edited"))]))])
        #expect(try await core.applyEdits(service: Self.service, layer: 0, edit, options: EditOptions(gdbVersion: info.versionName, sessionID: session),
                                          as: who.editor01).succeeded)
        _ = try await core.stopEditing(service: Self.service, version: info.versionGuid, sessionId: session, saveEdits: true, as: who.editor01)

        // Without naming the session, its read lock blocks the delete, as before.
        await expectServiceError(400) { _ = try await core.deleteVersion(service: Self.service, version: info.versionName, as: who.editor01) }
        // Naming it (in another spelling of the GUID) deletes the version, and its locks go with it.
        #expect(try await core.deleteVersion(service: Self.service, version: info.versionName, sessionId: session.lowercased(), as: who.editor01).success)
        await expectServiceError(404) { _ = try await core.versionInfo(service: Self.service, version: info.versionGuid, as: who.editor01) }
        let locks = try await core.database.read { db in try core.sessions.snapshot(info.versionGuid, in: db) }
        #expect(locks.readers.isEmpty && locks.editor == nil)
    }

    @Test func anEditLockOfTheRequestingSessionDoesNotBlockEither() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let info = try await core.createVersion(service: Self.service, versionName: "StillEditing", as: who.editor01).versionInfo
        let session = "{\(UUID().uuidString)}"
        _ = try await core.startReading(service: Self.service, version: info.versionGuid, sessionId: session, as: who.editor01)
        _ = try await core.startEditing(service: Self.service, version: info.versionGuid, sessionId: session, as: who.editor01)
        #expect(try await core.deleteVersion(service: Self.service, version: info.versionGuid, sessionId: session, as: who.editor01).success)
    }

    @Test func otherSessionsLocksStillBlock() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let info = try await core.createVersion(service: Self.service, versionName: "Shared", accessPermission: "public", as: who.editor01).versionInfo
        let mine = "{\(UUID().uuidString)}", theirs = "{\(UUID().uuidString)}"
        _ = try await core.startReading(service: Self.service, version: info.versionGuid, sessionId: mine, as: who.editor01)
        _ = try await core.startReading(service: Self.service, version: info.versionGuid, sessionId: theirs, as: who.editor02)
        let refused = await expectServiceError(400) {
            _ = try await core.deleteVersion(service: Self.service, version: info.versionGuid, sessionId: mine, as: who.editor01)
        }
        #expect(refused?.message == "Unable to delete the version.")
        // Another user's session id is not the caller's own session.
        _ = try await core.stopReading(service: Self.service, version: info.versionGuid, sessionId: mine, as: who.editor01)
        await expectServiceError(400) { _ = try await core.deleteVersion(service: Self.service, version: info.versionGuid, sessionId: theirs, as: who.admin) }
        // Once the other session has stopped reading, the version goes.
        _ = try await core.stopReading(service: Self.service, version: info.versionGuid, sessionId: theirs, as: who.editor02)
        #expect(try await core.deleteVersion(service: Self.service, version: info.versionGuid, sessionId: mine, as: who.editor01).success)
    }
}
