import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// What a crew edits: one feature service, its layers and tables, its versions, and the local edits of every
/// table it connected (docs/runtime.md "Service geodatabase and versions").
///
/// ```swift
/// let service = try await InProcessFeatureService.loading(folder: "Samples/DamageAssessment",
///                                                         credential: .password(user: "editor01", password: "sample-editor01"))
/// let geodatabase = ServiceGeodatabase(service: service)
/// try await geodatabase.load()
/// let version = try await geodatabase.createVersion(name: "Fix1", access: .private, description: "storm crew 3")
/// try await geodatabase.switchVersion(to: version.versionName)
/// let damage = try await geodatabase.table(layerID: 0)
/// ```
///
/// Local edits stay on this side until `applyEdits()` sends those of all connected tables as one service-level
/// apply (all land or none does), or `undoLocalEdits()` drops them.
public actor ServiceGeodatabase {
    public nonisolated let service: any FeatureService
    /// The web map whose pop-ups and add-feature rules apply; nil for the default pop-ups.
    public nonisolated let map: WebMapDocument?

    /// What to do with edits on the default version of a branch-versioned service.
    public enum DefaultVersionPolicy: String, Sendable {
        /// Every edit is `runtime/default-version-read-only` (the default).
        case refuse
        /// The user's rights decide.
        case allow
    }

    /// What `switchVersion` and sign-in do with pending local edits.
    public enum PendingEditsPolicy: String, Sendable {
        case apply, discard
    }

    public var defaultVersionPolicy: DefaultVersionPolicy = .refuse
    public func setDefaultVersionPolicy(_ policy: DefaultVersionPolicy) { defaultVersionPolicy = policy }

    struct Loaded: Sendable {
        var description: ServiceDescription
        var popups: PopupDefinitions
        var defaultVersionName: String?
    }

    private let loader: LoadOnce<Loaded>
    private let requestedVersion: String?
    var currentVersion: String?
    var edits: [Int: TableEdits] = [:]
    var connected: [Int] = []
    var nextTemporaryId: Int64 = -1
    /// The service's object ids of applied local adds, by their temporary ids (a temporary id stays usable).
    var appliedTemporaryIds: [FeatureKey: Int64] = [:]
    /// The same for attachments: the service's attachment ids of applied attachment adds (`objectId` of the key
    /// holds the temporary attachment id).
    var appliedTemporaryAttachmentIds: [FeatureKey: Int64] = [:]
    /// The edits of an apply whose answer never came (no answer within the timeout, connection lost): the
    /// next `applyEdits` asks the service whether they landed before sending anything again.
    var unansweredApply: [Int: TableEdits]?
    var behaviours: [any EditBehaviour] = []
    /// Features with a pop-up edit session in progress (one-to-many children of these may not be edited).
    var featuresBeingEdited: Set<FeatureKey> = []
    /// True while a behaviour writes (its own edits never fire behaviours).
    var behaviourDepth = 0

    public init(service: any FeatureService, versionName: String? = nil, map: WebMapDocument? = nil) {
        self.service = service
        self.map = map
        requestedVersion = versionName
        loader = LoadOnce { [service, map] in try await Self.loadDescription(service: service, map: map) }
    }

    /// A geodatabase of the feature service at `url` (`.../FeatureServer`) over HTTP, as docs/runtime.md names it:
    /// `ServiceGeodatabase(url:, versionName:?, credential:?)`. Call `load()` before use.
    public init(url: String, versionName: String? = nil, credential: Credential? = nil, map: WebMapDocument? = nil,
                timeout: Duration = .seconds(30)) throws {
        self.init(service: try RemoteFeatureService(url: url, credential: credential, timeout: timeout), versionName: versionName, map: map)
    }

    private static func loadDescription(service: any FeatureService, map: WebMapDocument?) async throws -> Loaded {
        let description: ServiceDescription
        do { description = try await service.describe() } catch { throw RuntimeError.wrapping(error, operation: "Loading \(service.url)") }
        let popups = try map.map { try PopupDefinitions(description: description, map: $0) } ?? PopupDefinitions(description: description)
        var defaultName: String?
        if description.supportsBranchVersioning {
            do { defaultName = try await service.versionManagementInfo().defaultVersionName } catch {
                throw RuntimeError.wrapping(error, operation: "Reading the versions of \(service.url)")
            }
        }
        return Loaded(description: description, popups: popups, defaultVersionName: defaultName)
    }

    // MARK: Loading

    /// Loads the service's metadata (and the default version's name). Idempotent; concurrent callers share one
    /// attempt; a failed load can be retried.
    public func load() async throws {
        let loaded = try await loader.load()
        if currentVersion == nil { currentVersion = requestedVersion ?? loaded.defaultVersionName }
    }

    /// Cancels a load in progress.
    public func cancelLoad() async { await loader.cancelLoad() }

    public var loadStatus: LoadStatus { get async { await loader.status } }

    func loaded() async throws -> Loaded { try await loader.load() }

    /// True when the service is branch-versioned.
    public var supportsBranchVersioning: Bool { get async throws { try await loaded().description.supportsBranchVersioning } }
    /// `sde.DEFAULT` on a branch-versioned service; nil otherwise.
    public var defaultVersionName: String? { get async throws { try await loaded().defaultVersionName } }
    /// The version queries read and edits go to (nil on a service without versions).
    public var versionName: String? { currentVersion }

    /// The service's layers and tables: id, name, and whether it is a table.
    public var layerInfos: [(id: Int, name: String, isTable: Bool)] {
        get async throws { try await loaded().popups.tables.values.sorted { $0.id < $1.id }.map { ($0.id, $0.name, $0.isTable) } }
    }

    // MARK: Tables

    /// The feature table of a layer or table id; it joins `connectedTables`.
    public func table(layerID: Int) async throws -> FeatureTable {
        let loaded = try await loaded()
        guard let info = loaded.popups.tables[layerID] else {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "The service '\(loaded.description.name)' has no layer or table with id \(layerID).", serviceCode: 404)
        }
        if !connected.contains(layerID) { connected.append(layerID) }
        return FeatureTable(info: info, geodatabase: self)
    }

    /// The feature table of a layer or table named `name` (its service name, or its title in the web map;
    /// case-insensitive), or an id written as text.
    public func table(named name: String) async throws -> FeatureTable {
        if let id = Int(name) { return try await table(layerID: id) }
        let loaded = try await loaded()
        if let info = loaded.popups.tables.values.sorted(by: { $0.id < $1.id }).first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame })
            ?? loaded.popups.tables.values.sorted(by: { $0.id < $1.id }).first(where: {
                $0.behavior.layer.title?.caseInsensitiveCompare(name) == .orderedSame || $0.behavior.layer.id == name }) {
            return try await table(layerID: info.id)
        }
        let names = loaded.popups.tables.values.sorted { $0.id < $1.id }.map { "\($0.id) '\($0.name)'" }.joined(separator: ", ")
        throw RuntimeError(RuntimeError.Identifier.serviceError, "The service '\(loaded.description.name)' has no layer or table named '\(name)' (it has \(names)).", serviceCode: 404)
    }

    /// The tables handed out by `table(layerID:)`, in the order they were first asked for.
    public var connectedTables: [FeatureTable] {
        get async throws {
            let loaded = try await loaded()
            return connected.compactMap { id in loaded.popups.tables[id].map { FeatureTable(info: $0, geodatabase: self) } }
        }
    }

    func info(_ id: Int) async throws -> TableInfo {
        guard let info = try await loaded().popups.tables[id] else {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "No layer or table with id \(id).", serviceCode: 404)
        }
        return info
    }

    // MARK: Local edits

    /// The service's id for a temporary id that was applied; other ids as they are.
    public func resolvedObjectId(_ objectId: Int64, tableID: Int) -> Int64 {
        objectId < 0 ? appliedTemporaryIds[FeatureKey(tableID: tableID, objectId: objectId)] ?? objectId : objectId
    }

    /// True while any connected table has local edits.
    public var hasLocalEdits: Bool { edits.values.contains { !$0.isEmpty } }

    /// The number of local edits (adds, updates, deletes, attachment adds and deletes) of every table.
    public var localEditCount: Int { edits.values.reduce(0) { $0 + $1.count } }

    /// Drops every local edit of every table.
    public func undoLocalEdits() {
        edits.removeAll()
    }

    /// Registers a behaviour (docs/runtime.md "Behaviours"): it runs after the local edits it watches.
    public func register(_ behaviour: any EditBehaviour) { behaviours.append(behaviour) }

    // MARK: Sign-in

    /// Switches the user. Refused while local edits exist (`runtime/local-edits-pending`).
    public func signIn(_ credential: Credential?) async throws {
        guard !hasLocalEdits else {
            throw RuntimeError(RuntimeError.Identifier.localEditsPending, "Signing in: \(localEditCount) local edits are pending. Apply or undo them first.")
        }
        do { try await service.signIn(credential) } catch { throw RuntimeError.wrapping(error, operation: "Signing in") }
    }
}
