import Foundation
import Rules
import WebMap
import FeatureServiceModel

/// A loaded service as the core reasons about it: immutable metadata, cached in memory once read from
/// the database.
public struct ServiceModel: Sendable {
    public let name: String
    /// The root metadata as stored (`.../FeatureServer?f=json`).
    public let root: JSON
    public let rootMetadata: ServiceRootMetadata
    public let settings: ServiceSettings
    /// Layers and tables by id, in id order.
    public let layers: [LayerModel]

    public var isBranchVersioned: Bool { settings.branchVersioned ?? rootMetadata.hasVersionedData }
    public var defaultVersionAccess: VersionAccess { settings.defaultVersionAccess ?? .public }
    public var allowsAnonymousQuery: Bool { settings.allowAnonymousQuery ?? true }
    public var maxRecordCount: Int { settings.maxRecordCount ?? root["maxRecordCount"]?.int ?? 2000 }

    public func layer(_ id: Int) throws -> LayerModel {
        guard let layer = layers.first(where: { $0.id == id }) else { throw ServiceError.layerNotFound(id, service: name) }
        return layer
    }
}

/// A layer or table of a loaded service.
public struct LayerModel: Sendable {
    let key: Int64
    public let id: Int
    public let json: JSON
    /// WebMap's typed view of the metadata (fields, domains, capabilities, relationships).
    public let metadata: LayerMetadata
    /// Rules' reading of the capabilities (can add / update / delete).
    public let capabilities: EditCapabilities
    public let spatialReference: SpatialReference
    public let objectIdField: String
    public let globalIdField: String?
    public let maxRecordCount: Int
    let fieldsByName: [String: FieldDefinition]
    /// `fieldsByName[name.lowercased()]` worked out once for each field's own name (spares lower-casing the
    /// names clients and stored rows use, which are the fields' own names almost always).
    private let fieldsByExactName: [String: FieldDefinition]
    /// Lower-cased names of the fields the service maintains (object id, global id, editor tracking).
    let systemFieldNames: Set<String>
    /// The same fields' own names as the metadata spells them (asked for every field of every edit: no lower-casing).
    private let systemFieldExactNames: Set<String>
    /// `fieldDescription(_:)` worked out once for each field's own name.
    private let descriptionsByName: [String: (name: String, description: JSON?)]
    /// The names of the fields other than the geometry, in the metadata's order: a query's output fields for `*` or none.
    let attributeFieldNames: [String]
    /// The constant parts of the layer's `f=json` query answers (`QueryPlan.runText`).
    let answerHeads = AnswerHeads()
    /// The texts of the layer's single-statement pages (`QueryPlan.singleStatementPage`).
    let pageStatements = PageStatements()

    init(key: Int64, id: Int, json: JSON, metadata: LayerMetadata, serviceMaxRecordCount: Int) {
        self.key = key
        self.id = id
        self.json = json
        self.metadata = metadata
        capabilities = EditCapabilities(metadata.capabilities)
        spatialReference = json["spatialReference"].flatMap(SpatialReference.init(json:)) ?? (metadata.isTable ? .wgs84 : .webMercator)
        objectIdField = metadata.objectIdField ?? "OBJECTID"
        globalIdField = metadata.globalIdField
        maxRecordCount = metadata.maxRecordCount.map { min($0, serviceMaxRecordCount) } ?? serviceMaxRecordCount
        var byName: [String: FieldDefinition] = [:]
        for field in metadata.fields { byName[field.name.lowercased()] = field }
        fieldsByName = byName
        var byExactName: [String: FieldDefinition] = [:]
        for field in metadata.fields where byExactName[field.name] == nil {
            if let found = byName[field.name.lowercased()] { byExactName[field.name] = found }
        }
        fieldsByExactName = byExactName
        systemFieldNames = Set(metadata.fields.filter { metadata.isSystemMaintained($0) }.map { $0.name.lowercased() })
        systemFieldExactNames = Set(metadata.fields.filter { metadata.isSystemMaintained($0) }.map(\.name))
        var descriptions: [String: (name: String, description: JSON?)] = [:]
        for field in json["fields"]?.array ?? [] {
            guard let name = field["name"]?.string, descriptions[name] == nil else { continue }
            descriptions[name] = (name, Self.findFieldDescription(name, in: json))
        }
        descriptionsByName = descriptions
        ownership = Self.ownership(json)
        attributeFieldNames = metadata.fields.filter { $0.type != .geometry }.map(\.name)
    }

    /// The `fields` entry of the metadata whose name matches `name` without regard to case (the first one).
    func fieldDescription(_ name: String) -> JSON? {
        if let known = descriptionsByName[name], known.name.utf8.elementsEqual(name.utf8) { return known.description }
        return Self.findFieldDescription(name, in: json)
    }

    private static func findFieldDescription(_ name: String, in json: JSON) -> JSON? {
        (json["fields"]?.array ?? []).first { $0["name"]?.string?.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// True when the service maintains `field` (clients' values for it are ignored).
    func isSystemMaintained(_ field: FieldDefinition) -> Bool {
        systemFieldExactNames.contains(field.name) || systemFieldNames.contains(field.name.lowercased())
    }

    /// "'Trees' (layer 0)" for messages.
    public var title: String { "'\(metadata.name ?? "layer \(id)")' (\(metadata.isTable ? "table" : "layer") \(id))" }

    /// The field named `name`, case-insensitively (a qualified `owner.table.Field` names its last part).
    public func field(_ name: String) -> FieldDefinition? {
        fieldsByExactName[name] ?? fieldsByName[name.lowercased()] ?? metadata.field(named: name)
    }

    public var fields: [FieldDefinition] { metadata.fields }
    public var geometryType: GeometryType? { metadata.isTable ? nil : metadata.geometryType }
    public var isTable: Bool { metadata.isTable }

    var editTracking: EditFieldsInfo? { metadata.editFieldsInfo }

    /// `ownershipBasedAccessControlForFeatures`, when the layer enables it.
    let ownership: (allowOthersToQuery: Bool, allowOthersToUpdate: Bool, allowOthersToDelete: Bool)?

    private static func ownership(_ json: JSON) -> (allowOthersToQuery: Bool, allowOthersToUpdate: Bool, allowOthersToDelete: Bool)? {
        guard let node = json["ownershipBasedAccessControlForFeatures"], node.objectMembers != nil else { return nil }
        return (node["allowOthersToQuery"]?.bool ?? true, node["allowOthersToUpdate"]?.bool ?? false, node["allowOthersToDelete"]?.bool ?? false)
    }

    var allowGeometryUpdates: Bool { json["allowGeometryUpdates"]?.bool ?? true }
}
