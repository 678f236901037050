import Foundation
import WebMap

/// A version as `versionInfos` and `versions/<guid>` describe it.
public struct VersionInfo: Sendable, Codable, Equatable {
    public init(versionName: String, versionGuid: String, description: String, access: String, creationDate: Int64, modifiedDate: Int64, reconcileDate: Int64? = nil, postDate: Int64? = nil, commonAncestorDate: Int64, isBeingEdited: Bool? = nil, isBeingRead: Bool? = nil, isLocked: Bool? = nil, lockOwner: String? = nil, hasConflicts: Bool? = nil) {
        self.versionName = versionName
        self.versionGuid = versionGuid
        self.description = description
        self.access = access
        self.creationDate = creationDate
        self.modifiedDate = modifiedDate
        self.reconcileDate = reconcileDate
        self.postDate = postDate
        self.commonAncestorDate = commonAncestorDate
        self.isBeingEdited = isBeingEdited
        self.isBeingRead = isBeingRead
        self.isLocked = isLocked
        self.lockOwner = lockOwner
        self.hasConflicts = hasConflicts
    }

    /// Qualified: `owner.name` (`sde.DEFAULT` for the default version).
    public var versionName: String
    /// Braced upper-case GUID.
    public var versionGuid: String
    public var description: String
    /// `esriVersionAccessPublic`, `esriVersionAccessProtected` or `esriVersionAccessPrivate`.
    public var access: String
    public var creationDate: Int64
    public var modifiedDate: Int64
    public var reconcileDate: Int64?
    public var postDate: Int64?
    /// The DEFAULT moment the version reads through to.
    public var commonAncestorDate: Int64
    /// Lock state (filled by `versions/<guid>` only).
    public var isBeingEdited: Bool?
    public var isBeingRead: Bool?
    public var isLocked: Bool?
    public var lockOwner: String?
    public var hasConflicts: Bool?

    /// The version owner (the part of the name before the period).
    public var owner: String { String(versionName.split(separator: ".", maxSplits: 1).first ?? "") }
    /// The access as a value.
    public var accessPermission: VersionAccess? { VersionAccess(parameter: access) }
}

/// `VersionManagementServer` root.
public struct VersionManagementInfo: Sendable, Codable, Equatable {
    public init(name: String, currentVersion: Double, defaultVersionName: String, defaultVersionGuid: String, capabilities: String) {
        self.name = name
        self.currentVersion = currentVersion
        self.defaultVersionName = defaultVersionName
        self.defaultVersionGuid = defaultVersionGuid
        self.capabilities = capabilities
    }

    public var name: String
    public var currentVersion: Double
    public var defaultVersionName: String
    public var defaultVersionGuid: String
    public var capabilities: String
}

/// `versions` / `versionInfos`.
public struct VersionInfos: Sendable, Codable, Equatable {
    public init(versions: [VersionInfo], success: Bool) {
        self.versions = versions
        self.success = success
    }

    public var versions: [VersionInfo]
    public var success: Bool
}

/// `create`.
public struct CreateVersionResponse: Sendable, Codable, Equatable {
    public init(versionInfo: VersionInfo, success: Bool) {
        self.versionInfo = versionInfo
        self.success = success
    }

    public var versionInfo: VersionInfo
    public var success: Bool
}

/// Operations that answer only success (`delete`, `alter`, `startReading`...).
public struct SuccessResponse: Sendable, Codable, Equatable {
    public init(success: Bool, moment: Int64? = nil) {
        self.success = success
        self.moment = moment
    }

    public var success: Bool
    /// The moment of the operation when it wrote something (stopEditing with saveEdits, deleteForwardEdits...).
    public var moment: Int64?

    public static let ok = SuccessResponse(success: true, moment: nil)
}

/// How reconcile detects conflicts.
public enum ConflictDetection: String, Sendable, Codable {
    /// Any change on both sides of one object.
    case byObject
    /// Changes on both sides to the same attribute (or to the geometry) of one object.
    case byAttribute

    public init?(parameter: String) {
        switch parameter.lowercased() {
        case "byobject": self = .byObject
        case "byattribute": self = .byAttribute
        default: return nil
        }
    }
}

/// `reconcile`.
public struct ReconcileResponse: Sendable, Codable, Equatable {
    public init(success: Bool, hasConflicts: Bool, moment: Int64, didPost: Bool) {
        self.success = success
        self.hasConflicts = hasConflicts
        self.moment = moment
        self.didPost = didPost
    }

    public var success: Bool
    public var hasConflicts: Bool
    /// The new common-ancestor moment (unchanged when aborted).
    public var moment: Int64
    public var didPost: Bool
}

/// `post`.
public struct PostResponse: Sendable, Codable, Equatable {
    public init(success: Bool, moment: Int64) {
        self.success = success
        self.moment = moment
    }

    public var success: Bool
    public var moment: Int64
}

/// The kinds of conflict reconcile finds.
public enum ConflictKind: String, Sendable, Codable, CaseIterable {
    /// Updated in the version and in DEFAULT.
    case updateUpdate
    /// Updated in the version, deleted in DEFAULT.
    case updateDelete
    /// Deleted in the version, updated in DEFAULT.
    case deleteUpdate
}

/// One conflict, with the three states of the object.
public struct ConflictEntry: Sendable, Codable, Equatable {
    public init(objectId: Int64, fields: [String], inspected: Bool, branchVersion: Feature? = nil, ancestorVersion: Feature? = nil, defaultVersion: Feature? = nil) {
        self.objectId = objectId
        self.fields = fields
        self.inspected = inspected
        self.branchVersion = branchVersion
        self.ancestorVersion = ancestorVersion
        self.defaultVersion = defaultVersion
    }

    public var objectId: Int64
    /// byAttribute: the fields changed on both sides ("SHAPE" for the geometry).
    public var fields: [String]
    public var inspected: Bool
    public var branchVersion: Feature?
    public var ancestorVersion: Feature?
    public var defaultVersion: Feature?
}

/// The conflicts of one layer.
public struct LayerConflicts: Sendable, Codable, Equatable {
    public init(layerId: Int, updateUpdateConflicts: [ConflictEntry], updateDeleteConflicts: [ConflictEntry], deleteUpdateConflicts: [ConflictEntry]) {
        self.layerId = layerId
        self.updateUpdateConflicts = updateUpdateConflicts
        self.updateDeleteConflicts = updateDeleteConflicts
        self.deleteUpdateConflicts = deleteUpdateConflicts
    }

    public var layerId: Int
    public var updateUpdateConflicts: [ConflictEntry]
    public var updateDeleteConflicts: [ConflictEntry]
    public var deleteUpdateConflicts: [ConflictEntry]

    public func entries(_ kind: ConflictKind) -> [ConflictEntry] {
        switch kind {
        case .updateUpdate: return updateUpdateConflicts
        case .updateDelete: return updateDeleteConflicts
        case .deleteUpdate: return deleteUpdateConflicts
        }
    }
}

/// `conflicts`.
public struct ConflictsResponse: Sendable, Codable, Equatable {
    public init(conflicts: [LayerConflicts], success: Bool) {
        self.conflicts = conflicts
        self.success = success
    }

    public var conflicts: [LayerConflicts]
    public var success: Bool
}

/// `differences` result type.
public enum DifferenceResultType: String, Sendable, Codable {
    case objectIds, features
}

/// The differences of one layer between a version and DEFAULT at its common ancestor.
public struct LayerDifferences: Sendable, Equatable, Encodable {
    public init(layerId: Int, insertIds: [Int64], updateIds: [Int64], deleteIds: [Int64], inserts: [Feature]? = nil, updates: [Feature]? = nil, deletes: [Feature]? = nil) {
        self.layerId = layerId
        self.insertIds = insertIds
        self.updateIds = updateIds
        self.deleteIds = deleteIds
        self.inserts = inserts
        self.updates = updates
        self.deletes = deletes
    }

    public var layerId: Int
    public var insertIds: [Int64]
    public var updateIds: [Int64]
    public var deleteIds: [Int64]
    /// With `resultType` features: the version's state of the inserted and updated features, and the
    /// ancestor's state of the deleted ones.
    public var inserts: [Feature]?
    public var updates: [Feature]?
    public var deletes: [Feature]?

    enum CodingKeys: String, CodingKey { case layerId, inserts, updates, deletes }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(layerId, forKey: .layerId)
        if let inserts, let updates, let deletes {
            try container.encode(inserts, forKey: .inserts)
            try container.encode(updates, forKey: .updates)
            try container.encode(deletes, forKey: .deletes)
        } else {
            try container.encode(insertIds, forKey: .inserts)
            try container.encode(updateIds, forKey: .updates)
            try container.encode(deleteIds, forKey: .deletes)
        }
    }
}

/// `differences`.
public struct DifferencesResponse: Sendable, Equatable, Encodable {
    public init(differences: [LayerDifferences], success: Bool) {
        self.differences = differences
        self.success = success
    }

    public var differences: [LayerDifferences]
    public var success: Bool
}

extension ConflictsResponse {
    /// Reads the `conflicts` parameter of `inspectConflicts`: `[{"layerId": 0, "objectIds": [1, 2]}]`.
    public static func parseSelection(_ text: String) throws -> [Int: [Int64]] {
        guard let items = try JSON.parse(text).array else { throw ServiceError.invalidParameter("conflicts must be a JSON array of {layerId, objectIds}.") }
        var result: [Int: [Int64]] = [:]
        for item in items {
            guard let layer = item["layerId"]?.int, let ids = item["objectIds"]?.array else {
                throw ServiceError.invalidParameter("Every entry of conflicts needs layerId and objectIds.")
            }
            result[layer, default: []] += try ids.map { value in
                guard let id = value.int else { throw ServiceError.invalidParameter("objectIds must be integers.") }
                return Int64(id)
            }
        }
        return result
    }
}
