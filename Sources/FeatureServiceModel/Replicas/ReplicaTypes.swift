import Foundation
import WebMap

// The typed requests and answers of the replica operations (docs/service.md, "Replicas"): createReplica,
// synchronizeReplica, unRegisterReplica, replicas and replicas/<id>. The HTTP face decodes requests into
// these and encodes the answers with `json`; the runtime's remote service reads the answers back with
// `init(json:)`, so both sides share one definition of the ArcGIS REST shapes.

/// Which way changes travel in a sync.
public enum SyncDirection: String, Sendable, Codable, CaseIterable {
    case bidirectional, upload, download
    /// `snapshot`: a download of everything (ArcGIS's name; accepted, answered as a download).
    case snapshot
}

/// How a replica counts generations: one for the whole replica, or one per layer.
public enum SyncModel: String, Sendable, Codable, CaseIterable {
    case perReplica, perLayer, none
}

/// The format of the data a createReplica answers.
public enum ReplicaDataFormat: String, Sendable, Codable, CaseIterable {
    case json, sqlite
}

/// `layerQueries` for one layer: which of its rows the replica takes.
public struct ReplicaLayerQuery: Sendable, Equatable {
    /// `all` (ignore the filter), `useFilter` (the `where` and the geometry), `none` (schema only).
    public enum Option: String, Sendable, Equatable { case all, useFilter, none }
    public var queryOption: Option
    public var whereClause: String?
    public var useGeometry: Bool
    /// Related tables' rows: only those related to the rows taken (`includeRelated`).
    public var includeRelated: Bool

    public init(queryOption: Option = .useFilter, whereClause: String? = nil, useGeometry: Bool = true, includeRelated: Bool = true) {
        self.queryOption = queryOption
        self.whereClause = whereClause
        self.useGeometry = useGeometry
        self.includeRelated = includeRelated
    }
}

/// The parameters of createReplica.
public struct ReplicaRequest: Sendable {
    public var replicaName: String?
    /// Layer and table ids; empty means every layer and table.
    public var layers: [Int]
    public var layerQueries: [Int: ReplicaLayerQuery]
    /// The area (features intersecting it), in `inSpatialReference` (default: the service's).
    public var geometry: Geometry?
    public var inSpatialReference: SpatialReference?
    public var returnAttachments: Bool
    public var syncModel: SyncModel
    public var syncDirection: SyncDirection
    public var dataFormat: ReplicaDataFormat
    /// The version the replica belongs to on a branch-versioned service (default: the default version).
    public var gdbVersion: String?
    /// Registers a new replica whose generation is this moment and answers no data (a copy of a
    /// pre-planned geodatabase whose data was read at that generation). Nil: a normal replica.
    public var registerAtGeneration: Int64? = nil

    public init(replicaName: String? = nil, layers: [Int] = [], layerQueries: [Int: ReplicaLayerQuery] = [:], geometry: Geometry? = nil,
                inSpatialReference: SpatialReference? = nil, returnAttachments: Bool = true, syncModel: SyncModel = .perReplica,
                syncDirection: SyncDirection = .bidirectional, dataFormat: ReplicaDataFormat = .json, gdbVersion: String? = nil) {
        self.replicaName = replicaName
        self.layers = layers
        self.layerQueries = layerQueries
        self.geometry = geometry
        self.inSpatialReference = inSpatialReference
        self.returnAttachments = returnAttachments
        self.syncModel = syncModel
        self.syncDirection = syncDirection
        self.dataFormat = dataFormat
        self.gdbVersion = gdbVersion
    }
}

/// A feature inside replica data or sync edits: attributes (object id and global id included), geometry in
/// the layer's spatial reference, and the moment (epoch ms) of its last edit, which decides conflicts
/// ("last in wins"). ArcGIS clients send no `editMoment`; the service then takes the moment it receives
/// the edit.
public struct ReplicaFeature: Sendable, Equatable {
    public var attributes: Attributes
    public var geometry: Geometry?
    public var editMoment: Int64?

    public init(attributes: Attributes, geometry: Geometry? = nil, editMoment: Int64? = nil) {
        self.attributes = attributes
        self.geometry = geometry
        self.editMoment = editMoment
    }
}

/// An attachment inside replica data or sync edits (its bytes embedded, base64 in JSON).
public struct ReplicaAttachment: Sendable, Equatable {
    public var globalId: String
    public var parentGlobalId: String
    public var name: String
    public var contentType: String
    public var data: Data
    public var editMoment: Int64?

    public init(globalId: String, parentGlobalId: String, name: String, contentType: String, data: Data, editMoment: Int64? = nil) {
        self.globalId = globalId
        self.parentGlobalId = parentGlobalId
        self.name = name
        self.contentType = contentType
        self.data = data
        self.editMoment = editMoment
    }
}

/// One layer's changes in a sync, by global id, either way (uploaded by the client, downloaded from the
/// service): `{"id", "features": {"adds", "updates", "deleteIds"}, "attachments": {"adds", "updates", "deleteIds"}}`.
public struct ReplicaLayerEdits: Sendable, Equatable {
    public var id: Int
    public var adds: [ReplicaFeature]
    public var updates: [ReplicaFeature]
    /// Global ids of deleted features.
    public var deleteIds: [String]
    public var attachmentAdds: [ReplicaAttachment]
    public var attachmentUpdates: [ReplicaAttachment]
    /// Global ids of deleted attachments.
    public var attachmentDeleteIds: [String]
    /// When each deleted feature was deleted (epoch ms, by global id): decides a delete against a later
    /// update on the service. A delete without one counts as made when the service receives it. JSON:
    /// `"features": {"deleteMoments": {"{GLOBALID}": ms}}` (our extension; ArcGIS clients omit it).
    public var deleteMoments: [String: Int64] = [:]

    public init(id: Int, adds: [ReplicaFeature] = [], updates: [ReplicaFeature] = [], deleteIds: [String] = [],
                attachmentAdds: [ReplicaAttachment] = [], attachmentUpdates: [ReplicaAttachment] = [], attachmentDeleteIds: [String] = []) {
        self.id = id
        self.adds = adds
        self.updates = updates
        self.deleteIds = deleteIds
        self.attachmentAdds = attachmentAdds
        self.attachmentUpdates = attachmentUpdates
        self.attachmentDeleteIds = attachmentDeleteIds
    }

    public var isEmpty: Bool {
        adds.isEmpty && updates.isEmpty && deleteIds.isEmpty && attachmentAdds.isEmpty && attachmentUpdates.isEmpty && attachmentDeleteIds.isEmpty
    }
}

/// One layer of a replica's data: its rows (all fields) and, when asked, their attachments.
public struct ReplicaLayerData: Sendable, Equatable {
    public var id: Int
    public var features: [ReplicaFeature]
    public var attachments: [ReplicaAttachment]

    public init(id: Int, features: [ReplicaFeature], attachments: [ReplicaAttachment] = []) {
        self.id = id
        self.features = features
        self.attachments = attachments
    }
}

/// A layer's generation (per-layer sync model), and in a sync request the direction for that layer.
public struct LayerServerGen: Sendable, Equatable {
    public var id: Int
    public var serverGen: Int64
    public var syncDirection: SyncDirection?

    public init(id: Int, serverGen: Int64, syncDirection: SyncDirection? = nil) {
        self.id = id
        self.serverGen = serverGen
        self.syncDirection = syncDirection
    }
}

/// The answer of createReplica with `dataFormat=json` and `transportType=esriTransportTypeEmbedded`.
public struct ReplicaPackage: Sendable, Equatable {
    public var replicaName: String
    public var replicaID: String
    /// The generation the data was read at (every layer's, in the per-layer model too).
    public var serverGen: Int64
    public var layerServerGens: [LayerServerGen]?
    public var syncModel: SyncModel
    public var syncDirection: SyncDirection
    /// The version the replica belongs to (branch-versioned services).
    public var gdbVersion: String?
    public var layers: [ReplicaLayerData]

    public init(replicaName: String, replicaID: String, serverGen: Int64, layerServerGens: [LayerServerGen]?, syncModel: SyncModel,
                syncDirection: SyncDirection, gdbVersion: String?, layers: [ReplicaLayerData]) {
        self.replicaName = replicaName
        self.replicaID = replicaID
        self.serverGen = serverGen
        self.layerServerGens = layerServerGens
        self.syncModel = syncModel
        self.syncDirection = syncDirection
        self.gdbVersion = gdbVersion
        self.layers = layers
    }
}

/// The parameters of synchronizeReplica.
public struct SyncRequest: Sendable {
    public var replicaID: String
    /// The generation of the last sync (per-replica model).
    public var replicaServerGen: Int64?
    /// Each layer's generation and direction (per-layer model).
    public var syncLayers: [LayerServerGen]?
    public var syncDirection: SyncDirection
    public var rollbackOnFailure: Bool
    /// The client's changes since the last sync.
    public var edits: [ReplicaLayerEdits]
    public var closeReplica: Bool

    public init(replicaID: String, replicaServerGen: Int64? = nil, syncLayers: [LayerServerGen]? = nil, syncDirection: SyncDirection = .bidirectional,
                rollbackOnFailure: Bool = true, edits: [ReplicaLayerEdits] = [], closeReplica: Bool = false) {
        self.replicaID = replicaID
        self.replicaServerGen = replicaServerGen
        self.syncLayers = syncLayers
        self.syncDirection = syncDirection
        self.rollbackOnFailure = rollbackOnFailure
        self.edits = edits
        self.closeReplica = closeReplica
    }
}

/// A feature both sides changed since the last sync, and whose edit won ("last in wins" by edit moment).
public struct ReplicaConflict: Sendable, Equatable {
    public enum Winner: String, Sendable, Equatable { case client, service }
    public var layer: Int
    public var globalId: String
    public var winner: Winner

    public init(layer: Int, globalId: String, winner: Winner) {
        self.layer = layer
        self.globalId = globalId
        self.winner = winner
    }
}

/// The answer of synchronizeReplica.
public struct SyncAnswer: Sendable, Equatable {
    public var replicaName: String
    public var replicaID: String
    /// The new generation: the next sync asks for changes after it.
    public var replicaServerGen: Int64
    public var layerServerGens: [LayerServerGen]?
    /// What the upload did, per layer (by global id); empty for download-only.
    public var editResults: [LayerEditResults]
    /// The service's changes since the client's generation (download, bidirectional), excluding the
    /// client's own uploaded edits, with the winner's values for conflicting features.
    public var edits: [ReplicaLayerEdits]
    public var conflicts: [ReplicaConflict]

    public init(replicaName: String, replicaID: String, replicaServerGen: Int64, layerServerGens: [LayerServerGen]?,
                editResults: [LayerEditResults], edits: [ReplicaLayerEdits], conflicts: [ReplicaConflict]) {
        self.replicaName = replicaName
        self.replicaID = replicaID
        self.replicaServerGen = replicaServerGen
        self.layerServerGens = layerServerGens
        self.editResults = editResults
        self.edits = edits
        self.conflicts = conflicts
    }
}

/// A registered replica as `replicas` and `replicas/<id>` describe it.
public struct ReplicaInfo: Sendable, Equatable {
    public var replicaName: String
    public var replicaID: String
    public var replicaOwner: String
    public var layers: [Int]
    public var serverGen: Int64
    public var layerServerGens: [LayerServerGen]?
    public var syncModel: SyncModel
    public var syncDirection: SyncDirection
    public var gdbVersion: String?
    public var creationDate: Int64
    public var lastSyncDate: Int64?
    /// What the replica takes of each layer (its `layerQueries`, defaults filled in), by layer id.
    public var layerQueries: [Int: ReplicaLayerQuery] = [:]

    public init(replicaName: String, replicaID: String, replicaOwner: String, layers: [Int], serverGen: Int64, layerServerGens: [LayerServerGen]?,
                syncModel: SyncModel, syncDirection: SyncDirection, gdbVersion: String?, creationDate: Int64, lastSyncDate: Int64?) {
        self.replicaName = replicaName
        self.replicaID = replicaID
        self.replicaOwner = replicaOwner
        self.layers = layers
        self.serverGen = serverGen
        self.layerServerGens = layerServerGens
        self.syncModel = syncModel
        self.syncDirection = syncDirection
        self.gdbVersion = gdbVersion
        self.creationDate = creationDate
        self.lastSyncDate = lastSyncDate
    }
}
