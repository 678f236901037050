import Foundation

/// The FeatureSet category (https://developers.arcgis.com/arcade/function-reference/featureset_functions/): the
/// functions that make FeatureSets from the host's data. They only build queries; the source is read when features
/// are (`First`, `Count`, `for`, the statistics). `Filter`, `First`, `Top`, `Count` and `Distinct` take FeatureSets
/// in the Array category, the statistics in Math, `Intersects(features, geometry)` in Geometry: one definition
/// per name.
extension ArcadeFunctionLibrary {
    static let featureSetFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("FeatureSetByName", arity: 2...4) { call in
            let collection = try requireCollection(call)
            let access = try FeatureSetAccess.dataAccess(call)
            let title = call.dataText(1)
            // $map looks a layer up by its title; $datastore by its name in the service.
            let source = try FeatureSetAccess.sourceCall(call) {
                collection.lowercased() == "$datastore" ? try access.featureSource(layerNamed: title)
                    : try access.featureSource(titled: title)
            }
            guard let source else { throw call.failure("there is no layer or table titled '\(title)' here") }
            return try featureSet(source, fieldsAt: 2, call: call)
        },
        ArcadeFunctionDefinition("FeatureSetById", arity: 2...4) { call in
            _ = try requireCollection(call)
            let access = try FeatureSetAccess.dataAccess(call)
            let id = call.dataText(1)
            let source = try FeatureSetAccess.sourceCall(call) { try access.featureSource(layerNamed: id) }
            guard let source else { throw call.failure("there is no layer or table with the id '\(id)' here") }
            return try featureSet(source, fieldsAt: 2, call: call)
        },
        ArcadeFunctionDefinition("FeatureSetByRelationshipName", arity: 2...4) { call in
            guard case .feature(let feature) = call[0] else {
                throw call.failure("feature must be a Feature, not \(call[0].typeName)")
            }
            let access = try FeatureSetAccess.dataAccess(call)
            let name = call.dataText(1)
            let source = try FeatureSetAccess.sourceCall(call) { try access.relatedFeatures(of: feature, relationshipName: name) }
            guard let source else { throw call.failure("the feature's layer has no relationship named '\(name)'") }
            return try featureSet(source, fieldsAt: 2, call: call)
        },
        ArcadeFunctionDefinition("GetFeatureSet", arity: 1...2) { call in
            guard case .feature = call[0] else { throw call.failure("feature must be a Feature, not \(call[0].typeName)") }
            let access = try FeatureSetAccess.dataAccess(call)
            guard let source = try FeatureSetAccess.sourceCall(call, { try access.currentLayer() }) else {
                throw call.failure("the layer of this feature is not available here")
            }
            return .featureSet(ArcadeFeatureSet(source: source))
        },
        ArcadeFunctionDefinition("FeatureSet", arity: 1) { call in
            // FeatureSet(definition): JSON text (or the same as a dictionary), held in memory; no data access needed.
            let json: ArcadeValue
            if case .text(let text) = call[0] { json = try readJSON(text, call: call) } else { json = call[0] }
            guard case .dictionary(let definition) = json else {
                throw call.failure("definition must be the JSON of a FeatureSet ({fields, features, ...}), not \(json.typeName)")
            }
            return .featureSet(try JSONFeatureSetReader.featureSet(definition, call: call))
        },
        ArcadeFunctionDefinition("GroupBy", arity: 3) { call in
            .featureSet(try FeatureSetGrouping.groupBy(try featureSetArgument(call, 0), call[1], call[2], call: call))
        },
        ArcadeFunctionDefinition("OrderBy", arity: 2) { call in
            let set = try featureSetArgument(call, 0)
            let order = call.dataText(1).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !order.isEmpty else { throw call.failure("the order is empty; give e.g. 'POPULATION DESC'") }
            return .featureSet(set.with { $0.orderBy = order })
        },
    ]

    /// The name (`$map` or `$datastore`) of the value a FeatureSetBy function starts from.
    static func requireCollection(_ call: ArcadeCall) throws -> String {
        switch call[0] {
        case .featureSetCollection(let payload): return ((payload as AnyObject) as? FeatureSetCollection)?.name ?? "$map"
        default: throw call.failure("the first argument must be $map or $datastore, not \(call[0].typeName)")
        }
    }

    static func featureSetArgument(_ call: ArcadeCall, _ index: Int) throws -> ArcadeFeatureSet {
        if case .featureSet(let set) = call[index] { return set }
        throw call.failure("features must be a FeatureSet, not \(call[index].typeName)")
    }

    /// A FeatureSet over `source` with the optional `fields` and `includeGeometry` arguments from `index` on.
    static func featureSet(_ source: ArcadeFeatureSource, fieldsAt index: Int, call: ArcadeCall) throws -> ArcadeValue {
        var query = ArcadeFeatureQuery()
        switch call[index] {
        case .null: break
        case .array(let names):
            let fields = names.values.map(\.textValue)
            query.fields = fields.contains("*") ? nil : fields
        default: throw call.failure("fields must be an Array of field names, not \(call[index].typeName)")
        }
        switch call[index + 1] {
        case .null: break
        case .boolean(let include): query.includeGeometry = include
        default: throw call.failure("includeGeometry must be a Boolean, not \(call[index + 1].typeName)")
        }
        return .featureSet(ArcadeFeatureSet(source: source, query: query))
    }
}
