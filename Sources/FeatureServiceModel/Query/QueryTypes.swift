import Foundation
import WebMap

/// The parameters of `<layer>/query`, typed. The HTTP face decodes the request into this value (the
/// helpers below parse the comma lists); `where` and `orderByFields` stay text because the core parses
/// and validates them (errors name the character offset).
public struct QueryParameters: Sendable {
    /// The `where` clause (docs/service.md's safe subset); nil or blank means every feature.
    public var whereClause: String?
    public var objectIds: [Int64]?
    /// Field names; nil, empty or `["*"]` means all fields.
    public var outFields: [String]?
    public var returnGeometry: Bool
    /// A spatial filter, in `inSR` (default: the layer's spatial reference).
    public var geometry: Geometry?
    public var inSR: SpatialReference?
    public var spatialRelation: SpatialRelation
    /// The output spatial reference (default: the layer's).
    public var outSR: SpatialReference?
    /// `Field [ASC|DESC], ...`.
    public var orderByFields: String?
    public var resultOffset: Int?
    /// Capped by the layer's `maxRecordCount`.
    public var resultRecordCount: Int?
    public var returnCountOnly: Bool
    /// Not capped by `maxRecordCount`.
    public var returnIdsOnly: Bool
    public var returnExtentOnly: Bool
    public var outStatistics: [StatisticDefinition]?
    public var groupByFieldsForStatistics: [String]?
    /// A version name (`owner.name`) or GUID; nil means `sde.DEFAULT`.
    public var gdbVersion: String?

    public init(where whereClause: String? = nil, objectIds: [Int64]? = nil, outFields: [String]? = nil, returnGeometry: Bool = true,
                geometry: Geometry? = nil, inSR: SpatialReference? = nil, spatialRelation: SpatialRelation = .intersects,
                outSR: SpatialReference? = nil, orderByFields: String? = nil, resultOffset: Int? = nil, resultRecordCount: Int? = nil,
                returnCountOnly: Bool = false, returnIdsOnly: Bool = false, returnExtentOnly: Bool = false,
                outStatistics: [StatisticDefinition]? = nil, groupByFieldsForStatistics: [String]? = nil, gdbVersion: String? = nil) {
        self.whereClause = whereClause
        self.objectIds = objectIds
        self.outFields = outFields
        self.returnGeometry = returnGeometry
        self.geometry = geometry
        self.inSR = inSR
        self.spatialRelation = spatialRelation
        self.outSR = outSR
        self.orderByFields = orderByFields
        self.resultOffset = resultOffset
        self.resultRecordCount = resultRecordCount
        self.returnCountOnly = returnCountOnly
        self.returnIdsOnly = returnIdsOnly
        self.returnExtentOnly = returnExtentOnly
        self.outStatistics = outStatistics
        self.groupByFieldsForStatistics = groupByFieldsForStatistics
        self.gdbVersion = gdbVersion
    }

    /// Parses `objectIds=1,2,3` strictly: anything but integers is refused (nothing reaches SQL).
    public static func parseObjectIds(_ text: String) throws -> [Int64] {
        // Counted before parsing: millions of ids would keep a core busy long after the client gave up.
        let commas = text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
        guard commas < 1_000_000 else { throw ServiceError.invalidQuery("objectIds lists more than 1,000,000 ids; ask for at most 30000 at a time.") }
        return try text.split(separator: ",").map { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard let id = Int64(trimmed) else {
                throw ServiceError.invalidQuery("objectIds must be a comma-separated list of integers; '\(trimmed.prefix(40))' is not one.")
            }
            return id
        }
    }

    /// Splits a comma-separated field list (`outFields`, `groupByFieldsForStatistics`).
    public static func parseFieldList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// One `outStatistics` entry.
public struct StatisticDefinition: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable { case count, min, max, sum, avg }
    public var statisticType: Kind
    /// A field name, or `*` / the object id field for `count`.
    public var onStatisticField: String
    public var outStatisticFieldName: String?

    public init(statisticType: Kind, onStatisticField: String, outStatisticFieldName: String? = nil) {
        self.statisticType = statisticType
        self.onStatisticField = onStatisticField
        self.outStatisticFieldName = outStatisticFieldName
    }

    /// Parses the `outStatistics` JSON array.
    public static func parse(_ text: String) throws -> [StatisticDefinition] {
        guard let items = try JSON.parse(text).array else { throw ServiceError.invalidQuery("outStatistics must be a JSON array.") }
        return try items.map { item in
            guard let typeText = item["statisticType"]?.string, let kind = Kind(rawValue: typeText.lowercased()) else {
                throw ServiceError.invalidQuery("statisticType must be one of count, min, max, sum, avg.")
            }
            guard let field = item["onStatisticField"]?.string, !field.isEmpty else { throw ServiceError.invalidQuery("onStatisticField is required.") }
            return StatisticDefinition(statisticType: kind, onStatisticField: field, outStatisticFieldName: item["outStatisticFieldName"]?.string)
        }
    }
}

/// A feature as queries answer it.
public struct Feature: Sendable, Codable, Equatable {
    public var attributes: Attributes
    public var geometry: Geometry?

    public init(attributes: Attributes, geometry: Geometry? = nil) {
        self.attributes = attributes
        self.geometry = geometry
    }

    public var objectId: Int64? {
        for (name, value) in attributes where name.caseInsensitiveCompare("objectid") == .orderedSame {
            if case .int(let id) = value { return id }
        }
        return nil
    }
}

/// The answer of a feature query (Esri JSON feature set).
public struct FeatureSet: Sendable, Codable, Equatable {
    public init(objectIdFieldName: String, globalIdFieldName: String? = nil, geometryType: String? = nil, spatialReference: SpatialReference? = nil, fields: [JSON], features: [Feature], exceededTransferLimit: Bool? = nil) {
        self.objectIdFieldName = objectIdFieldName
        self.globalIdFieldName = globalIdFieldName
        self.geometryType = geometryType
        self.spatialReference = spatialReference
        self.fields = fields
        self.features = features
        self.exceededTransferLimit = exceededTransferLimit
    }

    public var objectIdFieldName: String
    public var globalIdFieldName: String?
    public var geometryType: String?
    public var spatialReference: SpatialReference?
    /// The field descriptions (name, type, alias, length, domain) of the returned attributes.
    public var fields: [JSON]
    public var features: [Feature]
    /// True only when more features match than this page holds.
    public var exceededTransferLimit: Bool?

    /// The features with their object ids, for callers that think in ids.
    public var objectIds: [Int64] { features.compactMap { feature in feature.attributes[objectIdFieldName].flatMap { if case .int(let i) = $0 { return i } else { return nil } } } }

    /// The feature set as a GeoJSON FeatureCollection. Geometries must be in WGS84: query with
    /// `outSR` 4326 for this.
    public func geoJSON() -> JSON {
        .object([
            ("type", .string("FeatureCollection")),
            ("features", .array(features.map { $0.geoJSON(objectIdFieldName: objectIdFieldName) })),
        ] + (exceededTransferLimit == true ? [("exceededTransferLimit", JSON.bool(true))] : []))
    }
}

extension Feature {
    /// The feature as a GeoJSON Feature: `type`, `id` (the object id, when it is an integer), `geometry` (null when
    /// there is none; it must be in WGS84 already) and `properties` (the attributes in field order).
    public func geoJSON(objectIdFieldName: String) -> JSON {
        var members: [(String, JSON)] = [("type", .string("Feature"))]
        if let id = attributes[objectIdFieldName], case .int(let oid) = id { members.append(("id", .int(Int(oid)))) }
        members.append(("geometry", geometry.map(GeoJSON.geometry) ?? .null))
        members.append(("properties", attributes.json))
        return .object(members)
    }
}

/// `returnIdsOnly`.
public struct ObjectIdSet: Sendable, Codable, Equatable {
    public init(objectIdFieldName: String, objectIds: [Int64]) {
        self.objectIdFieldName = objectIdFieldName
        self.objectIds = objectIds
    }

    public var objectIdFieldName: String
    public var objectIds: [Int64]
}

/// `returnExtentOnly` (with the count, as ArcGIS answers).
public struct ExtentResult: Sendable, Codable, Equatable {
    public init(extent: ExtentJSON, count: Int) {
        self.extent = extent
        self.count = count
    }

    public struct ExtentJSON: Sendable, Codable, Equatable {
        public init(xmin: Double? = nil, ymin: Double? = nil, xmax: Double? = nil, ymax: Double? = nil, spatialReference: SpatialReference) {
            self.xmin = xmin
            self.ymin = ymin
            self.xmax = xmax
            self.ymax = ymax
            self.spatialReference = spatialReference
        }

        public var xmin: Double?
        public var ymin: Double?
        public var xmax: Double?
        public var ymax: Double?
        public var spatialReference: SpatialReference
    }
    public var extent: ExtentJSON
    public var count: Int

    /// The `f=geojson` answer ArcGIS gives to `returnExtentOnly=true`: an empty feature collection whose
    /// `bbox` is `[xmin, ymin, xmax, ymax]` (RFC 7946 §5), with the count. GDAL's ESRIJSON reader asks for exactly
    /// this to learn a layer's extent, and reads every page when no `bbox` comes back. No matching rows: no
    /// `bbox`, as there is no extent to give.
    public func geoJSON() -> JSON {
        var members: [(String, JSON)] = [("type", .string("FeatureCollection"))]
        if let xmin = extent.xmin, let ymin = extent.ymin, let xmax = extent.xmax, let ymax = extent.ymax {
            members.append(("bbox", .array([.double(xmin), .double(ymin), .double(xmax), .double(ymax)])))
        }
        members.append(("count", .int(count)))
        members.append(("features", .array([])))
        return .object(members)
    }
}

/// `returnCountOnly`.
public struct CountResult: Sendable, Codable, Equatable {
    public init(count: Int) {
        self.count = count
    }

    public var count: Int
}

/// What `query` answers, depending on the `return...Only` and `outStatistics` parameters. Encodes as the
/// corresponding ArcGIS JSON.
public enum QueryResponse: Sendable, Equatable, Encodable {
    case features(FeatureSet)
    case count(CountResult)
    case ids(ObjectIdSet)
    case extent(ExtentResult)
    /// Statistics: a feature set of attribute-only features.
    case statistics(FeatureSet)

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .features(let set), .statistics(let set): try set.encode(to: encoder)
        case .count(let count): try count.encode(to: encoder)
        case .ids(let ids): try ids.encode(to: encoder)
        case .extent(let extent): try extent.encode(to: encoder)
        }
    }

    public var featureSet: FeatureSet? {
        switch self {
        case .features(let set), .statistics(let set): return set
        default: return nil
        }
    }

    public var count: Int? {
        switch self {
        case .count(let c): return c.count
        case .extent(let e): return e.count
        default: return nil
        }
    }

    public var objectIds: [Int64]? { if case .ids(let ids) = self { return ids.objectIds } else { return nil } }
}
