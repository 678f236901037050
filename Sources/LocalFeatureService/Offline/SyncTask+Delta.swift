import Foundation
import Service
import FeatureServiceModel
import Runtime
import WebMap

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
        try writeDeltaFile(JSON.object(members).text, to: deltaPath, geodatabase: geodatabase.path)
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: deltaPath, isDirectory: &isDirectory) else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "No delta file at '\(deltaPath)': nothing was imported.")
        }
        guard !isDirectory.boolValue else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(deltaPath)' is a directory, not a delta file: nothing was imported.")
        }
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: deltaPath))) } catch {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "Cannot read the delta '\(deltaPath)': \(FileErrorText.describe(error)); nothing was imported.")
        }
        do {
            answer = try SyncAnswer(json: try JSON.parse(fileBytes: bytes))
        } catch {
            var why = (error as? ServiceError).map { $0.details.first ?? $0.message } ?? "\(error)"
            while why.hasSuffix(".") { why.removeLast() }
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase,
                               "'\(deltaPath)' is not a delta (a synchronizeReplica answer in JSON, as `export-delta` or a sync writes): \(why); nothing was imported.")
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
    ///
    /// A file knows its replica and where it was when it got it (`registeredPath`). The file at that path,
    /// still registered, already is a replica: registering it again would leave the old replica on the service
    /// for good, so it is refused unless `force`, which unregisters the old replica first (one that the service
    /// no longer knows is taken as already gone). A copy found at another path gets a replica of its own and
    /// leaves the original's alone.
    public func register(copy geodatabase: OfflineGeodatabase, force: Bool = false) async throws -> OfflineReplicaState {
        var state = try await geodatabase.state()
        let here = OfflineReplicaState.canonicalPath(geodatabase.path)
        if state.isRegistered && state.registeredPath == here {
            guard force else {
                throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase,
                                   "'\(geodatabase.path)' is still registered as replica \(state.replicaID) of \(state.serviceURL): registering it again would leave that replica behind on the service (nothing was registered). Sync it with `maprules offline sync`, or pass --force to unregister \(state.replicaID) first and register a new replica.")
            }
            do { try await service.unRegisterReplica(id: state.replicaID) } catch {
                // Unregistered already (from another client, or by an administrator): nothing to remove.
                guard Self.isReplicaNotFound(error) else {
                    throw RuntimeError.wrapping(error, operation: "Unregistering replica \(state.replicaID) from \(service.url) before registering '\(geodatabase.path)' again (nothing was registered)")
                }
            }
            state.isRegistered = false
            try await geodatabase.core.saveOfflineState(state)
            await geodatabase.featureService.makeReadOnly("the geodatabase '\(geodatabase.path)' was unregistered from its service: it is read-only.")
        }
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
        state.registeredPath = here
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

    /// Whether `error` is the service's "Replica not found." (unknown, or unregistered already), as the
    /// in-process service throws it or as the HTTP client reports it.
    static func isReplicaNotFound(_ error: any Error) -> Bool {
        let notFound = ServiceError.replicaNotFound("")
        if let error = error as? ServiceError { return error.code == notFound.code && error.message == notFound.message }
        if let error = error as? RuntimeError { return error.serviceCode == notFound.code && error.message.contains(notFound.message) }
        return false
    }

    /// Removes a replica from the service by its id.
    public func unregister(syncID: String) async throws {
        do { try await service.unRegisterReplica(id: syncID) } catch {
            throw RuntimeError.wrapping(error, operation: "Unregistering replica \(syncID) from \(service.url)")
        }
    }

    /// Writes `text` to `path` through a temporary file renamed over it (never half a file). Refuses a
    /// directory, the geodatabase itself (or its journal or lock), and an existing file that is not a delta:
    /// exporting again over an earlier delta is fine, overwriting anything else is not.
    static func writeDeltaFile(_ text: String, to path: String, geodatabase: String) throws {
        func refuse(_ why: String) -> RuntimeError {
            RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "Cannot write the delta to '\(path)': \(why); nothing was written.")
        }
        var target = stat()
        if lstat(path, &target) == 0 {
            if (target.st_mode & S_IFMT) == S_IFDIR { throw refuse("it is a directory (give a file name, e.g. \(path)/edits.delta.json)") }
            var source = stat()
            let companions = [geodatabase, geodatabase + "-journal", geodatabase + "-wal", geodatabase + "-shm", GeodatabaseFileLock.lockPath(for: geodatabase)]
            for companion in companions where stat(companion, &source) == 0 && source.st_dev == target.st_dev && source.st_ino == target.st_ino {
                throw refuse("it is the geodatabase's own file \(companion)")
            }
            if (target.st_mode & S_IFMT) != S_IFREG { throw refuse("it is not a regular file") }
            if target.st_size > 0 && !isDelta(path) {
                throw refuse("it exists and is not a delta (a JSON object with a replicaID); give another path or remove it first")
            }
        }
        let temporary = "\(path).partial-\(UUID().uuidString.prefix(8))"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw refuse(FileErrorText.describe(error))
        }
        // rename(2) replaces an existing file atomically; FileManager.replaceItemAt removes the old file first on
        // Linux and could leave neither.
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw refuse(reason.lowercased())
        }
    }

    /// True when the file at `path` reads as an earlier delta: JSON whose top level is an object with `replicaID`.
    private static func isDelta(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 64 << 20), let json = try? JSON.parse(String(decoding: data, as: UTF8.self)),
              case .object(let members) = json else { return false }
        return members.contains { $0.0 == "replicaID" }
    }
}
