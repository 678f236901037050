import Foundation
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

/// `register(copy:)` on a file that still has its replica (issue 31, item 11): refused, so the service does not
/// collect a forgotten replica per call, unless forced, which unregisters the old replica first.
extension OfflineSyncTests {
    @Test func registeringAStillRegisteredFileAgainIsRefusedUnlessForced() async throws {
        let field = try await Field()
        let (task, file) = try await field.generate("planned")
        defer { file.close() }
        let generated = try await file.state()
        let before = try await field.service().replicas().map(\.replicaID)

        let refused = await runtimeError { _ = try await task.register(copy: file) }
        #expect(refused?.identifier == RuntimeError.Identifier.offlineGeodatabase)
        #expect(refused?.message.contains("still registered as replica \(generated.replicaID)") == true, "\(refused?.message ?? "")")
        #expect(refused?.message.contains("--force") == true)
        #expect(try await field.service().replicas().map(\.replicaID) == before, "no replica was added")
        #expect(try await file.state() == generated, "the file was not changed")

        // Forced: the old replica is unregistered first, the file gets a new one and syncs with it.
        let forced = try await task.register(copy: file, force: true)
        #expect(forced.replicaID != generated.replicaID && forced.isRegistered)
        let after = try await field.service().replicas().map(\.replicaID)
        #expect(!after.contains(generated.replicaID) && after.contains(forced.replicaID))
        #expect(after.count == before.count)
        try await Self.editTree(file, 4, ["Notes": .string("after a forced register")])
        _ = try await task.sync(geodatabase: file)
        #expect(try await field.serviceTree(4)?["Notes"] == .string("after a forced register"))

        // And refused again, now that the file holds the new replica.
        let again = await runtimeError { _ = try await task.register(copy: file) }
        #expect(again?.message.contains("still registered as replica \(forced.replicaID)") == true)
    }

    /// The replica was removed on the service behind the file's back: forcing still works (nothing to remove).
    @Test func forcingAfterTheServiceForgotTheReplicaRegistersANewOne() async throws {
        let field = try await Field()
        let (task, file) = try await field.generate("forgotten")
        defer { file.close() }
        let old = try await file.state().replicaID
        try await field.service().unRegisterReplica(id: old)
        let forced = try await task.register(copy: file, force: true)
        #expect(forced.replicaID != old)
        #expect(try await field.service().replicas().map(\.replicaID).contains(forced.replicaID))
    }

    /// A copy of a registered file, at another path, is not the file that holds the replica: it registers without
    /// --force and the original keeps its replica; a second register of the copy is refused.
    @Test func aCopyRegistersOnceWithoutForce() async throws {
        let field = try await Field()
        let (task, original) = try await field.generate("original")
        let originalID = try await original.state().replicaID
        original.close()
        try FileManager.default.copyItem(atPath: field.path("original"), toPath: field.path("copy"))
        // Named through a `..` detour: the same file, so the same path once made canonical.
        let copy = try await OfflineGeodatabase.open(field.folder + "/../" + URL(fileURLWithPath: field.folder).lastPathComponent + "/copy.geodatabase")
        defer { copy.close() }
        let registered = try await task.register(copy: copy)
        #expect(registered.replicaID != originalID)
        let refused = await runtimeError { _ = try await task.register(copy: copy) }
        #expect(refused?.message.contains("still registered") == true)
        let replicas = try await field.service().replicas().map(\.replicaID)
        #expect(replicas.contains(originalID) && replicas.contains(registered.replicaID))
    }
}
