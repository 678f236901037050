import Foundation

/// The Geometry category functions that need no geometry engine
/// (https://developers.arcgis.com/arcade/function-reference/geometry_functions/): the constructors (`Geometry`,
/// `Point`, `Multipoint`, `Polyline`, `Polygon`, `Extent`), the planar relations (`Intersects`, `Contains`,
/// `Within`, `Disjoint`, `EnvelopeIntersects`) and measurements (`Area`, `Length`, `Centroid`, `Distance`). A Feature stands for its geometry.
/// A feature or argument without geometry (null) gives null for the constructors and measurements, and false for
/// the relations. `Intersects(features, geometry)` narrows a FeatureSet's query (`ArcadeFeatureQuery.intersecting`);
/// `Contains(geometry, features)`, `Within(geometry, features)` and `EnvelopeIntersects(features, envelope)` read
/// the features and keep those that pass, in memory.
extension ArcadeFunctionLibrary {
    static let geometryFunctions: [ArcadeFunctionDefinition] = geometryConstructors + geometryRelations + geometryMeasurements

    static let geometryConstructors: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Geometry", arity: 1) { call in
            try GeometryReader.geometry(from: call[0], call: call).map { .geometry($0) } ?? .null
        },
        typedConstructor("Point"), typedConstructor("Multipoint"), typedConstructor("Polyline"), typedConstructor("Polygon"),
        ArcadeFunctionDefinition("Extent", arity: 1) { call in
            guard let geometry = try GeometryReader.geometry(from: call[0], call: call) else { return .null }
            return PlanarMeasurement.envelope(geometry).map { .geometry($0) } ?? .null
        },
    ]

    /// `Point(json)` and the like: the JSON must describe a geometry of that type.
    static func typedConstructor(_ type: String) -> ArcadeFunctionDefinition {
        ArcadeFunctionDefinition(type, arity: 1) { call in
            guard let geometry = try GeometryReader.geometry(from: call[0], call: call) else { return .null }
            guard geometry.typeName == type else { throw call.failure("the JSON describes a \(geometry.typeName), not a \(type)") }
            return .geometry(geometry)
        }
    }

    static let geometryRelations: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Intersects", arity: 2) { call in
            if case .featureSet(let set) = call[0] {
                guard let geometry = try GeometryReader.geometry(from: call[1], call: call) else {
                    throw call.failure("the geometry to intersect the FeatureSet with is null")
                }
                guard set.query.intersecting == nil else {
                    throw call.failure("this FeatureSet is already limited by Intersects; a second geometry is not supported here")
                }
                return .featureSet(set.with { $0.intersecting = geometry })
            }
            return try relation(call) { $0.intersects($1) }
        },
        ArcadeFunctionDefinition("Disjoint", arity: 2) { call in try relation(call, whenNull: true) { !$0.intersects($1) } },
        // Contains(containerGeometry, insideFeatures) and Within(innerGeometry, outerFeatures) answer FeatureSets.
        ArcadeFunctionDefinition("Contains", arity: 2) { call in try relation(call, featureSetAt: 1) { $0.contains($1) } },
        ArcadeFunctionDefinition("Within", arity: 2) { call in try relation(call, featureSetAt: 1) { $1.contains($0) } },
        ArcadeFunctionDefinition("EnvelopeIntersects", arity: 2) { call in
            try relation(call, featureSetAt: 0) { a, b in
                guard let x = a.envelope, let y = b.envelope else { return false }
                return x.xmin <= y.xmax && y.xmin <= x.xmax && x.ymin <= y.ymax && y.ymin <= x.ymax
            }
        },
        ArcadeFunctionDefinition("Distance", arity: 2...3) { call in
            guard let first = try measuredGeometry(call[0], asRing: false, call: call),
                  let second = try measuredGeometry(call[1], asRing: false, call: call) else { return .null }
            let a = PlanarShape(first), b = PlanarShape(second)
            guard !a.vertices.isEmpty, !b.vertices.isEmpty else { return .null }
            try call.context.step(a.size * b.size / 16 + 1)
            return .number(try MeasurementUnits.convert(a.distance(to: b), dimension: 1, wkid: first.wkid ?? second.wkid,
                                                        unit: call[2], call: call))
        },
    ]

    /// A planar relation between the two arguments; with a FeatureSet at `featureSetAt` (as the function's
    /// FeatureSet signature has it), the features of the set for which the relation holds, as a new FeatureSet.
    static func relation(_ call: ArcadeCall, whenNull: Bool = false, featureSetAt: Int? = nil,
                         _ test: (PlanarShape, PlanarShape) -> Bool) throws -> ArcadeValue {
        for index in 0..<2 {
            if case .featureSet(let set) = call[index] {
                guard index == featureSetAt else {
                    throw call.failure("a FeatureSet is not taken as argument \(index + 1) of \(call.name)")
                }
                return .featureSet(try spatialFilter(set, against: call[1 - index], featureFirst: index == 0, call: call, test))
            }
        }
        guard let first = try GeometryReader.geometry(from: call[0], call: call),
              let second = try GeometryReader.geometry(from: call[1], call: call) else { return .boolean(whenNull) }
        let a = PlanarShape(first), b = PlanarShape(second)
        try call.context.step(a.size * max(b.size, 1) / 16 + 1)
        return .boolean(test(a, b))
    }

    /// The features of `set` whose geometry passes `test` against `other` (the feature's shape first when
    /// `featureFirst`), read from the source and held in memory.
    static func spatialFilter(_ set: ArcadeFeatureSet, against other: ArcadeValue, featureFirst: Bool, call: ArcadeCall,
                              _ test: (PlanarShape, PlanarShape) -> Bool) throws -> ArcadeFeatureSet {
        guard let geometry = try GeometryReader.geometry(from: other, call: call) else {
            throw call.failure("the geometry to compare the FeatureSet with is null")
        }
        let shape = PlanarShape(geometry)
        let kept = try FeatureSetAccess.features(of: set, call: call).filter { feature in
            guard let own = feature.geometry else { return false }
            let featureShape = PlanarShape(own)
            try call.context.step(featureShape.size * max(shape.size, 1) / 16 + 1)
            return featureFirst ? test(featureShape, shape) : test(shape, featureShape)
        }
        return ArcadeFeatureSet(source: JSONFeatureSource(schema: set.source.schema ?? ArcadeLayerSchema(fields: []), features: kept))
    }

    static let geometryMeasurements: [ArcadeFunctionDefinition] = [
        measurement("Area", dimension: 2, PlanarMeasurement.area),
        measurement("Length", dimension: 1, PlanarMeasurement.length),
        ArcadeFunctionDefinition("Centroid", arity: 1) { call in
            guard let geometry = try measuredGeometry(call[0], asRing: true, call: call) else { return .null }
            return PlanarMeasurement.centroid(geometry).map { .geometry(.point($0)) } ?? .null
        },
    ]

    static func measurement(_ name: String, dimension: Int, _ measure: @escaping (ArcadeGeometry) -> Double) -> ArcadeFunctionDefinition {
        ArcadeFunctionDefinition(name, arity: 1...2) { call in
            if case .featureSet(let set) = call[0] {
                var total = 0.0, wkid: Int?
                for feature in try FeatureSetAccess.features(of: set, call: call) {
                    guard let geometry = feature.geometry else { continue }
                    total += measure(geometry)
                    wkid = geometry.wkid
                }
                return .number(try MeasurementUnits.convert(total, dimension: dimension, wkid: wkid, unit: call[1], call: call))
            }
            guard let geometry = try measuredGeometry(call[0], asRing: dimension == 2, call: call) else { return .null }
            try call.context.step(PlanarShape(geometry).size)
            return .number(try MeasurementUnits.convert(measure(geometry), dimension: dimension, wkid: geometry.wkid,
                                                        unit: call[1], call: call))
        }
    }

    /// The geometry a measurement reads: a geometry, a feature's, JSON, or an array of points (a ring for areas
    /// and centroids, a path for lengths).
    static func measuredGeometry(_ value: ArcadeValue, asRing: Bool, call: ArcadeCall) throws -> ArcadeGeometry? {
        if case .array = value {
            let points = try GeometryReader.path(value, wkid: nil, call: call)
            let wkid = points.first?.wkid
            return asRing ? .polygon(rings: [points], wkid: wkid) : .polyline(paths: [points], wkid: wkid)
        }
        return try GeometryReader.geometry(from: value, call: call)
    }
}
