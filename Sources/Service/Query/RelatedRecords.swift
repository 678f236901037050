import Foundation
import WebMap
import FeatureServiceModel

/// The parameters of `<layer>/queryRelatedRecords`.
public struct RelatedRecordsParameters: Sendable {
    public var relationshipId: Int
    public var objectIds: [Int64]
    /// Fields of the related table; nil or `["*"]` for all.
    public var outFields: [String]?
    /// A where clause on the related table.
    public var definitionExpression: String?
    public var returnGeometry: Bool
    public var outSR: SpatialReference?
    public var orderByFields: String?
    public var returnCountOnly: Bool
    public var gdbVersion: String?

    public init(relationshipId: Int, objectIds: [Int64], outFields: [String]? = nil, definitionExpression: String? = nil, returnGeometry: Bool = true,
                outSR: SpatialReference? = nil, orderByFields: String? = nil, returnCountOnly: Bool = false, gdbVersion: String? = nil) {
        self.relationshipId = relationshipId
        self.objectIds = objectIds
        self.outFields = outFields
        self.definitionExpression = definitionExpression
        self.returnGeometry = returnGeometry
        self.outSR = outSR
        self.orderByFields = orderByFields
        self.returnCountOnly = returnCountOnly
        self.gdbVersion = gdbVersion
    }
}

/// `queryRelatedRecords`: the related records of each source feature.
public struct RelatedRecords: Sendable, Codable, Equatable {
    public struct Group: Sendable, Codable, Equatable {
        public var objectId: Int64
        public var relatedRecords: [Feature]?
        public var count: Int?
    }
    public var geometryType: String?
    public var spatialReference: SpatialReference?
    public var fields: [JSON]?
    public var relatedRecordGroups: [Group]
}

extension ServiceCore {
    /// `<layer>/queryRelatedRecords`: for each of `objectIds`, the records of the related table whose key
    /// matches (the relationship's `keyField` on each side).
    public func queryRelatedRecords(service name: String, layer layerId: Int, _ parameters: RelatedRecordsParameters, as caller: Caller) async throws -> RelatedRecords {
        let service = try self.service(name)
        let layer = try service.layer(layerId)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireQuery()
        guard let relationship = layer.metadata.relationships.first(where: { $0.id == parameters.relationshipId }),
              let relatedId = relationship.relatedTableId, let sourceKey = relationship.keyField else {
            throw ServiceError.invalidQuery("\(layer.title) has no relationship with id \(parameters.relationshipId).")
        }
        let related = try service.layer(relatedId)
        guard let back = related.metadata.relationships.first(where: { $0.id == parameters.relationshipId && $0.relatedTableId == layer.id }),
              let relatedKey = back.keyField, let relatedKeyField = related.field(relatedKey), layer.field(sourceKey) != nil else {
            throw ServiceError.internal("The relationship \(parameters.relationshipId) of \(layer.title) has no matching entry with a keyField in \(related.title).")
        }
        var outFields = parameters.outFields
        if let names = outFields, !names.isEmpty, !names.contains("*"), !names.contains(where: { $0.caseInsensitiveCompare(relatedKeyField.name) == .orderedSame }) {
            outFields = names + [relatedKeyField.name]
        }
        let relatedPlan = try QueryPlan(layer: related, parameters: QueryParameters(
            where: parameters.definitionExpression, outFields: outFields, returnGeometry: parameters.returnGeometry, outSR: parameters.outSR,
            orderByFields: parameters.orderByFields, resultRecordCount: Int.max), policy: policy)
        let sourcePlan = try QueryPlan(layer: layer, parameters: QueryParameters(objectIds: parameters.objectIds, outFields: [sourceKey], returnGeometry: false,
                                                                                resultRecordCount: Int.max), policy: policy)
        return try await database.read { db in
            let view = VersionView(try Self.resolveVersion(db, service: service, name: parameters.gdbVersion, policy: policy))
            let sources = try sourcePlan.run(db, view: view).featureSet?.features ?? []
            var keys: [(Int64, AttributeValue)] = []
            for feature in sources {
                guard let id = feature.objectId, let key = feature.attributes[sourceKey], !key.isNull else { continue }
                keys.append((id, key))
            }
            let values = keys.map(\.1)
            var plan = relatedPlan
            plan.internalFilter = values.isEmpty ? "1 = 0" : plan.compiler(db.dialect).field(relatedKeyField.name, in: values)
            let set = try plan.run(db, view: view).featureSet
            let features = set?.features ?? []
            let groups = keys.map { id, key -> RelatedRecords.Group in
                let matches = features.filter { ($0.attributes[relatedKeyField.name] ?? .null).sameValue(as: key) }
                return parameters.returnCountOnly ? .init(objectId: id, relatedRecords: nil, count: matches.count)
                                                  : .init(objectId: id, relatedRecords: matches, count: nil)
            }
            if parameters.returnCountOnly { return RelatedRecords(geometryType: nil, spatialReference: nil, fields: nil, relatedRecordGroups: groups) }
            return RelatedRecords(geometryType: set?.geometryType, spatialReference: set?.spatialReference, fields: set?.fields, relatedRecordGroups: groups)
        }
    }
}

extension AttributeValue: StoreValueConvertible {
    var storeValue: StoreValue {
        switch self {
        case .null: return .null
        case .int(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        }
    }

    init?(storeValue: StoreValue) {
        switch storeValue {
        case .integer(let i): self = .int(i)
        case .real(let d): self = .double(d)
        case .text(let s): self = .string(s)
        case .null, .blob: return nil
        }
    }
}
