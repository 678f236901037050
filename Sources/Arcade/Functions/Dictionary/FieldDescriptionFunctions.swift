import Foundation

/// What a feature's layer (or a FeatureSet's source) says about its fields: `Schema`, `Domain`, `DomainName`,
/// `DomainCode`. The layer schema MapRules knows carries each field's name, type, alias and coded values; a
/// domain's own name is not in it, so `Domain` answers `name` as the field's name. Subtypes are not known here,
/// so the `subtype` argument has no effect. A feature without a schema (built with `Feature()`) has a schema read
/// from its attributes: each field typed by its value.
extension ArcadeFunctionLibrary {
    static let fieldDescriptionFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Schema", arity: 1) { call in
            .dictionary(FieldDescriptions.schemaDictionary(try FieldDescriptions.schema(call)))
        },
        ArcadeFunctionDefinition("Domain", arity: 2...3) { call in
            let field = try FieldDescriptions.field(call)
            return FieldDescriptions.domain(field).map { .dictionary($0) } ?? .null
        },
        ArcadeFunctionDefinition("DomainName", arity: 2...4) { call in
            // The code given, or the feature's own value. Without a coded-value domain the value is its own name;
            // a code the domain does not list has no name (null).
            let field = try FieldDescriptions.field(call)
            let code = call.count >= 3 ? call[2] : FieldDescriptions.featureValue(call, field: field)
            if code.isNull { return .null }
            guard let codedValues = field.codedValues else { return code }
            let match = codedValues.first { DataEquality.equal($0.code, code) }
                ?? codedValues.first { $0.code.textValue == code.textValue }
            return match.map { .text($0.name) } ?? .null
        },
        ArcadeFunctionDefinition("DomainCode", arity: 2...4) { call in
            let field = try FieldDescriptions.field(call)
            let name = call.count >= 3 ? call[2] : FieldDescriptions.featureValue(call, field: field)
            if name.isNull { return .null }
            guard let codedValues = field.codedValues else { return .null }
            return codedValues.first { $0.name == name.textValue }?.code ?? .null
        },
    ]
}

enum FieldDescriptions {
    static func schema(_ call: ArcadeCall) throws -> ArcadeLayerSchema {
        switch call[0] {
        case .feature(let feature): return feature.schema ?? inferred(feature)
        case .featureSet(let set):
            guard let schema = set.source.schema else { throw call.failure("the FeatureSet's fields are not known here") }
            return schema
        default: throw call.failure("the first argument must be a Feature or FeatureSet, not \(call[0].typeName)")
        }
    }

    static func field(_ call: ArcadeCall) throws -> ArcadeLayerSchema.Field {
        let name = call.dataText(1)
        guard let field = try schema(call).field(named: name) else { throw call.failure("there is no field '\(name)'") }
        return field
    }

    static func featureValue(_ call: ArcadeCall, field: ArcadeLayerSchema.Field) -> ArcadeValue {
        if case .feature(let feature) = call[0] { return feature.attributes[field.name] ?? .null }
        return .null
    }

    static func inferred(_ feature: ArcadeFeature) -> ArcadeLayerSchema {
        let fields = feature.attributes.pairs.map { pair -> ArcadeLayerSchema.Field in
            let type: String
            switch pair.value {
            case .number: type = "esriFieldTypeDouble"
            case .date: type = "esriFieldTypeDate"
            case .boolean: type = "esriFieldTypeSmallInteger"
            default: type = "esriFieldTypeString"
            }
            return ArcadeLayerSchema.Field(name: pair.key, type: type, alias: pair.key)
        }
        return ArcadeLayerSchema(fields: fields, geometryType: feature.geometry.map(geometryType))
    }

    static func geometryType(_ geometry: ArcadeGeometry) -> String {
        switch geometry {
        case .point: return "esriGeometryPoint"
        case .multipoint: return "esriGeometryMultipoint"
        case .polyline: return "esriGeometryPolyline"
        case .polygon: return "esriGeometryPolygon"
        case .extent: return "esriGeometryEnvelope"
        }
    }

    static func schemaDictionary(_ schema: ArcadeLayerSchema) -> ArcadeDictionary {
        let fields = schema.fields.map { field -> ArcadeValue in
            .dictionary(ArcadeDictionary([
                ("name", .text(field.name)), ("alias", .text(field.alias ?? field.name)), ("type", .text(field.type)),
                ("domain", domain(field).map { .dictionary($0) } ?? .null),
                ("editable", .boolean(true)), ("nullable", .boolean(true)),
            ]))
        }
        return ArcadeDictionary([
            ("objectIdField", .text(schema.objectIdField ?? "")), ("globalIdField", .text(schema.globalIdField ?? "")),
            ("geometryType", .text(schema.geometryType ?? "esriGeometryNull")), ("fields", .array(ArcadeArray(fields))),
        ])
    }

    static func domain(_ field: ArcadeLayerSchema.Field) -> ArcadeDictionary? {
        guard let codedValues = field.codedValues else { return nil }
        let values = codedValues.map { ArcadeValue.dictionary(ArcadeDictionary([("name", .text($0.name)), ("code", $0.code)])) }
        return ArcadeDictionary([
            ("type", .text("codedValue")), ("name", .text(field.name)), ("dataType", .text(field.type)),
            ("codedValues", .array(ArcadeArray(values))),
        ])
    }
}
