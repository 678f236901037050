import Foundation
import Service
import FeatureServiceModel
import Runtime
import WebMap

/// What `SyncTask.generateGeodatabase` takes offline: which layers and tables, which of their rows (an
/// area, per-layer filters), attachments or not, the sync model and direction, and on a branch-versioned
/// service the version.
public struct GenerateGeodatabaseParameters: Sendable {
    /// Layer and table ids.
    public var layers: [Int]
    /// Features intersecting this area are taken (nil: all); in `extentSpatialReference` (default WGS84).
    public var extent: Envelope?
    public var extentSpatialReference: SpatialReference?
    /// Per-layer filters (`where`), beside the area.
    public var layerQueries: [Int: ReplicaLayerQuery]
    public var returnAttachments: Bool
    public var syncModel: SyncModel
    public var syncDirection: SyncDirection
    /// The version the replica belongs to (branch-versioned services; nil: the default version).
    public var gdbVersion: String?
    public var replicaName: String?

    public init(layers: [Int], extent: Envelope? = nil, extentSpatialReference: SpatialReference? = nil, layerQueries: [Int: ReplicaLayerQuery] = [:],
                returnAttachments: Bool = true, syncModel: SyncModel = .perReplica, syncDirection: SyncDirection = .bidirectional,
                gdbVersion: String? = nil, replicaName: String? = nil) {
        self.layers = layers
        self.extent = extent
        self.extentSpatialReference = extentSpatialReference
        self.layerQueries = layerQueries
        self.returnAttachments = returnAttachments
        self.syncModel = syncModel
        self.syncDirection = syncDirection
        self.gdbVersion = gdbVersion
        self.replicaName = replicaName
    }

    /// The createReplica request these parameters make.
    var replicaRequest: ReplicaRequest {
        var queries = layerQueries
        for id in layers where queries[id] == nil { queries[id] = ReplicaLayerQuery(queryOption: .useFilter, useGeometry: extent != nil) }
        return ReplicaRequest(replicaName: replicaName, layers: layers, layerQueries: queries, geometry: extent.map(Geometry.envelope),
                              inSpatialReference: extent == nil ? nil : (extentSpatialReference ?? .wgs84), returnAttachments: returnAttachments,
                              syncModel: syncModel, syncDirection: syncDirection, dataFormat: .json, gdbVersion: gdbVersion)
    }
}

/// What a sync did.
public struct SyncResult: Sendable, Equatable {
    public struct Counts: Sendable, Equatable, Codable {
        public var adds = 0
        public var updates = 0
        public var deletes = 0
        public var attachments = 0

        public init() {}
        init(_ edits: [ReplicaLayerEdits]) {
            for layer in edits {
                adds += layer.adds.count
                updates += layer.updates.count
                deletes += layer.deleteIds.count
                attachments += layer.attachmentAdds.count + layer.attachmentUpdates.count + layer.attachmentDeleteIds.count
            }
        }
    }

    /// A feature changed on both sides since the last sync, and which side's edit won.
    public struct Conflict: Sendable, Equatable, Codable {
        public enum Winner: String, Sendable, Equatable, Codable { case local, service }
        public var layer: Int
        public var globalId: String
        public var winner: Winner
    }

    public var direction: SyncDirection
    public var uploaded: Counts
    public var downloaded: Counts
    public var conflicts: [Conflict]
    /// The service's generation after the sync.
    public var serverGen: Int64
}
