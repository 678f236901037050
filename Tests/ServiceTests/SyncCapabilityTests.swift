import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// What the service root claims about sync follows the layers (only layers listing Sync are replicated),
/// and createReplica refuses a layer without Sync, as ArcGIS does.
@Suite struct SyncCapabilityTests {
    /// The TreesOfPortland sample with Sync taken out of the capabilities of the layers `ids`.
    static func core(withoutSyncOn ids: [Int]) async throws -> ServiceCore {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-nosync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let folder = parent.appendingPathComponent("TreesOfPortland").path
        try FileManager.default.copyItem(atPath: Fixtures.trees, toPath: folder)
        let file = URL(fileURLWithPath: folder + "/TreesOfPortland.services.json")
        var snapshot = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        for id in ids {
            let url = "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/\(id)"
            var layer = try #require(snapshot[url] as? [String: Any])
            layer["capabilities"] = (layer["capabilities"] as? String ?? "").replacingOccurrences(of: ",Sync", with: "")
            snapshot[url] = layer
        }
        try JSONSerialization.data(withJSONObject: snapshot).write(to: file)
        return try await ServiceCore.open(Fixtures.configuration(.init(database: ":memory:", sampleFolders: [folder], usersFile: Fixtures.usersFile)))
    }

    @Test func theSamplesAdvertiseSyncOnTheRootAndEveryLayer() async throws {
        let core = try await Fixtures.core()
        for service in ["TreesOfPortland", "DamageAssessment"] {
            let root = try await core.serviceInfo(service: service, as: .anonymous)
            #expect(root["syncEnabled"]?.bool == true)
            #expect(root["syncCapabilities"]?["supportsRegisteringExistingData"]?.bool == true)
            #expect(root["capabilities"]?.string?.split(separator: ",").contains("Sync") == true)
            let layers = try await core.allLayersInfo(service: service, as: .anonymous)
            for layer in (layers["layers"]?.array ?? []) + (layers["tables"]?.array ?? []) {
                #expect(layer["capabilities"]?.string?.split(separator: ",").contains("Sync") == true, "\(service) \(layer["id"]?.int ?? -1)")
            }
        }
    }

    @Test func aServiceWithoutSyncDoesNotClaimItAndRefusesReplicas() async throws {
        let core = try await Self.core(withoutSyncOn: [0, 1, 2, 3])
        let root = try await core.serviceInfo(service: "TreesOfPortland", as: .anonymous)
        #expect(root["syncEnabled"]?.bool == false)
        #expect(root["syncCapabilities"] == nil)
        let who = try await Callers.signIn(core)
        let refused = await expectServiceError(400) {
            _ = try await core.createReplica(service: "TreesOfPortland", ReplicaRequest(layers: [0, 1]), as: who.editor01)
        }
        #expect(refused?.description.contains("'Trees' (layer 0)") == true && refused?.description.contains("'Neighborhoods' (layer 1)") == true,
                "\(String(describing: refused))")
        #expect(try await core.replicas(service: "TreesOfPortland", as: who.admin).isEmpty)
    }

    @Test func onlyTheLayersListingSyncAreReplicated() async throws {
        let core = try await Self.core(withoutSyncOn: [0])
        let root = try await core.serviceInfo(service: "TreesOfPortland", as: .anonymous)
        #expect(root["syncEnabled"]?.bool == true)
        let who = try await Callers.signIn(core)
        await expectServiceError(400) { _ = try await core.createReplica(service: "TreesOfPortland", ReplicaRequest(layers: [0, 3]), as: who.editor01) }
        let package = try await core.createReplica(service: "TreesOfPortland", ReplicaRequest(layers: [3]), as: who.editor01)
        #expect(package.layers.map(\.id) == [3])
    }
}
