import Foundation

/// Typed, read-only views over the JSON a feature service returns for a layer or table
/// (`.../FeatureServer/<n>?f=json`). Unknown or malformed values read as absent; the schema rules
/// report them, these views never guess.

public enum GeometryType: String, Sendable, CaseIterable {
    case point = "esriGeometryPoint"
    case multipoint = "esriGeometryMultipoint"
    case polyline = "esriGeometryPolyline"
    case polygon = "esriGeometryPolygon"
    case envelope = "esriGeometryEnvelope"

    /// "point", "polygon"... for messages.
    public var shortName: String { String(rawValue.dropFirst("esriGeometry".count)).lowercased() }
}

public enum FieldType: Sendable, Hashable {
    case smallInteger, integer, bigInteger, single, double, string, date, dateOnly, timeOnly, timestampOffset
    case oid, globalID, guid, geometry, blob, raster, xml
    case unknown(String)

    public init(rawValue: String) {
        switch rawValue {
        case "esriFieldTypeSmallInteger": self = .smallInteger
        case "esriFieldTypeInteger": self = .integer
        case "esriFieldTypeBigInteger": self = .bigInteger
        case "esriFieldTypeSingle": self = .single
        case "esriFieldTypeDouble": self = .double
        case "esriFieldTypeString": self = .string
        case "esriFieldTypeDate": self = .date
        case "esriFieldTypeDateOnly": self = .dateOnly
        case "esriFieldTypeTimeOnly": self = .timeOnly
        case "esriFieldTypeTimestampOffset": self = .timestampOffset
        case "esriFieldTypeOID": self = .oid
        case "esriFieldTypeGlobalID": self = .globalID
        case "esriFieldTypeGUID": self = .guid
        case "esriFieldTypeGeometry": self = .geometry
        case "esriFieldTypeBlob": self = .blob
        case "esriFieldTypeRaster": self = .raster
        case "esriFieldTypeXML": self = .xml
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .smallInteger: return "esriFieldTypeSmallInteger"
        case .integer: return "esriFieldTypeInteger"
        case .bigInteger: return "esriFieldTypeBigInteger"
        case .single: return "esriFieldTypeSingle"
        case .double: return "esriFieldTypeDouble"
        case .string: return "esriFieldTypeString"
        case .date: return "esriFieldTypeDate"
        case .dateOnly: return "esriFieldTypeDateOnly"
        case .timeOnly: return "esriFieldTypeTimeOnly"
        case .timestampOffset: return "esriFieldTypeTimestampOffset"
        case .oid: return "esriFieldTypeOID"
        case .globalID: return "esriFieldTypeGlobalID"
        case .guid: return "esriFieldTypeGUID"
        case .geometry: return "esriFieldTypeGeometry"
        case .blob: return "esriFieldTypeBlob"
        case .raster: return "esriFieldTypeRaster"
        case .xml: return "esriFieldTypeXML"
        case .unknown(let raw): return raw
        }
    }

    /// "Double", "GlobalID"... for messages.
    public var shortName: String {
        rawValue.hasPrefix("esriFieldType") ? String(rawValue.dropFirst("esriFieldType".count)) : rawValue
    }
}

public struct CodedValue: Sendable {
    public var name: String
    public var code: JSONNode
}

public enum Domain: Sendable {
    case codedValue(name: String?, values: [CodedValue])
    case range(name: String?, min: Double?, max: Double?)
    case other(type: String)

    init?(_ node: JSONNode?) {
        guard let node, node.object != nil else { return nil }
        let name = node["name"]?.string
        switch node["type"]?.string {
        case "codedValue":
            let entries = node["codedValues"]?.array ?? []
            var values: [CodedValue] = []
            values.reserveCapacity(entries.count)
            for entry in entries {
                if let code = entry["code"] { values.append(CodedValue(name: entry["name"]?.string ?? "", code: code)) }
            }
            self = .codedValue(name: name, values: values)
        case "range":
            let range = node["range"]?.array
            self = .range(name: name, min: range?.first?.number, max: range?.dropFirst().first?.number)
        case let other:
            self = .other(type: other ?? "")
        }
    }
}

/// A field of a layer or table as the service describes it.
public final class FieldDefinition: Sendable {
    // A class: rules look fields up again and again, and a struct copy would retain each of its strings.
    public let name: String
    public let type: FieldType
    public let alias: String?
    /// Defaults to true when the service omits it.
    public let nullable: Bool
    /// Defaults to true when the service omits it.
    public let editable: Bool
    public let length: Int?
    public let domain: Domain?
    /// The default value, when the service gives a non-null one.
    public let defaultValue: JSONNode?

    public init?(_ node: JSONNode) {
        // One pass over the members instead of a look-up per key (the last of a repeated key wins, as in
        // `node[key]`): every inline feature collection of every map lists its fields.
        var name, type, alias, nullable, editable, length, domain, defaultValue: JSONNode?
        // By index: a member copied out of the list would retain its key and value at every step.
        let members = node.object?.members ?? []
        for i in members.indices {
            switch members[i].key.utf8.count {
            case 4 where members[i].key == "name": name = members[i].value
            case 4 where members[i].key == "type": type = members[i].value
            case 5 where members[i].key == "alias": alias = members[i].value
            case 8 where members[i].key == "nullable": nullable = members[i].value
            case 8 where members[i].key == "editable": editable = members[i].value
            case 6 where members[i].key == "length": length = members[i].value
            case 6 where members[i].key == "domain": domain = members[i].value
            case 12 where members[i].key == "defaultValue": defaultValue = members[i].value
            default: break
            }
        }
        guard let name = name?.string else { return nil }
        self.name = name
        self.type = FieldType(rawValue: type?.string ?? "")
        self.alias = alias?.string
        self.nullable = nullable?.bool ?? true
        self.editable = editable?.bool ?? true
        self.length = length?.integer
        self.domain = Domain(domain)
        if let defaultValue, !defaultValue.isNull { self.defaultValue = defaultValue } else { self.defaultValue = nil }
    }

    /// "Condition (alias 'Tree condition')" or just the name when the alias adds nothing.
    public var displayName: String {
        if let alias, !alias.isEmpty, alias != name { return "'\(name)' (alias '\(alias)')" }
        return "'\(name)'"
    }
}

/// The comma-separated `capabilities` string, compared case-insensitively.
public struct Capabilities: Sendable, Equatable {
    public private(set) var names: [String]

    public init(_ text: String?) {
        guard let text, !text.isEmpty else {
            names = []
            return
        }
        // Split on the byte ",": `split` on a Character would break the text into grapheme clusters.
        var names: [String] = []
        var copy = text
        copy.withUTF8 { bytes in
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
                let part = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).trimmingSpaces()
                if !part.isEmpty { names.append(part) }
                start = end + 1
            }
        }
        self.names = names
    }

    /// A list holds a handful of names: a scan is cheaper than building a set for each layer of each map.
    public func contains(_ name: String) -> Bool { names.contains { $0.equalsIgnoringCase(name) } }

    public var description: String { names.joined(separator: ",") }
}

public enum RelationshipCardinality: String, Sendable {
    case oneToOne = "esriRelCardinalityOneToOne"
    case oneToMany = "esriRelCardinalityOneToMany"
    case manyToMany = "esriRelCardinalityManyToMany"
}

public enum RelationshipRole: String, Sendable {
    case origin = "esriRelRoleOrigin"
    case destination = "esriRelRoleDestination"
}

public struct Relationship: Sendable {
    public var id: Int?
    public var name: String?
    public var relatedTableId: Int?
    public var cardinality: RelationshipCardinality?
    public var role: RelationshipRole?
    public var keyField: String?
    public var composite: Bool
    /// Index in the metadata's `relationships` array.
    public var index: Int

    init(_ node: JSONNode, index: Int) {
        id = node["id"]?.integer
        name = node["name"]?.string
        relatedTableId = node["relatedTableId"]?.integer
        cardinality = node["cardinality"]?.string.flatMap(RelationshipCardinality.init(rawValue:))
        role = node["role"]?.string.flatMap(RelationshipRole.init(rawValue:))
        keyField = node["keyField"]?.string
        composite = node["composite"]?.bool ?? false
        self.index = index
    }
}

public struct EditFieldsInfo: Sendable {
    public var creationDateField: String?
    public var creatorField: String?
    public var editDateField: String?
    public var editorField: String?

    public var fieldNames: [String] { [creationDateField, creatorField, editDateField, editorField].compactMap { $0 } }
}

/// The metadata of one layer or table: from a service, a snapshot, or an inline feature collection's
/// `layerDefinition`.
public final class LayerMetadata: Sendable {
    // A class: every layer's behaviour, every rule and the service core pass it around, and it holds a
    // dozen references that a struct copy would retain one by one.
    public let node: JSONNode
    public let id: Int?
    public let name: String?
    /// "Feature Layer" or "Table".
    public let type: String?
    public let geometryType: GeometryType?
    public let fields: [FieldDefinition]
    public let objectIdField: String?
    public let globalIdField: String?
    public let displayField: String?
    public let capabilities: Capabilities
    public let hasAttachments: Bool
    public let relationships: [Relationship]
    public let minScale: Double
    public let maxScale: Double
    public let editFieldsInfo: EditFieldsInfo?
    public let maxRecordCount: Int?
    /// The fields' names in lower case, in order: a case-insensitive look-up is one lower-casing and a scan.
    private let lowercasedFieldNames: [String]
    /// Field positions by name, for layers with many fields (a scan answers small layers sooner than a
    /// table could be built: every inline feature collection of every map makes one of these).
    private let fieldIndex: FieldIndex?

    public init(_ node: JSONNode) {
        self.node = node
        id = node["id"]?.integer
        name = node["name"]?.string
        type = node["type"]?.string
        geometryType = node["geometryType"]?.string.flatMap(GeometryType.init(rawValue:))
        let fields = (node["fields"]?.array ?? []).compactMap(FieldDefinition.init)
        self.fields = fields
        objectIdField = node["objectIdField"]?.string ?? fields.first { $0.type == .oid }?.name
        globalIdField = node["globalIdField"]?.string ?? fields.first { $0.type == .globalID }?.name
        displayField = node["displayField"]?.string
        capabilities = Capabilities(node["capabilities"]?.string)
        hasAttachments = node["hasAttachments"]?.bool ?? false
        relationships = (node["relationships"]?.array ?? []).enumerated().map { Relationship($1, index: $0) }
        minScale = node["minScale"]?.number ?? 0
        maxScale = node["maxScale"]?.number ?? 0
        if let info = node["editFieldsInfo"], info.object != nil {
            editFieldsInfo = EditFieldsInfo(
                creationDateField: info["creationDateField"]?.string, creatorField: info["creatorField"]?.string,
                editDateField: info["editDateField"]?.string, editorField: info["editorField"]?.string)
        } else {
            editFieldsInfo = nil
        }
        maxRecordCount = node["maxRecordCount"]?.integer
        let lowercasedNames = fields.map { $0.name.lowercasedCheaply() }
        lowercasedFieldNames = lowercasedNames
        fieldIndex = fields.count > FieldIndex.minimumFieldCount ? FieldIndex(fields, lowercasedNames: lowercasedNames) : nil
    }

    /// A copy with the map's overrides applied.
    private init(_ other: LayerMetadata, capabilities: Capabilities, minScale: Double, maxScale: Double) {
        node = other.node
        id = other.id
        name = other.name
        type = other.type
        geometryType = other.geometryType
        fields = other.fields
        objectIdField = other.objectIdField
        globalIdField = other.globalIdField
        displayField = other.displayField
        self.capabilities = capabilities
        hasAttachments = other.hasAttachments
        relationships = other.relationships
        self.minScale = minScale
        self.maxScale = maxScale
        editFieldsInfo = other.editFieldsInfo
        maxRecordCount = other.maxRecordCount
        lowercasedFieldNames = other.lowercasedFieldNames
        fieldIndex = other.fieldIndex
    }

    /// The field named `name`, compared case-insensitively as the services do (the first of fields whose
    /// names differ only in case).
    public func field(named name: String) -> FieldDefinition? {
        indexOfField(named: name).map { fields[$0] }
    }

    /// The index in `fields` of the field `field(named:)` finds.
    public func indexOfField(named name: String) -> Int? {
        if let index = position(ofField: name) { return index }
        // A qualified name ("owner.table.Field") names the field after its last period.
        guard let last = name.split(separator: ".").last, last.count < name.count else { return nil }
        return position(ofField: String(last))
    }

    private func position(ofField name: String) -> Int? {
        if let fieldIndex { return fieldIndex.exact[name] ?? fieldIndex.lowercased[name.lowercasedCheaply()] }
        // The first field whose lower-case name is the name's (as the table's `lowercased` keeps the first).
        return lowercasedFieldNames.firstIndex(of: name.lowercasedCheaply())
    }

    /// True for a table (no geometry) as opposed to a feature layer.
    public var isTable: Bool { type == "Table" || (geometryType == nil && type != "Feature Layer") }

    /// True when `field` is maintained by the service: the object id, the global id, or editor tracking.
    public func isSystemMaintained(_ field: FieldDefinition) -> Bool {
        if field.type == .oid || field.type == .globalID { return true }
        if objectIdField?.equalsIgnoringCase(field.name) == true || globalIdField?.equalsIgnoringCase(field.name) == true { return true }
        return editFieldsInfo?.fieldNames.contains { $0.equalsIgnoringCase(field.name) } ?? false
    }

    /// Applies the web map's `layerDefinition` overrides (capabilities, scales) to the service's metadata.
    public func applying(overrides layerDefinition: JSONNode?) -> LayerMetadata {
        guard let layerDefinition, layerDefinition.object != nil else { return self }
        let caps = layerDefinition["capabilities"]?.string
        let minScale = layerDefinition["minScale"]?.number
        let maxScale = layerDefinition["maxScale"]?.number
        if caps == nil && minScale == nil && maxScale == nil { return self }
        return LayerMetadata(self, capabilities: caps.map { Capabilities($0) } ?? capabilities,
                             minScale: minScale ?? self.minScale, maxScale: maxScale ?? self.maxScale)
    }
}

/// Field positions of a layer with many fields, by lower-case name and by exact name.
private struct FieldIndex: Sendable {
    /// Below this many fields, scanning them is cheaper than building the tables.
    static let minimumFieldCount = 24
    /// Positions by lower-case name, the first field of each name.
    let lowercased: [String: Int]
    /// The same positions by exact name (only where that name finds the same field), tried first: it spares
    /// lower-casing the name on most look-ups.
    let exact: [String: Int]

    init(_ fields: [FieldDefinition], lowercasedNames names: [String]) {
        var lowercased: [String: Int] = [:]
        lowercased.reserveCapacity(fields.count)
        for (index, name) in names.enumerated().reversed() { lowercased[name] = index }
        var exact: [String: Int] = [:]
        exact.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() where lowercased[names[index]] == index { exact[field.name] = index }
        self.lowercased = lowercased
        self.exact = exact
    }
}

/// The service root (`.../FeatureServer?f=json`).
public struct ServiceRootMetadata: Sendable {
    public var node: JSONNode
    public var layerIds: [Int]
    public var tableIds: [Int]
    public var capabilities: Capabilities
    public var hasVersionedData: Bool
    public var syncEnabled: Bool
    public var supportsApplyEditsWithGlobalIds: Bool

    public init(_ node: JSONNode) {
        self.node = node
        layerIds = (node["layers"]?.array ?? []).compactMap { $0["id"]?.integer }
        tableIds = (node["tables"]?.array ?? []).compactMap { $0["id"]?.integer }
        capabilities = Capabilities(node["capabilities"]?.string)
        hasVersionedData = node["hasVersionedData"]?.bool ?? false
        syncEnabled = node["syncEnabled"]?.bool ?? false
        supportsApplyEditsWithGlobalIds = node["supportsApplyEditsWithGlobalIds"]?.bool ?? false
    }
}
