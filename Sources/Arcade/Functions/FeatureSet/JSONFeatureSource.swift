import Foundation

/// The features of `FeatureSet(definition)`: a FeatureSet made from ArcGIS REST JSON (`fields`, `geometryType`,
/// `spatialReference`, `features`), held in memory and queried by MapRules itself: where clauses through
/// `FeatureSQLExpression`, `orderBy` as `FIELD [ASC|DESC], ...` (nulls first when ascending, as SQLite),
/// `intersecting` through the planar tests, `limit`, `fields` (only those attributes) and `includeGeometry`.
final class JSONFeatureSource: ArcadeFeatureSource {
    let schema: ArcadeLayerSchema?
    let all: [ArcadeFeature]

    init(schema: ArcadeLayerSchema, features: [ArcadeFeature]) {
        self.schema = schema
        all = features
    }

    func features(matching query: ArcadeFeatureQuery) throws -> [ArcadeFeature] {
        let clauses = try query.whereClauses.map { try FeatureSQLExpression($0) }
        var result = try all.filter { feature in try clauses.allSatisfy { try $0.matches(feature) } }
        if let geometry = query.intersecting {
            let area = PlanarShape(geometry)
            result = result.filter { $0.geometry.map { PlanarShape($0).intersects(area) } ?? false }
        }
        if let order = query.orderBy { result = try Self.sorted(result, by: order) }
        if let limit = query.limit { result = Array(result.prefix(max(limit, 0))) }
        if query.fields == nil && query.includeGeometry { return result }
        return result.map { feature in
            let attributes = query.fields.map { names in
                ArcadeDictionary(feature.attributes.pairs.filter { pair in names.contains { $0.caseInsensitiveCompare(pair.key) == .orderedSame } })
            } ?? feature.attributes
            return ArcadeFeature(attributes: attributes, geometry: query.includeGeometry ? feature.geometry : nil, schema: schema)
        }
    }

    static func sorted(_ features: [ArcadeFeature], by order: String) throws -> [ArcadeFeature] {
        let keys = try order.split(separator: ",").map { term -> (field: String, descending: Bool) in
            let words = term.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
            guard (1...2).contains(words.count), words.count == 1 || ["ASC", "DESC"].contains(words[1].uppercased()) else {
                throw FeatureSQLExpression.SQLError("'\(term.trimmingCharacters(in: .whitespaces))' is not FIELD [ASC|DESC]")
            }
            return (words[0], words.count == 2 && words[1].uppercased() == "DESC")
        }
        return features.enumerated().sorted { a, b in
            for key in keys {
                let x = a.element.attributes[key.field] ?? .null, y = b.element.attributes[key.field] ?? .null
                let order = compare(x, y)
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Null first; then numbers, dates and text by value.
    static func compare(_ x: ArcadeValue, _ y: ArcadeValue) -> Int {
        switch (x.isNull, y.isNull) {
        case (true, true): return 0
        case (true, false): return -1
        case (false, true): return 1
        default:
            if case .boolean(true) = SQLValues.compare("<", x, y) { return -1 }
            if case .boolean(true) = SQLValues.compare(">", x, y) { return 1 }
            return 0
        }
    }
}

/// Reads `FeatureSet(definition)`'s JSON.
enum JSONFeatureSetReader {
    static func featureSet(_ json: ArcadeDictionary, call: ArcadeCall) throws -> ArcadeFeatureSet {
        guard case .array(let fieldList)? = json["fields"] else { throw call.failure("the FeatureSet JSON has no fields array") }
        let fields = try fieldList.values.map { try field($0, call: call) }
        let wkid = GeometryReader.spatialReference(json)
        let objectIdField = fields.first { $0.type == "esriFieldTypeOID" }?.name
        let globalIdField = fields.first { $0.type == "esriFieldTypeGlobalID" }?.name
        let schema = ArcadeLayerSchema(fields: fields, objectIdField: objectIdField, globalIdField: globalIdField,
                                       geometryType: json["geometryType"]?.textValue)
        var features: [ArcadeFeature] = []
        if case .array(let list)? = json["features"] {
            try call.context.step(list.values.count)
            for entry in list.values {
                guard case .dictionary(let feature) = entry else { throw call.failure("each feature must be an object") }
                features.append(try self.feature(feature, schema: schema, wkid: wkid, call: call))
            }
        }
        return ArcadeFeatureSet(source: JSONFeatureSource(schema: schema, features: features))
    }

    static func field(_ value: ArcadeValue, call: ArcadeCall) throws -> ArcadeLayerSchema.Field {
        guard case .dictionary(let field) = value, case .text(let name)? = field["name"] else {
            throw call.failure("each field must be an object with a name")
        }
        var codedValues: [(code: ArcadeValue, name: String)]?
        if case .dictionary(let domain)? = field["domain"], case .array(let values)? = domain["codedValues"] {
            codedValues = values.values.compactMap { entry in
                guard case .dictionary(let pair) = entry, let code = pair["code"] else { return nil }
                return (code, pair["name"]?.textValue ?? code.textValue)
            }
        }
        return ArcadeLayerSchema.Field(name: name, type: field["type"]?.textValue ?? "esriFieldTypeString",
                                       alias: field["alias"]?.textValue, codedValues: codedValues)
    }

    static func feature(_ json: ArcadeDictionary, schema: ArcadeLayerSchema, wkid: Int?, call: ArcadeCall) throws -> ArcadeFeature {
        var geometry: ArcadeGeometry?
        if case .dictionary(let shape)? = json["geometry"] {
            if !shape.hasKey("spatialReference"), let wkid { shape["spatialReference"] = .dictionary(ArcadeDictionary([("wkid", .number(Double(wkid)))])) }
            geometry = try GeometryReader.read(shape, call: call)
        }
        let attributes = ArcadeDictionary()
        if case .dictionary(let given)? = json["attributes"] {
            for (key, value) in given.pairs {
                // Dates travel as epoch milliseconds in REST JSON.
                if schema.field(named: key)?.type == "esriFieldTypeDate", case .number(let ms) = value {
                    attributes[key] = .date(ArcadeDate(epochMilliseconds: ms))
                } else {
                    attributes[key] = value
                }
            }
        }
        return ArcadeFeature(attributes: attributes, geometry: geometry, schema: schema)
    }
}
