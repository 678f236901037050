import Foundation
import Service

/// Deltas (edits carried by other means than a sync) and replica registration.
extension SyncTask {
    /// Writes the local edits since the last sync to `deltaPath` as a synchronizeReplica request body
    /// (`{"replicaID", "replicaServerGen", "edits"}`), changing nothing in the geodatabase: exporting twice
    /// writes the same edits. Answers how many of each kind.
    @discardableResult
    public static func exportDelta(geodatabase: OfflineGeodatabase, to deltaPath: String) async throws -> SyncResult.Counts {
        try await geodatabase.exclusively("Exporting a delta") { try await writeDelta(geodatabase, to: deltaPath) }
    }

    private static func writeDelta(_ geodatabase: OfflineGeodatabase, to deltaPath: String) async throws -> SyncResult.Counts {
        let state = try await geodatabase.state()
        let (edits, _) = try await geodatabase.core.offlineChanges()
        var members: [(String, JSON)] = [("replicaID", .string(state.replicaID)), ("replicaServerGen", .int(Int(state.serverGen)))]
        if let gens = state.layerServerGens { members.append(("syncLayers", .array(gens.map(\.json)))) }
        members.append(("edits", .array(edits.map(\.json))))
        try write(JSON.object(members).text, to: deltaPath)
        return SyncResult.Counts(edits)
    }

    /// Applies a delta downloaded by other means: a synchronizeReplica answer for this geodatabase's replica
    /// (`{"replicaID", "replicaServerGen", "edits"}`), newer than the file's generation. Local edits stay
    /// pending; where both changed a field the later edit wins.
    @discardableResult
    public static func importDelta(geodatabase: OfflineGeodatabase, from deltaPath: String) async throws -> SyncResult.Counts {
        try await geodatabase.exclusively("Importing a delta") { try await readDelta(geodatabase, from: deltaPath) }
    }

    private static func readDelta(_ geodatabase: OfflineGeodatabase, from deltaPath: String) async throws -> SyncResult.Counts {
        let state = try await geodatabase.state()
        let answer: SyncAnswer
        do {
            let text = try String(contentsOfFile: deltaPath, encoding: .utf8)
            answer = try SyncAnswer(json: try JSON.parse(text))
        } catch {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(deltaPath)' is not a delta (a synchronizeReplica answer in JSON): \(error)")
        }
        guard GUIDText.normalize(answer.replicaID) == GUIDText.normalize(state.replicaID) else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase,
                               "'\(deltaPath)' belongs to replica \(answer.replicaID), not to this geodatabase's \(state.replicaID): nothing was imported.")
        }
        guard answer.replicaServerGen > state.serverGen else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase,
                               "'\(deltaPath)' is at generation \(answer.replicaServerGen), not newer than the geodatabase's \(state.serverGen): already imported, nothing was changed.")
        }
        try await geodatabase.core.applyOfflineSync(uploadedThrough: nil, download: answer.edits) { state in
            state.serverGen = answer.replicaServerGen
            if let gens = answer.layerServerGens { state.layerServerGens = gens }
        }
        return SyncResult.Counts(answer.edits)
    }

    /// Registers a copy of a pre-planned geodatabase as a new replica of the service (before its first sync):
    /// the service answers a new replica id at the copy's generation, so the first sync brings exactly what
    /// changed since the copy's data was made.
    public func register(copy geodatabase: OfflineGeodatabase) async throws -> OfflineReplicaState {
        var state = try await geodatabase.state()
        var request = ReplicaRequest(replicaName: Self.replicaName(for: geodatabase.path), layers: state.layers, returnAttachments: false,
                                     syncModel: state.syncModel, syncDirection: state.syncDirection, dataFormat: .json, gdbVersion: state.gdbVersion)
        request.registerAtGeneration = state.serverGen
        let package: ReplicaPackage
        do { package = try await service.createReplica(request) } catch {
            throw RuntimeError.wrapping(error, operation: "Registering '\(geodatabase.path)' with \(service.url)")
        }
        state.replicaID = package.replicaID
        state.replicaName = package.replicaName
        state.isRegistered = true
        state.lastSyncDate = nil
        try await geodatabase.core.saveOfflineState(state)
        await geodatabase.featureService.makeReadOnly(nil)
        return state
    }

    /// Removes the geodatabase's replica from the service; the file stays, read-only.
    public func unregister(geodatabase: OfflineGeodatabase) async throws {
        var state = try await geodatabase.state()
        try await unregister(syncID: state.replicaID)
        state.isRegistered = false
        try await geodatabase.core.saveOfflineState(state)
        await geodatabase.featureService.makeReadOnly("the geodatabase '\(geodatabase.path)' was unregistered from its service: it is read-only.")
    }

    /// Removes a replica from the service by its id.
    public func unregister(syncID: String) async throws {
        do { try await service.unRegisterReplica(id: syncID) } catch {
            throw RuntimeError.wrapping(error, operation: "Unregistering replica \(syncID) from \(service.url)")
        }
    }

    /// Writes `text` to `path` through a temporary file renamed over it (never half a file).
    static func write(_ text: String, to path: String) throws {
        let temporary = "\(path).partial-\(UUID().uuidString.prefix(8))"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            if FileManager.default.fileExists(atPath: path) { _ = try FileManager.default.replaceItemAt(URL(fileURLWithPath: path), withItemAt: URL(fileURLWithPath: temporary)) } else {
                try FileManager.default.moveItem(atPath: temporary, toPath: path)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "Cannot write '\(path)': \(error)")
        }
    }
}
