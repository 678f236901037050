import Foundation
import FeatureServiceModel
import WebMap

/// How the runtime talks to a feature service: the same typed requests and answers whether the service is the
/// core in-process (`InProcessFeatureService`, the "mock") or any ArcGIS REST feature service over HTTP
/// (`RemoteFeatureService`). The values are the service core's own (`QueryParameters`, `FeatureSet`,
/// `LayerEdits`...), so both implementations answer exactly alike.
///
/// Implementations are actors: the signed-in user (token) is shared state. Every refusal is a `RuntimeError`
/// (`runtime/authentication`, `runtime/unreachable`, `runtime/service-error` with the service's code, or
/// `runtime/version-not-found`).
public protocol FeatureService: Sendable {
    /// The service's URL (`.../FeatureServer`), or a description of the in-process source.
    var url: String { get }

    /// Signs in (user and password exchanged for a token, or a token as it is); nil signs out (anonymous).
    func signIn(_ credential: Credential?) async throws
    /// The signed-in user's name, nil when anonymous.
    func userName() async -> String?

    /// The service root and every layer's and table's metadata.
    func describe() async throws -> ServiceDescription

    /// A page of features (`resultOffset` / `resultRecordCount` honoured, `exceededTransferLimit` set).
    func queryFeatures(layer: Int, _ parameters: QueryParameters) async throws -> FeatureSet
    /// The number of features matching.
    func queryCount(layer: Int, _ parameters: QueryParameters) async throws -> Int
    /// The object ids matching (not capped by `maxRecordCount`).
    func queryObjectIds(layer: Int, _ parameters: QueryParameters) async throws -> [Int64]

    /// Service-level applyEdits: one call, with rollback across every layer when `options.rollbackOnFailure`.
    func applyEdits(_ edits: [LayerEdits], options: EditOptions) async throws -> [LayerEditResults]

    /// The attachments of one feature, and the bytes of one.
    func attachments(layer: Int, objectId: Int64, gdbVersion: String?) async throws -> [AttachmentInfo]
    func attachmentData(layer: Int, objectId: Int64, attachmentId: Int64, gdbVersion: String?) async throws -> Data

    /// Branch versioning (VersionManagementServer).
    func versionManagementInfo() async throws -> VersionManagementInfo
    func versions() async throws -> [VersionInfo]
    func version(named name: String) async throws -> VersionInfo
    func createVersion(name: String, access: String?, description: String) async throws -> VersionInfo

    /// Offline sync (docs/service.md, "Replicas"): a replica's data, a sync, removing a replica, the caller's replicas.
    func createReplica(_ request: ReplicaRequest) async throws -> ReplicaPackage
    func synchronizeReplica(_ request: SyncRequest) async throws -> SyncAnswer
    func unRegisterReplica(id: String) async throws
    func replicas() async throws -> [ReplicaInfo]
}

/// How to sign in.
public enum Credential: Sendable, Equatable {
    /// A user name and password, exchanged for a token (and again when the token expires).
    case password(user: String, password: String)
    /// A token obtained elsewhere (it cannot be refreshed).
    case token(String)
}

/// What `describe()` answers: the service root and each layer's and table's metadata, as the service gives them.
public struct ServiceDescription: Sendable {
    /// The service's name (the path part before `/FeatureServer`).
    public var name: String
    /// The service root (`.../FeatureServer?f=json`).
    public var root: JSON
    /// Every layer and table, in id order, with its metadata (`.../FeatureServer/<id>?f=json`).
    public var layers: [(id: Int, metadata: JSON)]

    public init(name: String, root: JSON, layers: [(id: Int, metadata: JSON)]) {
        self.name = name
        self.root = root
        self.layers = layers.sorted { $0.id < $1.id }
    }

    /// True when the service root says it has versioned data (branch versioning).
    public var supportsBranchVersioning: Bool { root["hasVersionedData"]?.bool ?? false }
    /// True when the service accepts applyEdits with `useGlobalIds`.
    public var supportsGlobalIds: Bool { root["supportsApplyEditsWithGlobalIds"]?.bool ?? false }
}
