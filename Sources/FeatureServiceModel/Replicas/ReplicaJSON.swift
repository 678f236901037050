import Foundation
import WebMap

// The ArcGIS REST JSON shapes of the replica types, read and written here so that the HTTP face and a
// remote client (the runtime) share one definition. Members that ArcGIS does not have (`editMoment`,
// `syncModel` and `gdbVersion` in a package) are extensions that ArcGIS clients ignore.

extension ReplicaLayerQuery {
    /// `{"queryOption": "useFilter", "where": "...", "useGeometry": true, "includeRelated": true}`.
    public init(json: JSON) throws {
        guard json.objectMembers != nil else { throw ServiceError.invalidParameter("Each entry of layerQueries must be a JSON object.") }
        var option = Option.useFilter
        if let text = json.member(caseInsensitive: "queryOption")?.string {
            guard let parsed = [Option.all, Option.useFilter, Option.none].first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) else {
                throw ServiceError.invalidParameter("queryOption must be all, useFilter or none, not '\(text.prefix(40))'.")
            }
            option = parsed
        }
        self.init(queryOption: option, whereClause: json.member(caseInsensitive: "where")?.string,
                  useGeometry: json.member(caseInsensitive: "useGeometry")?.bool ?? true,
                  includeRelated: json.member(caseInsensitive: "includeRelated")?.bool ?? true)
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("queryOption", .string(queryOption.rawValue))]
        if let whereClause { members.append(("where", .string(whereClause))) }
        members.append(("useGeometry", .bool(useGeometry)))
        members.append(("includeRelated", .bool(includeRelated)))
        return .object(members)
    }

    /// Reads the `layerQueries` parameter: `{"0": {...}, "1": {...}}`.
    public static func parseLayerQueries(_ text: String) throws -> [Int: ReplicaLayerQuery] {
        guard let members = try JSON.parse(text).objectMembers else {
            throw ServiceError.invalidParameter("layerQueries must be a JSON object keyed by layer id.")
        }
        var result: [Int: ReplicaLayerQuery] = [:]
        for (key, value) in members {
            guard let id = Int(key.trimmingCharacters(in: .whitespaces)) else {
                throw ServiceError.invalidParameter("layerQueries: '\(key.prefix(40))' is not a layer id.")
            }
            result[id] = try ReplicaLayerQuery(json: value)
        }
        return result
    }

    /// The `layerQueries` parameter's text for `queries`.
    public static func json(_ queries: [Int: ReplicaLayerQuery]) -> JSON {
        .object(queries.sorted { $0.key < $1.key }.map { (String($0.key), $0.value.json) })
    }
}

extension ReplicaFeature {
    /// `{"attributes": {...}, "geometry": {...}, "editMoment": ms}` (the geometry in the layer's spatial reference).
    public init(json: JSON) throws {
        guard json.objectMembers != nil else { throw ServiceError.invalidParameter("A feature must be a JSON object with attributes and geometry.") }
        var geometry: Geometry?
        if let g = json["geometry"], !g.isNull {
            do { geometry = try Geometry.parse(g).geometry } catch {
                throw ServiceError.invalidParameter("A feature's geometry cannot be read: \(error)")
            }
        }
        self.init(attributes: Attributes(json: json["attributes"] ?? .object([])), geometry: geometry,
                  editMoment: json["editMoment"]?.int64)
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("attributes", attributes.json)]
        if let geometry { members.append(("geometry", geometry.json())) }
        if let editMoment { members.append(("editMoment", .int(Int(editMoment)))) }
        return .object(members)
    }
}

extension ReplicaAttachment {
    /// `{"globalId", "parentGlobalId", "name", "contentType", "size", "data": base64, "editMoment"?}`.
    public init(json: JSON) throws {
        guard let globalId = json["globalId"]?.string, let parent = json["parentGlobalId"]?.string, let name = json["name"]?.string,
              let base64 = json["data"]?.string, let data = Data(base64Encoded: base64) else {
            throw ServiceError.invalidParameter("An attachment needs globalId, parentGlobalId, name and base64 data.")
        }
        self.init(globalId: globalId, parentGlobalId: parent, name: name, contentType: json["contentType"]?.string ?? "application/octet-stream",
                  data: data, editMoment: json["editMoment"]?.int64)
    }

    public var json: JSON {
        var members: [(String, JSON)] = [
            ("globalId", .string(globalId)), ("parentGlobalId", .string(parentGlobalId)), ("name", .string(name)),
            ("contentType", .string(contentType)), ("size", .int(data.count)), ("data", .string(data.base64EncodedString())),
        ]
        if let editMoment { members.append(("editMoment", .int(Int(editMoment)))) }
        return .object(members)
    }
}

extension ReplicaLayerEdits {
    /// `{"id", "features": {"adds", "updates", "deleteIds"}, "attachments": {"adds", "updates", "deleteIds"}}`.
    public init(json: JSON) throws {
        guard let id = json["id"]?.int else { throw ServiceError.invalidParameter("Every entry of edits needs a layer id.") }
        let features = json["features"] ?? .object([])
        let attachments = json["attachments"] ?? .object([])
        func ids(_ value: JSON?) throws -> [String] {
            try (value?.array ?? []).map { item in
                guard let text = item.string else { throw ServiceError.invalidParameter("deleteIds must list global ids; '\(item.text.prefix(40))' is not one.") }
                return text
            }
        }
        self.init(id: id, adds: try (features["adds"]?.array ?? []).map(ReplicaFeature.init(json:)),
                  updates: try (features["updates"]?.array ?? []).map(ReplicaFeature.init(json:)),
                  deleteIds: try ids(features["deleteIds"]),
                  attachmentAdds: try (attachments["adds"]?.array ?? []).map(ReplicaAttachment.init(json:)),
                  attachmentUpdates: try (attachments["updates"]?.array ?? []).map(ReplicaAttachment.init(json:)),
                  attachmentDeleteIds: try ids(attachments["deleteIds"]))
        for (key, value) in features["deleteMoments"]?.objectMembers ?? [] {
            if let moment = value.int64 { deleteMoments[key] = moment }
        }
    }

    public var json: JSON {
        .object([
            ("id", .int(id)),
            ("features", .object([("adds", .array(adds.map(\.json))), ("updates", .array(updates.map(\.json))),
                                  ("deleteIds", .array(deleteIds.map(JSON.string)))]
                                 + (deleteMoments.isEmpty ? [] : [("deleteMoments", .object(deleteMoments.sorted { $0.key < $1.key }
                                                                       .map { ($0.key, .int(Int($0.value))) }))]))),
            ("attachments", .object([("adds", .array(attachmentAdds.map(\.json))), ("updates", .array(attachmentUpdates.map(\.json))),
                                     ("deleteIds", .array(attachmentDeleteIds.map(JSON.string)))])),
        ])
    }

    /// Reads the `edits` parameter of synchronizeReplica (a JSON array).
    public static func parseList(_ text: String) throws -> [ReplicaLayerEdits] {
        guard let items = try JSON.parse(text).array else {
            throw ServiceError.invalidParameter("edits must be a JSON array of {id, features: {adds, updates, deleteIds}, attachments}.")
        }
        return try items.map(ReplicaLayerEdits.init(json:))
    }
}

extension ReplicaLayerData {
    /// `{"id", "features": [...], "attachments": [...]}`.
    public init(json: JSON) throws {
        guard let id = json["id"]?.int else { throw ServiceError.invalidParameter("Every layer of a replica needs an id.") }
        self.init(id: id, features: try (json["features"]?.array ?? []).map(ReplicaFeature.init(json:)),
                  attachments: try (json["attachments"]?.array ?? []).map(ReplicaAttachment.init(json:)))
    }

    public var json: JSON {
        .object([("id", .int(id)), ("features", .array(features.map(\.json))), ("attachments", .array(attachments.map(\.json)))])
    }
}

extension LayerServerGen {
    /// `{"id", "serverGen", "syncDirection"?}`.
    public init(json: JSON) throws {
        guard let id = json["id"]?.int, let gen = json["serverGen"]?.int64 else {
            throw ServiceError.invalidParameter("Each layer generation needs an id and a serverGen.")
        }
        var direction: SyncDirection?
        if let text = json["syncDirection"]?.string { direction = try SyncDirection(parameter: text) }
        self.init(id: id, serverGen: gen, syncDirection: direction)
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("id", .int(id)), ("serverGen", .int(Int(serverGen)))]
        if let syncDirection { members.append(("syncDirection", .string(syncDirection.rawValue))) }
        return .object(members)
    }

    /// Reads the `syncLayers` parameter (a JSON array).
    public static func parseList(_ text: String) throws -> [LayerServerGen] {
        guard let items = try JSON.parse(text).array else { throw ServiceError.invalidParameter("syncLayers must be a JSON array of {id, serverGen}.") }
        return try items.map(LayerServerGen.init(json:))
    }
}

extension SyncDirection {
    /// A direction named in any case.
    public init(parameter text: String) throws {
        guard let value = SyncDirection.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) else {
            throw ServiceError.invalidParameter("syncDirection must be bidirectional, upload, download or snapshot, not '\(text.prefix(40))'.")
        }
        self = value
    }
}

extension SyncModel {
    /// A sync model named in any case.
    public init(parameter text: String) throws {
        guard let value = SyncModel.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }) else {
            throw ServiceError.invalidParameter("syncModel must be perReplica or perLayer, not '\(text.prefix(40))'.")
        }
        self = value
    }
}

extension ReplicaPackage {
    /// `{"replicaName", "replicaID", "serverGen", "layerServerGens"?, "syncModel", "syncDirection", "gdbVersion"?, "layers"}`.
    public init(json: JSON) throws {
        guard let name = json["replicaName"]?.string, let id = json["replicaID"]?.string, let gen = json["serverGen"]?.int64 else {
            throw ServiceError.invalidParameter("A replica package needs replicaName, replicaID and serverGen.")
        }
        self.init(replicaName: name, replicaID: id, serverGen: gen,
                  layerServerGens: try json["layerServerGens"]?.array?.map(LayerServerGen.init(json:)),
                  syncModel: try json["syncModel"]?.string.map(SyncModel.init(parameter:)) ?? .perReplica,
                  syncDirection: try json["syncDirection"]?.string.map(SyncDirection.init(parameter:)) ?? .bidirectional,
                  gdbVersion: json["gdbVersion"]?.string,
                  layers: try (json["layers"]?.array ?? []).map(ReplicaLayerData.init(json:)))
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("replicaName", .string(replicaName)), ("replicaID", .string(replicaID)), ("serverGen", .int(Int(serverGen)))]
        if let layerServerGens { members.append(("layerServerGens", .array(layerServerGens.map(\.json)))) }
        members.append(("syncModel", .string(syncModel.rawValue)))
        members.append(("syncDirection", .string(syncDirection.rawValue)))
        if let gdbVersion { members.append(("gdbVersion", .string(gdbVersion))) }
        members.append(("layers", .array(layers.map(\.json))))
        return .object(members)
    }
}

extension ReplicaConflict {
    /// `{"layer", "globalId", "winner": "client" | "service"}`.
    public init(json: JSON) throws {
        guard let layer = json["layer"]?.int, let globalId = json["globalId"]?.string,
              let winner = json["winner"]?.string.flatMap(Winner.init(rawValue:)) else {
            throw ServiceError.invalidParameter("A conflict needs layer, globalId and winner (client or service).")
        }
        self.init(layer: layer, globalId: globalId, winner: winner)
    }

    public var json: JSON { .object([("layer", .int(layer)), ("globalId", .string(globalId)), ("winner", .string(winner.rawValue))]) }
}

extension EditResult {
    /// `{"objectId"?, "globalId"?, "success", "error"?: {"code", "description"}}`.
    init(json: JSON) {
        let error = json["error"].map { EditError(code: $0["code"]?.int ?? 1000, description: $0["description"]?.string ?? "") }
        self.init(objectId: json["objectId"]?.int64, globalId: json["globalId"]?.string,
                  success: json["success"]?.bool ?? false, error: error)
    }

    var json: JSON {
        var members: [(String, JSON)] = []
        if let objectId { members.append(("objectId", .int(Int(objectId)))) }
        if let globalId { members.append(("globalId", .string(globalId))) }
        members.append(("success", .bool(success)))
        if let error { members.append(("error", .object([("code", .int(error.code)), ("description", .string(error.description))]))) }
        return .object(members)
    }
}

extension LayerEditResults {
    /// `{"id", "addResults", "updateResults", "deleteResults", "attachments"?: {...}}` (sync answers' editResults).
    init(replicaJSON json: JSON) throws {
        guard let id = json["id"]?.int else { throw ServiceError.invalidParameter("Every entry of editResults needs a layer id.") }
        func list(_ value: JSON?) -> [EditResult] { (value?.array ?? []).map(EditResult.init(json:)) }
        self.init(id: id, addResults: list(json["addResults"]), updateResults: list(json["updateResults"]),
                  deleteResults: list(json["deleteResults"]),
                  attachments: json["attachments"].map {
                      AttachmentEditResults(addResults: list($0["addResults"]), updateResults: list($0["updateResults"]),
                                            deleteResults: list($0["deleteResults"]))
                  },
                  editMoment: json["editMoment"]?.int64)
    }

    var replicaJSON: JSON {
        func list(_ results: [EditResult]) -> JSON { .array(results.map(\.json)) }
        var members: [(String, JSON)] = [("id", .int(id)), ("addResults", list(addResults)), ("updateResults", list(updateResults)),
                                         ("deleteResults", list(deleteResults))]
        if let attachments {
            members.append(("attachments", .object([("addResults", list(attachments.addResults)), ("updateResults", list(attachments.updateResults)),
                                                    ("deleteResults", list(attachments.deleteResults))])))
        }
        if let editMoment { members.append(("editMoment", .int(Int(editMoment)))) }
        return .object(members)
    }
}

extension SyncAnswer {
    /// `{"replicaName", "replicaID", "replicaServerGen", "layerServerGens"?, "edits", "editResults", "conflicts"}`.
    public init(json: JSON) throws {
        guard let name = json["replicaName"]?.string, let id = json["replicaID"]?.string, let gen = json["replicaServerGen"]?.int64 else {
            throw ServiceError.invalidParameter("A sync answer needs replicaName, replicaID and replicaServerGen.")
        }
        self.init(replicaName: name, replicaID: id, replicaServerGen: gen,
                  layerServerGens: try json["layerServerGens"]?.array?.map(LayerServerGen.init(json:)),
                  editResults: try (json["editResults"]?.array ?? []).map(LayerEditResults.init(replicaJSON:)),
                  edits: try (json["edits"]?.array ?? []).map(ReplicaLayerEdits.init(json:)),
                  conflicts: try (json["conflicts"]?.array ?? []).map(ReplicaConflict.init(json:)))
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("replicaName", .string(replicaName)), ("replicaID", .string(replicaID)),
                                         ("replicaServerGen", .int(Int(replicaServerGen)))]
        if let layerServerGens { members.append(("layerServerGens", .array(layerServerGens.map(\.json)))) }
        members.append(("edits", .array(edits.map(\.json))))
        members.append(("editResults", .array(editResults.map(\.replicaJSON))))
        members.append(("conflicts", .array(conflicts.map(\.json))))
        return .object(members)
    }
}

extension ReplicaInfo {
    /// `{"replicaName", "replicaID", "replicaOwner", "layers": [{"id", "queryOption", "where"?, "useGeometry", "includeRelated"}],
    /// "replicaServerGen", "layerServerGens"?, "syncModel",
    /// "syncDirection", "gdbVersion"?, "creationDate", "lastSyncDate"?}`.
    public init(json: JSON) throws {
        guard let name = json["replicaName"]?.string, let id = json["replicaID"]?.string, let gen = json["replicaServerGen"]?.int64 else {
            throw ServiceError.invalidParameter("A replica description needs replicaName, replicaID and replicaServerGen.")
        }
        self.init(replicaName: name, replicaID: id, replicaOwner: json["replicaOwner"]?.string ?? "",
                  layers: (json["layers"]?.array ?? []).compactMap { $0.int ?? $0["id"]?.int }, serverGen: gen,
                  layerServerGens: try json["layerServerGens"]?.array?.map(LayerServerGen.init(json:)),
                  syncModel: try json["syncModel"]?.string.map(SyncModel.init(parameter:)) ?? .perReplica,
                  syncDirection: try json["syncDirection"]?.string.map(SyncDirection.init(parameter:)) ?? .bidirectional,
                  gdbVersion: json["gdbVersion"]?.string,
                  creationDate: json["creationDate"]?.int64 ?? 0, lastSyncDate: json["lastSyncDate"]?.int64)
        for layer in json["layers"]?.array ?? [] where layer.objectMembers != nil {
            if let id = layer["id"]?.int { layerQueries[id] = try ReplicaLayerQuery(json: layer) }
        }
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("replicaName", .string(replicaName)), ("replicaID", .string(replicaID)), ("replicaOwner", .string(replicaOwner)),
                                         ("layers", .array(layers.map { id in
                                             // ArcGIS describes each layer with its query: {"id", "queryOption", "where", "useGeometry", "includeRelated"}.
                                             .object([("id", .int(id))] + ((layerQueries[id] ?? ReplicaLayerQuery()).json.objectMembers ?? []))
                                         })),
                                         ("replicaServerGen", .int(Int(serverGen)))]
        if let layerServerGens { members.append(("layerServerGens", .array(layerServerGens.map(\.json)))) }
        members.append(("syncModel", .string(syncModel.rawValue)))
        members.append(("syncDirection", .string(syncDirection.rawValue)))
        if let gdbVersion { members.append(("gdbVersion", .string(gdbVersion))) }
        members.append(("creationDate", .int(Int(creationDate))))
        if let lastSyncDate { members.append(("lastSyncDate", .int(Int(lastSyncDate)))) }
        return .object(members)
    }
}
