import Foundation

/// Geometries from their ArcGIS REST JSON, as a dictionary or text: `{x, y}` a Point, `{points}` a Multipoint,
/// `{paths}` a Polyline, `{rings}` a Polygon, `{xmin, ymin, xmax, ymax}` an Extent, each with an optional
/// `spatialReference: {wkid}`. Coordinates are `[x, y]` or `[x, y, z]` (a fourth number is m).
enum GeometryReader {
    struct Failure: Error { let message: String }

    /// A geometry from an argument: a geometry as is, a feature's geometry, a dictionary or JSON text.
    static func geometry(from value: ArcadeValue, call: ArcadeCall) throws -> ArcadeGeometry? {
        switch value {
        case .null: return nil
        case .geometry(let geometry): return geometry
        case .feature(let feature): return feature.geometry
        case .dictionary(let dictionary): return try read(dictionary, call: call)
        case .text(let text):
            let parsed: ArcadeValue
            do { parsed = try DataJSONReader.read(text, singleQuotes: true) } catch let error as DataJSONReader.Failure {
                throw call.failure("the text is not geometry JSON: \(error.message)")
            }
            guard case .dictionary(let dictionary) = parsed else { throw call.failure("the geometry JSON must be an object") }
            return try read(dictionary, call: call)
        default:
            throw call.failure("a geometry, feature, dictionary or JSON text was expected, not \(value.typeName)")
        }
    }

    static func read(_ json: ArcadeDictionary, call: ArcadeCall) throws -> ArcadeGeometry {
        let wkid = spatialReference(json)
        func number(_ key: String) throws -> Double {
            guard let value = json[key], case .number(let n) = value else { throw call.failure("the geometry's \(key) must be a number") }
            return n
        }
        if json.hasKey("x") {
            var point = ArcadePoint(x: try number("x"), y: try number("y"), wkid: wkid)
            if case .number(let z)? = json["z"] { point.z = z }
            if case .number(let m)? = json["m"] { point.m = m }
            return .point(point)
        }
        if let points = json["points"] { return .multipoint(points: try path(points, wkid: wkid, call: call), wkid: wkid) }
        if let paths = json["paths"] { return .polyline(paths: try parts(paths, wkid: wkid, call: call), wkid: wkid) }
        if let rings = json["rings"] { return .polygon(rings: try parts(rings, wkid: wkid, call: call), wkid: wkid) }
        if json.hasKey("xmin") {
            return .extent(xmin: try number("xmin"), ymin: try number("ymin"), xmax: try number("xmax"), ymax: try number("ymax"), wkid: wkid)
        }
        throw call.failure("the dictionary is no geometry: it has none of x/y, points, paths, rings or xmin..ymax")
    }

    static func spatialReference(_ json: ArcadeDictionary) -> Int? {
        guard case .dictionary(let reference)? = json["spatialReference"], case .number(let wkid)? = reference["wkid"] ?? reference["latestWkid"],
              wkid.isFinite, abs(wkid) < 1e9 else { return nil }
        return Int(wkid)
    }

    static func parts(_ value: ArcadeValue, wkid: Int?, call: ArcadeCall) throws -> [[ArcadePoint]] {
        guard case .array(let parts) = value else { throw call.failure("paths and rings must be arrays of paths") }
        return try parts.values.map { try path($0, wkid: wkid, call: call) }
    }

    static func path(_ value: ArcadeValue, wkid: Int?, call: ArcadeCall) throws -> [ArcadePoint] {
        guard case .array(let points) = value else { throw call.failure("a path must be an array of [x, y] coordinates") }
        try call.context.step(points.values.count)
        return try points.values.map { coordinate in
            switch coordinate {
            case .array(let xy):
                let numbers = xy.values.compactMap { value -> Double? in if case .number(let n) = value { return n } else { return nil } }
                guard numbers.count >= 2, numbers.count == xy.values.count else { throw call.failure("a coordinate must be [x, y] numbers") }
                return ArcadePoint(x: numbers[0], y: numbers[1], z: numbers.count > 2 ? numbers[2] : nil,
                                   m: numbers.count > 3 ? numbers[3] : nil, wkid: wkid)
            case .geometry(.point(let point)): return point
            default: throw call.failure("a coordinate must be [x, y] numbers, not \(coordinate.typeName)")
            }
        }
    }
}
