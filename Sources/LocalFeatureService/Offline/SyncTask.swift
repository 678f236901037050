import Foundation
import Service
import FeatureServiceModel
import Runtime
import WebMap

/// Takes part of a feature service offline and brings the edits back (docs/runtime.md, "Offline"): generate a
/// local geodatabase (a replica registered on the service), edit it with the same feature-table API, and
/// sync (upload local edits, download the service's; "last in wins" by edit moment).
///
/// ```swift
/// let task = SyncTask(service: try await RemoteFeatureService(url: url, credential: .password(user: "editor01", password: "...")))
/// let parameters = try await task.defaultGenerateParameters(extent: area)
/// let file = try await task.generateGeodatabase(parameters: parameters, to: "trees.geodatabase").result()
/// // ... edit offline through file.featureService ...
/// let outcome = try await task.sync(geodatabase: file, direction: .bidirectional)
/// ```
///
/// `generateGeodatabase` first checks the layers with the linter's `offline/` layer rules (`OfflineCheck`): a
/// layer set with an error-severity finding (an editable layer without Sync, a layer without global ids) is
/// refused with the rule IDs as identifiers, every failed layer named, and nothing registered.
public struct SyncTask: Sendable {
    public let service: any FeatureService

    public init(service: any FeatureService) {
        self.service = service
    }

    /// Over HTTP, signed in with `credential`.
    public init(url: String, credential: Credential? = nil, timeout: Duration = .seconds(30)) throws {
        self.init(service: try RemoteFeatureService(url: url, credential: credential, timeout: timeout))
    }

    /// Every layer (tables only when related records are asked for through `layers`), attachments included,
    /// the per-layer sync model when the service offers it, features intersecting `extent`.
    public func defaultGenerateParameters(extent: Envelope? = nil, spatialReference: SpatialReference? = nil) async throws -> GenerateGeodatabaseParameters {
        let description = try await describe()
        let layers = description.layers.filter { $0.metadata["type"]?.string != "Table" }.map(\.id)
        let perLayer = description.root["syncCapabilities"]?["supportsPerLayerSync"]?.bool ?? false
        return GenerateGeodatabaseParameters(layers: layers, extent: extent, extentSpatialReference: spatialReference,
                                             returnAttachments: true, syncModel: perLayer ? .perLayer : .perReplica,
                                             syncDirection: Self.editable(description) ? .bidirectional : .download)
    }

    /// Registers a replica and writes its data to a new geodatabase at `path` (refused when the file exists).
    /// The file appears only when complete; a failure or a cancel leaves no file and no replica behind.
    public func generateGeodatabase(parameters: GenerateGeodatabaseParameters, to path: String) -> OfflineJob<OfflineGeodatabase> {
        let service = self.service
        return OfflineJob { progress in
            guard !FileManager.default.fileExists(atPath: path) else {
                throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)' exists already: choose a new file (nothing was generated).")
            }
            // The file's lock for the whole job: a second generate to the same file is refused ("in use")
            // instead of both registering replicas and racing to the rename.
            let lock = try GeodatabaseFileLock(geodatabase: path)
            defer { lock.release() }
            guard !FileManager.default.fileExists(atPath: path) else {
                throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)' exists already: choose a new file (nothing was generated).")
            }
            progress(0.02)
            let description = try await SyncTask(service: service).describe()
            var request = parameters.replicaRequest
            if !Self.editable(description) { request.syncDirection = .download }
            if request.replicaName == nil { request.replicaName = Self.replicaName(for: path) }
            // The offline/ rules of the linter, before anything is registered on the service.
            try OfflineCheck.refuseUnready(description, layers: request.layers, path: path)
            try Task.checkCancellation()
            progress(0.1)
            let package = try await service.createReplica(request)
            progress(0.5)
            let temporary = "\(path).partial-\(UUID().uuidString.prefix(8))"
            do {
                try Task.checkCancellation()
                let user = await service.userName()
                let url = service.url
                try await ServiceCore.createOfflineGeodatabase(
                    at: temporary, serviceName: description.name, root: description.root, layers: description.layers, package: package,
                    state: { moment in
                        OfflineReplicaState(serviceURL: url, serviceName: description.name, replicaID: package.replicaID, replicaName: package.replicaName,
                                            syncModel: package.syncModel, syncDirection: package.syncDirection, gdbVersion: package.gdbVersion,
                                            layers: package.layers.map(\.id), serverGen: package.serverGen, layerServerGens: package.layerServerGens,
                                            syncedThrough: moment, createdDate: moment, user: user,
                                            registeredPath: OfflineReplicaState.canonicalPath(path))
                    },
                    progress: { progress(0.5 + 0.45 * $0) })
                try Task.checkCancellation()
                try FileManager.default.moveItem(atPath: temporary, toPath: path)
            } catch {
                Self.removeDatabaseFiles(temporary)
                try? await service.unRegisterReplica(id: package.replicaID)
                if error is CancellationError { throw error }
                if let error = error as? RuntimeError { throw error }
                throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase,
                                   "Writing the geodatabase '\(path)' failed (nothing was kept, the replica was unregistered): \(FileErrorText.describe(error)).")
            }
            progress(1)
            lock.release()
            return try await OfflineGeodatabase.open(path)
        }
    }

    /// Sends the local edits since the last sync and brings the service's changes (as `direction` says),
    /// conflicts resolved "last in wins" by edit moment. Edits are marked synced only after the service
    /// confirmed them, in the same local transaction as the download: a failure at any point leaves the file
    /// as it was, and the next sync sends the same edits again.
    public func sync(geodatabase: OfflineGeodatabase, direction: SyncDirection = .bidirectional, rollbackOnFailure: Bool = true) async throws -> SyncResult {
        try await geodatabase.exclusively("Synchronizing") {
            try await synchronize(geodatabase, direction: direction, rollbackOnFailure: rollbackOnFailure)
        }
    }

    private func synchronize(_ geodatabase: OfflineGeodatabase, direction: SyncDirection, rollbackOnFailure: Bool) async throws -> SyncResult {
        let state = try await geodatabase.state()
        guard state.isRegistered else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase,
                               "The geodatabase '\(geodatabase.path)' was unregistered from its service: it cannot sync (register a copy with `maprules offline register`).")
        }
        var direction = direction == .snapshot ? .download : direction
        if state.syncDirection == .download && direction != .download {
            guard direction == .bidirectional else {
                throw RuntimeError(RuntimeError.Identifier.serviceError, "Replica \(state.replicaID) is download-only (generated with --direction download, or from a service that allows no edits): it cannot upload.")
            }
            direction = .download
        }
        let uploads = direction != .download
        let (edits, through) = uploads ? try await geodatabase.core.offlineChanges() : ([], 0)
        let request = SyncRequest(replicaID: state.replicaID, replicaServerGen: state.syncModel == .perLayer ? nil : state.serverGen,
                                  syncLayers: state.syncModel == .perLayer ? Self.syncLayers(state, direction: direction) : nil,
                                  syncDirection: direction, rollbackOnFailure: rollbackOnFailure, edits: edits)
        let answer: SyncAnswer
        do {
            answer = try await service.synchronizeReplica(request)
        } catch {
            throw RuntimeError.wrapping(error, operation: "Synchronizing '\(geodatabase.path)' (nothing was marked synced; sync again to retry)")
        }
        if let refused = Self.firstRefusal(answer.editResults) {
            throw RuntimeError(RuntimeError.Identifier.serviceError,
                               "Synchronizing '\(geodatabase.path)': the service refused an edit of layer \(refused.layer): \(refused.result.error?.description ?? "no reason given") (code \(refused.result.error?.code ?? 0)). Nothing was marked synced.",
                               serviceCode: refused.result.error?.code)
        }
        let download = direction == .upload ? [] : answer.edits
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await geodatabase.core.applyOfflineSync(uploadedThrough: uploads ? through : nil, download: download) { state in
            state.serverGen = answer.replicaServerGen
            if let gens = answer.layerServerGens { state.layerServerGens = gens }
            state.lastSyncDate = now
        }
        return SyncResult(direction: direction, uploaded: SyncResult.Counts(edits), downloaded: SyncResult.Counts(download),
                          conflicts: answer.conflicts.map { SyncResult.Conflict(layer: $0.layer, globalId: $0.globalId, winner: $0.winner == .client ? .local : .service) },
                          serverGen: answer.replicaServerGen)
    }

    // MARK: Helpers

    func describe() async throws -> ServiceDescription {
        do { return try await service.describe() } catch { throw RuntimeError.wrapping(error, operation: "Describing \(service.url)") }
    }

    /// True when some layer takes edits (create, update or delete).
    static func editable(_ description: ServiceDescription) -> Bool {
        description.layers.contains { layer in
            let capabilities = (layer.metadata["capabilities"]?.string ?? description.root["capabilities"]?.string ?? "").lowercased()
            return ["create", "update", "delete", "editing"].contains { capabilities.contains($0) }
        }
    }

    static func syncLayers(_ state: OfflineReplicaState, direction: SyncDirection) -> [LayerServerGen] {
        let gens = state.layerServerGens ?? state.layers.map { LayerServerGen(id: $0, serverGen: state.serverGen) }
        return gens.map { LayerServerGen(id: $0.id, serverGen: $0.serverGen, syncDirection: direction) }
    }

    /// The first edit the service refused for a reason of its own, else the first refused at all (1003).
    /// (Plain loops: the optimizer of Swift 6.3.1 crashes on the same search written with `first(where:) ??`.)
    static func firstRefusal(_ results: [LayerEditResults]) -> (layer: Int, result: EditResult)? {
        var rolledBack: (layer: Int, result: EditResult)?
        for layer in results {
            var all = layer.addResults + layer.updateResults + layer.deleteResults
            if let attachments = layer.attachments { all += attachments.addResults + attachments.updateResults + attachments.deleteResults }
            for result in all where !result.success {
                if result.error?.code != EditError.rolledBack.code { return (layer.id, result) }
                if rolledBack == nil { rolledBack = (layer.id, result) }
            }
        }
        return rolledBack
    }

    static func replicaName(for path: String) -> String {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return base.isEmpty ? "maprules-offline" : base
    }

    /// Removes a database file and its companions.
    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
