import Foundation
import Runtime
import Service
import FeatureServiceModel
import LocalFeatureService
import WebMap
import Testing

/// `SyncTask.generateGeodatabase` refuses a layer set that cannot sync with the linter's offline/ rules, before
/// anything is registered (in-process here; over HTTP in the CLI tests).
@Suite struct OfflineReadinessRuntimeTests {
    /// A copy of the TreesOfPortland sample whose Trees layer lacks Sync and whose Inspections table has no
    /// global id field, served in-process.
    static func unreadyService() async throws -> (ServiceCore, InProcessFeatureService, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-unready-\(UUID().uuidString)/TreesOfPortland").path
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.folder + "/TreesOfPortland", toPath: folder)
        let file = folder + "/TreesOfPortland.services.json"
        var snapshot = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let base = "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/"
        var trees = try #require(snapshot[base + "0"] as? [String: Any])
        trees["capabilities"] = "Create,Delete,Query,Update,Uploads,Editing"
        snapshot[base + "0"] = trees
        var inspections = try #require(snapshot[base + "3"] as? [String: Any])
        inspections["globalIdField"] = ""
        snapshot[base + "3"] = inspections
        try JSONSerialization.data(withJSONObject: snapshot).write(to: URL(fileURLWithPath: file))
        let core = try await ServiceCore.open(.init(database: ":memory:", sampleFolders: [folder], usersFile: Samples.usersFile))
        let service = InProcessFeatureService(core: core, serviceName: "TreesOfPortland")
        try await service.signIn(Runtimes.editor01)
        return (core, service, (folder as NSString).deletingLastPathComponent)
    }

    @Test func aLayerSetThatCannotSyncIsRefusedWithTheRuleIdsAndNothingIsRegistered() async throws {
        let (_, service, folder) = try await Self.unreadyService()
        let task = SyncTask(service: service)
        var parameters = try await task.defaultGenerateParameters()
        parameters.layers = [0, 1, 3]
        let path = folder + "/crew.geodatabase"
        do {
            _ = try await task.generateGeodatabase(parameters: parameters, to: path).result()
            Issue.record("generated a geodatabase of layers that cannot sync")
        } catch let error as RuntimeError {
            #expect(error.identifier == "offline/sync-disabled", "\(error)")
            #expect(Set(error.identifiers) == ["offline/sync-disabled", "offline/no-global-ids"], "\(error)")
            #expect(error.message.contains("'Trees' (id 0)") && error.message.contains("'Inspections' (id 3)"), "\(error)")
            #expect(!error.message.contains("'Neighborhoods'"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try await service.replicas().isEmpty)

        // The layer that can sync goes offline.
        parameters.layers = [1]
        let file = try await task.generateGeodatabase(parameters: parameters, to: path).result()
        file.close()
        #expect(try await service.replicas().count == 1)
    }
}
