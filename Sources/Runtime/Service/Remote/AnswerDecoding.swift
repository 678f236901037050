import Foundation
import FeatureServiceModel
import WebMap

/// ArcGIS REST answers read into the service core's types, leniently: real ArcGIS servers leave out
/// members that `maprules serve` always writes (`parentGlobalId` of an attachment, dates of a version,
/// empty result lists, `success` of an edit), write `null` for them, or spell `objectIdField` the old way.
/// Missing members get neutral values; attributes and metadata keep the order the service wrote them in.
enum AnswerDecoding {
    /// An answer that has the wrong shape (no `features`, no `count`...).
    static func malformed(_ what: String, _ document: JSON) -> RuntimeError {
        RuntimeError(RuntimeError.Identifier.serviceError, "The service's answer is not \(what): \(ArcGISAnswer.excerpt(document.text))")
    }

    // MARK: Queries

    static func featureSet(_ document: JSON) throws -> FeatureSet {
        guard document.objectMembers != nil, let items = document["features"]?.array else { throw malformed("a feature set", document) }
        let fields = document["fields"]?.array ?? []
        let objectIdField = document["objectIdFieldName"]?.string ?? document["objectIdField"]?.string
            ?? fields.first { $0["type"]?.string == "esriFieldTypeOID" }?["name"]?.string ?? "OBJECTID"
        var set = try decode(FeatureSet.self, .object([("objectIdFieldName", .string(objectIdField)), ("fields", .array([])), ("features", .array([]))]))
        set.globalIdFieldName = document["globalIdFieldName"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        set.geometryType = document["geometryType"]?.string
        set.spatialReference = document["spatialReference"].flatMap(SpatialReference.init(json:))
        set.fields = fields
        set.features = items.map(feature)
        set.exceededTransferLimit = document["exceededTransferLimit"]?.bool
        return set
    }

    static func feature(_ json: JSON) -> Feature {
        Feature(attributes: Attributes(json: json["attributes"] ?? .object([])), geometry: geometry(json["geometry"]))
    }

    /// A feature's geometry; nil for null, empty (`{"x": "NaN"}`, `{"rings": []}`) or unreadable ones.
    static func geometry(_ json: JSON?) -> Geometry? {
        guard let json, !json.isNull, let parsed = try? Geometry.parse(json).geometry, !parsed.vertices.isEmpty else { return nil }
        return parsed
    }

    static func count(_ document: JSON) throws -> Int {
        guard let count = document["count"]?.int else { throw malformed("a count", document) }
        return count
    }

    /// `returnIdsOnly`: ArcGIS answers `"objectIds": null` when nothing matches.
    static func objectIds(_ document: JSON) throws -> [Int64] {
        guard document.objectMembers != nil, let ids = document["objectIds"] else { throw malformed("a list of object ids", document) }
        if ids.isNull { return [] }
        guard let items = ids.array else { throw malformed("a list of object ids", document) }
        return try items.map { item in
            guard let id = item.int else { throw malformed("a list of object ids", document) }
            return Int64(id)
        }
    }

    // MARK: Edits

    /// The service-level applyEdits answer: one entry per layer.
    static func layerEditResults(_ document: JSON) throws -> [LayerEditResults] {
        guard let layers = document.array else { throw malformed("a list of per-layer edit results", document) }
        return try layers.map { layer in
            guard let id = layer["id"]?.int else { throw malformed("per-layer edit results (an entry has no id)", document) }
            var results = try decode(LayerEditResults.self, .object([("id", .int(id)), ("addResults", .array([])),
                                                                       ("updateResults", .array([])), ("deleteResults", .array([]))]))
            results.addResults = editResults(layer["addResults"])
            results.updateResults = editResults(layer["updateResults"])
            results.deleteResults = editResults(layer["deleteResults"])
            if let attachments = layer["attachments"], attachments.objectMembers != nil {
                var parts = try decode(AttachmentEditResults.self, .object([("addResults", .array([])), ("updateResults", .array([])),
                                                                             ("deleteResults", .array([]))]))
                parts.addResults = editResults(attachments["addResults"])
                parts.updateResults = editResults(attachments["updateResults"])
                parts.deleteResults = editResults(attachments["deleteResults"])
                results.attachments = parts
            }
            results.editMoment = layer["editMoment"]?.int.map(Int64.init)
            return results
        }
    }

    static func editResults(_ json: JSON?) -> [EditResult] { (json?.array ?? []).map(editResult) }

    /// `{"objectId", "globalId", "success", "error": {"code", "description"}}`; `success` defaults to "no error".
    static func editResult(_ json: JSON) -> EditResult {
        var error: EditError?
        if let e = json["error"], e.objectMembers != nil {
            error = EditError(code: ArcGISAnswer.integer(e["code"]) ?? 1000,
                              description: e["description"]?.string ?? e["message"]?.string ?? "The edit failed.")
        }
        return EditResult(objectId: (json["objectId"]?.int ?? json["objectid"]?.int).map(Int64.init),
                          globalId: (json["globalId"]?.string ?? json["globalid"]?.string).flatMap { $0.isEmpty ? nil : $0 },
                          success: json["success"]?.bool ?? (error == nil), error: error)
    }

    // MARK: Attachments

    /// `<oid>/attachments`: `{"attachmentInfos": [...]}`.
    static func attachmentInfos(_ document: JSON) throws -> [AttachmentInfo] {
        guard let items = document["attachmentInfos"]?.array else { throw malformed("a list of attachments", document) }
        return try items.map { item in
            guard item["id"]?.int != nil else { throw malformed("a list of attachments (one has no id)", document) }
            return try decode(AttachmentInfo.self, item, defaults: [("globalId", .string("")), ("parentGlobalId", .string("")), ("name", .string("")),
                                                                    ("contentType", .string("application/octet-stream")), ("size", .int(0))])
        }
    }

    // MARK: Versions

    static let versionDefaults: [(String, JSON)] = [("versionGuid", .string("")), ("description", .string("")),
                                                    ("access", .string("esriVersionAccessPublic")), ("creationDate", .int(0)),
                                                    ("modifiedDate", .int(0)), ("commonAncestorDate", .int(0))]

    static func versionInfo(_ json: JSON) throws -> VersionInfo {
        let info = json["versionInfo"].flatMap { $0.objectMembers != nil ? $0 : nil } ?? json
        guard info["versionName"]?.string != nil else { throw malformed("a version's info", json) }
        return try decode(VersionInfo.self, info, defaults: versionDefaults)
    }

    /// `versionInfos`: `{"versions": [...], "success": true}`.
    static func versionInfos(_ document: JSON) throws -> [VersionInfo] {
        guard let items = document["versions"]?.array ?? document["versionInfos"]?.array else { throw malformed("a list of versions", document) }
        return try items.map(versionInfo)
    }

    static func versionManagementInfo(_ document: JSON, serviceName: String) throws -> VersionManagementInfo {
        guard document.objectMembers != nil else { throw malformed("version management metadata", document) }
        var filled = document
        if let version = document["currentVersion"]?.string, let number = Double(version) { filled.set("currentVersion", .double(number)) }
        return try decode(VersionManagementInfo.self, filled, defaults: [("name", .string(serviceName)), ("currentVersion", .double(0)),
                                                                         ("defaultVersionName", .string("sde.DEFAULT")),
                                                                         ("defaultVersionGuid", .string("")), ("capabilities", .string(""))])
    }

    // MARK: Decoding with defaults

    /// Decodes `T` from `json` after giving every member of `defaults` that is missing or null its default.
    static func decode<T: Decodable>(_ type: T.Type, _ json: JSON, defaults: [(String, JSON)] = []) throws -> T {
        var filled = json
        for (name, value) in defaults where filled[name] == nil || filled[name]?.isNull == true { filled.set(name, value) }
        do {
            return try JSONDecoder().decode(T.self, from: Data(filled.text.utf8))
        } catch {
            throw malformed("a \(T.self) (\(error))", json)
        }
    }
}
