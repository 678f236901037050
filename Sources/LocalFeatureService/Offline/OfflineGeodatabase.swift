import Foundation
import Service
import FeatureServiceModel
import Runtime
import WebMap

/// A local geodatabase made by `SyncTask.generateGeodatabase`: one SQLite file holding the replica's layers
/// and rows and what the replica knows of its service (`OfflineReplicaState`).
///
/// Offline editing goes through `featureService`, an `InProcessFeatureService` over the file: a
/// `ServiceGeodatabase` over it gives the same feature tables, pop-up edit sessions, validation and
/// behaviours as online, and `applyEdits` writes the edits into the file, where the next sync finds them.
///
/// Opening takes the file's lock (one command at a time: a second open answers `runtime/in-use`); `close()`
/// gives it back.
public final class OfflineGeodatabase: Sendable {
    public let path: String
    public let core: ServiceCore
    public let featureService: InProcessFeatureService
    private let lock: GeodatabaseFileLock
    /// The sync or delta operation running on this file in this process, if any (one at a time).
    private let busy = BusyFlag()

    private init(path: String, core: ServiceCore, featureService: InProcessFeatureService, lock: GeodatabaseFileLock) {
        self.path = path
        self.core = core
        self.featureService = featureService
        self.lock = lock
    }

    /// Opens the offline geodatabase at `path`, taking its lock.
    public static func open(_ path: String) async throws -> OfflineGeodatabase {
        guard FileManager.default.fileExists(atPath: path) else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "No geodatabase at '\(path)': make one with `maprules offline generate`.")
        }
        guard Self.looksLikeSQLite(path) else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)' is not a geodatabase made by `maprules offline generate` (not a SQLite file).")
        }
        // Read-only first: opening the core migrates the file, which must not happen to a database of someone else's.
        let probe: SQLiteFileProbe?
        do { probe = try SQLiteFileProbe.read(path) } catch let error as ServiceError {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "\(error.message) An offline geodatabase is made by `maprules offline generate`.")
        }
        guard let probe, probe.hasOfflineState, probe.isMapRulesDatabase else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)' is a SQLite database but not an offline geodatabase (no replica in it); nothing was written to it. Make one with `maprules offline generate`.")
        }
        let lock = try GeodatabaseFileLock(geodatabase: path)
        let core: ServiceCore
        do {
            var configuration = ServiceCore.Configuration(database: path)
            configuration.singleConnection = true
            core = try await ServiceCore.open(configuration)
        } catch {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)' cannot be opened as a geodatabase: \(error)")
        }
        let state: OfflineReplicaState?
        do { state = try await core.offlineState() } catch {
            try? core.close()
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)': its replica state cannot be read: \(error)")
        }
        guard let state, let name = core.serviceNames.first else {
            try? core.close()
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)' is a database but not an offline geodatabase (no replica in it).")
        }
        let service = InProcessFeatureService(core: core, serviceName: name)
        if !state.isRegistered {
            await service.makeReadOnly("the geodatabase '\(path)' was unregistered from its service: it is read-only.")
        } else if state.syncDirection == .download {
            // Its edits could never be uploaded: refused when made, not at the sync.
            await service.makeReadOnly("the geodatabase '\(path)' is download-only (generated with --direction download, or from a service that allows no edits): it is read-only.")
        }
        return OfflineGeodatabase(path: path, core: core, featureService: service, lock: lock)
    }

    /// The replica state as the file holds it now.
    public func state() async throws -> OfflineReplicaState {
        guard let state = try await core.offlineState() else {
            throw RuntimeError(RuntimeError.Identifier.offlineGeodatabase, "'\(path)' holds no replica state.")
        }
        return state
    }

    /// The local edits not yet synced, per layer.
    public func pendingEdits() async throws -> [OfflinePendingCount] {
        try await core.offlinePendingCounts()
    }

    /// True when local edits wait for a sync.
    public func hasPendingEdits() async throws -> Bool {
        try await pendingEdits().contains { $0.total > 0 }
    }

    /// Runs one sync or delta operation; a second one while it runs is refused with `runtime/in-use`.
    func exclusively<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        guard busy.claim() else {
            throw RuntimeError(RuntimeError.Identifier.inUse, "\(operation): the geodatabase '\(path)' is in use by another sync or delta operation; try again when it has finished.")
        }
        defer { busy.release() }
        return try await body()
    }

    /// Closes the file and gives the lock back.
    public func close() {
        try? core.close()
        lock.release()
    }

    /// True when the file starts with SQLite's header.
    static func looksLikeSQLite(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header.starts(with: Array("SQLite format 3".utf8))
    }
}

/// A flag taken by one operation at a time.
final class BusyFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false

    func claim() -> Bool { lock.withLock { if taken { return false }; taken = true; return true } }
    func release() { lock.withLock { taken = false } }
}
