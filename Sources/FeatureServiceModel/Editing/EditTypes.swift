import Foundation
import WebMap

/// A feature to add or update: attributes (by field name, any case) and an optional geometry with the
/// spatial reference it is written in (default: the layer's).
public struct EditFeature: Sendable, Equatable {
    public var attributes: Attributes
    public var geometry: Geometry?
    public var spatialReference: SpatialReference?

    public init(attributes: Attributes, geometry: Geometry? = nil, spatialReference: SpatialReference? = nil) {
        self.attributes = attributes
        self.geometry = geometry
        self.spatialReference = spatialReference
    }

    /// Reads an Esri JSON feature (`{"attributes": {...}, "geometry": {...}}`).
    public init(json: JSON) throws {
        guard json.objectMembers != nil else { throw ServiceError.invalidParameter("A feature must be a JSON object with attributes and geometry.") }
        attributes = Attributes(json: json["attributes"] ?? .object([]))
        if let g = json["geometry"], !g.isNull {
            do {
                let parsed = try Geometry.parse(g)
                geometry = parsed.geometry
                spatialReference = parsed.spatialReference
            } catch {
                throw ServiceError.invalidParameter("A feature's geometry cannot be read: \(error)")
            }
        }
    }

    /// Reads a JSON array of features (the `adds` / `updates` / `features` parameters).
    public static func parseList(_ text: String) throws -> [EditFeature] {
        guard let items = try JSON.parse(text).array else { throw ServiceError.invalidParameter("Expected a JSON array of features.") }
        return try items.map(EditFeature.init(json:))
    }
}

/// An attachment to add or update inside applyEdits (`attachments.adds` / `updates`; `useGlobalIds`).
public struct AttachmentUpload: Sendable, Equatable {
    /// The attachment's global id (kept when given on add; names the attachment on update).
    public var globalId: String?
    /// The global id of the feature it belongs to (adds).
    public var parentGlobalId: String?
    public var name: String
    public var contentType: String
    public var data: Data
    public var keywords: String?

    public init(globalId: String? = nil, parentGlobalId: String? = nil, name: String, contentType: String, data: Data, keywords: String? = nil) {
        self.globalId = globalId
        self.parentGlobalId = parentGlobalId
        self.name = name
        self.contentType = contentType
        self.data = data
        self.keywords = keywords
    }

    /// Reads `{"globalId", "parentGlobalId", "name", "contentType", "data": base64}`.
    public init(json: JSON) throws {
        guard let name = json["name"]?.string, let base64 = json["data"]?.string, let data = Data(base64Encoded: base64) else {
            throw ServiceError.invalidParameter("An attachment needs a name and base64 data (uploadId is not supported).")
        }
        self.init(globalId: json["globalId"]?.string, parentGlobalId: json["parentGlobalId"]?.string, name: name,
                  contentType: json["contentType"]?.string ?? "application/octet-stream", data: data, keywords: json["keywords"]?.string)
    }
}

/// The attachment part of a layer's edits.
public struct AttachmentEdits: Sendable, Equatable {
    public var adds: [AttachmentUpload]
    public var updates: [AttachmentUpload]
    /// Global ids of attachments to delete.
    public var deletes: [String]

    public init(adds: [AttachmentUpload] = [], updates: [AttachmentUpload] = [], deletes: [String] = []) {
        self.adds = adds
        self.updates = updates
        self.deletes = deletes
    }

    public init(json: JSON) throws {
        self.init(adds: try (json["adds"]?.array ?? []).map(AttachmentUpload.init(json:)),
                  updates: try (json["updates"]?.array ?? []).map(AttachmentUpload.init(json:)),
                  deletes: (json["deletes"]?.array ?? []).compactMap(\.string))
    }

    package var isEmpty: Bool { adds.isEmpty && updates.isEmpty && deletes.isEmpty }
}

/// The edits of one layer: adds, updates (identified by object id, or by global id with `useGlobalIds`),
/// deletes (object ids, or global ids with `useGlobalIds`) and attachments.
public struct LayerEdits: Sendable, Equatable {
    /// The layer id (service-level applyEdits).
    public var id: Int?
    public var adds: [EditFeature]
    public var updates: [EditFeature]
    public var deletes: [Int64]
    public var deleteGlobalIds: [String]
    public var attachments: AttachmentEdits?

    public init(id: Int? = nil, adds: [EditFeature] = [], updates: [EditFeature] = [], deletes: [Int64] = [],
                deleteGlobalIds: [String] = [], attachments: AttachmentEdits? = nil) {
        self.id = id
        self.adds = adds
        self.updates = updates
        self.deletes = deletes
        self.deleteGlobalIds = deleteGlobalIds
        self.attachments = attachments
    }

    /// Reads one entry of the service-level `edits` parameter (`{id, adds, updates, deletes, attachments}`);
    /// `deletes` may be an array or a comma list, of object ids, or of global ids with `useGlobalIds`.
    public init(json: JSON, useGlobalIds: Bool) throws {
        guard let id = json["id"]?.int else { throw ServiceError.invalidParameter("Every entry of edits needs a layer id.") }
        var deletes: [Int64] = []
        var deleteGlobalIds: [String] = []
        let rawDeletes: [JSON] = json["deletes"]?.array ?? (json["deletes"]?.string.map { $0.split(separator: ",").map { JSON.string(String($0)) } } ?? [])
        for item in rawDeletes {
            if useGlobalIds, let text = item.string, GUIDText.normalize(text) != nil { deleteGlobalIds.append(text); continue }
            if let n = item.int { deletes.append(Int64(n)); continue }
            if let text = item.string, let n = Int64(text.trimmingCharacters(in: .whitespaces)) { deletes.append(n); continue }
            throw ServiceError.invalidParameter("deletes must list object ids\(useGlobalIds ? " or global ids" : ""); '\(item.text.prefix(40))' is neither.")
        }
        self.init(id: id, adds: try (json["adds"]?.array ?? []).map(EditFeature.init(json:)),
                  updates: try (json["updates"]?.array ?? []).map(EditFeature.init(json:)),
                  deletes: deletes, deleteGlobalIds: deleteGlobalIds,
                  attachments: try json["attachments"].map(AttachmentEdits.init(json:)))
    }

    /// Reads the service-level `edits` parameter.
    public static func parseServiceEdits(_ text: String, useGlobalIds: Bool) throws -> [LayerEdits] {
        guard let items = try JSON.parse(text).array else { throw ServiceError.invalidParameter("edits must be a JSON array of {id, adds, updates, deletes}.") }
        return try items.map { try LayerEdits(json: $0, useGlobalIds: useGlobalIds) }
    }
}

/// applyEdits options.
public struct EditOptions: Sendable, Equatable {
    /// True (default): all edits in one transaction, nothing applied if any fails.
    public var rollbackOnFailure: Bool
    /// Updates and deletes name features (and attachments) by global id; adds keep the given global ids.
    public var useGlobalIds: Bool
    /// The version to edit (nil = DEFAULT).
    public var gdbVersion: String?
    /// The edit session (startEditing) the edits belong to.
    public var sessionID: String?
    public var returnEditMoment: Bool

    public init(rollbackOnFailure: Bool = true, useGlobalIds: Bool = false, gdbVersion: String? = nil, sessionID: String? = nil, returnEditMoment: Bool = false) {
        self.rollbackOnFailure = rollbackOnFailure
        self.useGlobalIds = useGlobalIds
        self.gdbVersion = gdbVersion
        self.sessionID = sessionID
        self.returnEditMoment = returnEditMoment
    }
}

/// The result of one add, update or delete.
public struct EditResult: Sendable, Codable, Equatable {
    public var objectId: Int64?
    public var globalId: String?
    public var success: Bool
    public var error: EditError?

    public init(objectId: Int64?, globalId: String?, success: Bool, error: EditError? = nil) {
        self.objectId = objectId
        self.globalId = globalId
        self.success = success
        self.error = error
    }
}

/// The attachment results of a layer's edits.
public struct AttachmentEditResults: Sendable, Codable, Equatable {
    public init(addResults: [EditResult], updateResults: [EditResult], deleteResults: [EditResult]) {
        self.addResults = addResults
        self.updateResults = updateResults
        self.deleteResults = deleteResults
    }

    public var addResults: [EditResult]
    public var updateResults: [EditResult]
    public var deleteResults: [EditResult]
}

/// The results of one layer's edits (the answer of `<layer>/applyEdits`, one element of the service-level one).
public struct LayerEditResults: Sendable, Codable, Equatable {
    public init(id: Int, addResults: [EditResult], updateResults: [EditResult], deleteResults: [EditResult], attachments: AttachmentEditResults? = nil, editMoment: Int64? = nil) {
        self.id = id
        self.addResults = addResults
        self.updateResults = updateResults
        self.deleteResults = deleteResults
        self.attachments = attachments
        self.editMoment = editMoment
    }

    public var id: Int
    public var addResults: [EditResult]
    public var updateResults: [EditResult]
    public var deleteResults: [EditResult]
    public var attachments: AttachmentEditResults?
    /// The moment the edits were written at (epoch ms), when `returnEditMoment` was asked.
    public var editMoment: Int64?

    var allResults: [EditResult] {
        addResults + updateResults + deleteResults + (attachments.map { $0.addResults + $0.updateResults + $0.deleteResults } ?? [])
    }

    /// True when every edit succeeded.
    public var succeeded: Bool { allResults.allSatisfy(\.success) }
}

extension LayerEdits {
    /// Reads the layer-level `deletes` parameter: a comma list or a JSON array, of object ids, or of
    /// global ids with `useGlobalIds`. Anything else is refused (nothing reaches SQL).
    public static func parseDeletes(_ text: String, useGlobalIds: Bool) throws -> (objectIds: [Int64], globalIds: [String]) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let items: [String]
        if trimmed.hasPrefix("[") {
            items = (try JSON.parse(trimmed).array ?? []).map { $0.string ?? $0.text }
        } else {
            items = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var ids: [Int64] = []
        var guids: [String] = []
        for item in items {
            if let id = Int64(item) { ids.append(id); continue }
            if useGlobalIds, GUIDText.normalize(item) != nil { guids.append(item); continue }
            throw ServiceError.invalidParameter("deletes must list object ids\(useGlobalIds ? " or global ids" : ""); '\(item.prefix(40))' is neither.")
        }
        return (ids, guids)
    }
}
