import Foundation
import FeatureServiceModel
import WebMap

/// A loaded feature service: its root metadata and settings, and its moment counters.
struct ServiceRecord: Codable {
    var name: String
    var root: String
    var settings: String
    var sourceFolder: String
    var loadedDate: Int64
    var lastMoment: Int64
    var defaultMoment: Int64
}

/// A layer or table of a service: its metadata JSON and its counters.
struct LayerRecord: Codable {
    var key: Int64?
    var service: String
    var layerId: Int
    var metadata: String
    var nextObjectId: Int64
    var nextAttachmentId: Int64
    var defaultMoment: Int64
}

/// One state of one feature in one branch at one moment. Never updated once written.
struct FeatureRowRecord: Codable {
    var id: Int64?
    var layerKey: Int64
    var objectId: Int64
    var globalId: String
    var branch: Int64
    var moment: Int64
    var isDelete: Bool
    /// The attributes as a JSON object (field name -> scalar).
    var attributes: String
    /// Esri JSON in WGS84, nil for tables.
    var geometry: String?
    var xmin: Double?
    var ymin: Double?
    var xmax: Double?
    var ymax: Double?
}

/// The newest row of an object in a branch (a derived index over `featureRow`).
struct HeadRecord: Codable {
    var layerKey: Int64
    var branch: Int64
    var objectId: Int64
    var moment: Int64
    var isDelete: Bool
    var rowId: Int64
}

/// A branch version (DEFAULT included, with branch 0).
struct VersionRecord: Codable {
    var id: Int64?
    var service: String
    var branch: Int64
    var guid: String
    var owner: String
    var name: String
    var qualifiedName: String
    var access: String
    var description: String
    var ancestorMoment: Int64
    var baseMoment: Int64
    var createdDate: Int64
    var modifiedDate: Int64
    var reconcileDate: Int64?
    var postDate: Int64?

    var isDefault: Bool { branch == 0 }
}

/// A conflict found by the last reconcile of a version.
struct ConflictRecord: Codable {
    var id: Int64?
    var versionId: Int64
    var layerKey: Int64
    var objectId: Int64
    var kind: String
    /// JSON array of the field names changed on both sides (byAttribute), or empty.
    var fields: String
    var inspected: Bool
    /// The common-ancestor moment the conflict was measured from.
    var ancestorMoment: Int64
}

/// The bytes of an attachment, shared by every row that refers to them (posting copies the row, not the bytes).
struct AttachmentDataRecord: Codable {
    var id: Int64?
    var bytes: Data
}

/// One state of one attachment in one branch at one moment, versioned like feature rows.
struct AttachmentRowRecord: Codable {
    var id: Int64?
    var layerKey: Int64
    var attachmentId: Int64
    var globalId: String
    var parentObjectId: Int64
    var parentGlobalId: String
    var branch: Int64
    var moment: Int64
    var isDelete: Bool
    var name: String
    var contentType: String
    var size: Int64
    var keywords: String?
    var dataId: Int64
}
