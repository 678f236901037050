import Foundation
import Service
import WebMap

/// The parameters of `<layer>/queryRelatedRecords`.
struct RelatedRecordsRequest {
    var objectIds: [Int64]
    var relationshipId: Int
    var outFields: [String]?
    var definitionExpression: String?
    var returnGeometry: Bool
    var outSR: SpatialReference?
    var orderByFields: String?
    var returnCountOnly: Bool
    var gdbVersion: String?

    init(arguments a: RequestArguments) throws {
        guard let relationshipId = try a.int("relationshipId") else {
            throw ServiceError.invalidQuery("relationshipId is required.")
        }
        self.relationshipId = relationshipId
        objectIds = try a.integers("objectIds") ?? []
        outFields = a.string("outFields").map(QueryParameters.parseFieldList)
        definitionExpression = a.string("definitionExpression")
        returnGeometry = try a.bool("returnGeometry", default: true)
        outSR = try a.spatialReference("outSR")
        orderByFields = a.string("orderByFieldsForRelated") ?? a.string("orderByFields")
        returnCountOnly = try a.bool("returnCountOnly", default: false)
        gdbVersion = a.string("gdbVersion")
    }
}

/// `queryRelatedRecords`, composed from two core queries: the source features' key values, then the
/// related rows whose key is among them (the values are bound by the core's where parser, never
/// concatenated into SQL). It belongs in the core once the core offers it; until then it only uses
/// the core's public query API.
struct RelatedRecords {
    let core: ServiceCore

    func query(service name: String, layer layerId: Int, _ request: RelatedRecordsRequest, as caller: Caller) async throws -> JSON {
        let service = try core.service(name)
        let layer = try service.layer(layerId)
        guard let relationship = layer.metadata.relationships.first(where: { $0.id == request.relationshipId }),
              let relatedId = relationship.relatedTableId, let sourceKey = relationship.keyField else {
            throw ServiceError.invalidQuery("\(layer.title) has no relationship with id \(request.relationshipId).")
        }
        let related = try service.layer(relatedId)
        guard let relatedKey = related.metadata.relationships.first(where: { $0.id == request.relationshipId && $0.relatedTableId == layerId })?.keyField
                ?? related.metadata.relationships.first(where: { $0.id == request.relationshipId })?.keyField else {
            throw ServiceError.invalidQuery("\(related.title) does not declare the other side of relationship \(request.relationshipId).")
        }
        guard let relatedKeyField = related.field(relatedKey) else {
            throw ServiceError.internal("\(related.title) has no field '\(relatedKey)' (relationship \(request.relationshipId)).")
        }

        // 1. The source features and their key values.
        let sources = try await core.query(service: name, layer: layerId, QueryParameters(
            objectIds: request.objectIds.isEmpty ? nil : request.objectIds, outFields: [layer.objectIdField, sourceKey],
            returnGeometry: false, gdbVersion: request.gdbVersion), as: caller)
        var keysBySource: [(objectId: Int64, key: AttributeValue)] = []
        for feature in sources.featureSet?.features ?? [] {
            guard let oid = feature.objectId, let key = feature.attributes[sourceKey], !key.isNull else { continue }
            keysBySource.append((oid, key))
        }

        // 2. The related rows whose key is one of those values.
        var groups: [Int64: [Feature]] = [:]
        var relatedSet: FeatureSet?
        let literals = Set(keysBySource.compactMap { Self.literal($0.key, numeric: relatedKeyField.type.isNumeric) })
        if !literals.isEmpty {
            var clause = "\(relatedKeyField.name) IN (\(literals.sorted().joined(separator: ", ")))"
            if let extra = request.definitionExpression { clause = "(\(clause)) AND (\(extra))" }
            var outFields = request.outFields
            if let fields = outFields, !fields.contains("*"), !fields.contains(where: { $0.caseInsensitiveCompare(relatedKeyField.name) == .orderedSame }) {
                outFields = fields + [relatedKeyField.name]
            }
            let answer = try await core.query(service: name, layer: relatedId, QueryParameters(
                where: clause, outFields: outFields, returnGeometry: request.returnGeometry, outSR: request.outSR,
                orderByFields: request.orderByFields, resultRecordCount: Int.max, gdbVersion: request.gdbVersion), as: caller)
            relatedSet = answer.featureSet
            for source in keysBySource {
                groups[source.objectId] = (relatedSet?.features ?? []).filter { feature in
                    feature.attributes[relatedKeyField.name].map { Self.sameKey($0, source.key) } ?? false
                }
            }
        }

        if request.returnCountOnly {
            return .object([("relatedRecordGroups", .array(keysBySource.compactMap { source in
                let count = groups[source.objectId]?.count ?? 0
                return count == 0 ? nil : .object([("objectId", .int(Int(source.objectId))), ("count", .int(count))])
            }))])
        }
        var members: [(String, JSON)] = [("fields", .array(relatedSet?.fields ?? []))]
        if !related.isTable, request.returnGeometry {
            if let type = related.geometryType { members.append(("geometryType", .string(type.rawValue))) }
            if let reference = relatedSet?.spatialReference { members.append(("spatialReference", reference.json)) }
        }
        members.append(("relatedRecordGroups", .array(keysBySource.compactMap { source in
            guard let features = groups[source.objectId], !features.isEmpty else { return nil }
            return .object([
                ("objectId", .int(Int(source.objectId))),
                ("relatedRecords", .array(features.map { feature in
                    var record: [(String, JSON)] = [("attributes", feature.attributes.json)]
                    if let geometry = feature.geometry { record.append(("geometry", geometry.json())) }
                    return .object(record)
                })),
            ])
        })))
        return .object(members)
    }

    /// A where-clause literal for a key value: a number, or a quoted string with quotes doubled.
    static func literal(_ value: AttributeValue, numeric: Bool) -> String? {
        switch value {
        case .int(let i): return String(i)
        case .double(let d) where d.isFinite: return numeric ? String(d) : "'\(d)'"
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        default: return nil
        }
    }

    static func sameKey(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        if case .string(let x) = a, case .string(let y) = b {
            // Global ids and GUID keys compare without regard to case or braces.
            if let gx = GUIDText.normalize(x), let gy = GUIDText.normalize(y) { return gx == gy }
            return x == y
        }
        return a.sameValue(as: b)
    }
}

extension FieldType {
    var isNumeric: Bool {
        switch self {
        case .smallInteger, .integer, .bigInteger, .single, .double, .oid: return true
        default: return false
        }
    }
}
