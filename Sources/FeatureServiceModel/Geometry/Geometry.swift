import Foundation
import WebMap

/// A spatial reference by well-known id. 3857 is Web Mercator (also written 102100, 102113, 900913);
/// 4326 is WGS84 longitude/latitude, the storage reference of the core.
public struct SpatialReference: Sendable, Equatable, Hashable, Codable {
    public var wkid: Int
    public var latestWkid: Int?

    public init(wkid: Int, latestWkid: Int? = nil) {
        self.wkid = wkid
        self.latestWkid = latestWkid
    }

    public static let wgs84 = SpatialReference(wkid: 4326, latestWkid: 4326)
    public static let webMercator = SpatialReference(wkid: 102100, latestWkid: 3857)

    static let webMercatorIds: Set<Int> = [3857, 102100, 102113, 900913]

    /// The reference the core can project to and from, or nil when it is neither WGS84 nor Web Mercator.
    public var normalized: Projection.System? {
        if wkid == 4326 || latestWkid == 4326 { return .wgs84 }
        if SpatialReference.webMercatorIds.contains(wkid) || latestWkid.map(SpatialReference.webMercatorIds.contains) == true { return .webMercator }
        return nil
    }

    /// From `{"wkid": n}` or `{"latestWkid": n}`, or a bare number as in `inSR=3857`.
    public init?(json: JSON) {
        if let n = json.int { self.init(wkid: n); return }
        guard let wkid = json["wkid"]?.int ?? json["latestWkid"]?.int else { return nil }
        self.init(wkid: wkid, latestWkid: json["latestWkid"]?.int)
    }

    public var json: JSON {
        var members: [(String, JSON)] = [("wkid", .int(wkid))]
        if let latestWkid { members.append(("latestWkid", .int(latestWkid))) }
        return .object(members)
    }
}

/// A coordinate pair.
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle.
public struct Envelope: Sendable, Equatable, Codable {
    public var xmin: Double
    public var ymin: Double
    public var xmax: Double
    public var ymax: Double

    public init(xmin: Double, ymin: Double, xmax: Double, ymax: Double) {
        self.xmin = min(xmin, xmax)
        self.ymin = min(ymin, ymax)
        self.xmax = max(xmin, xmax)
        self.ymax = max(ymin, ymax)
    }

    public func intersects(_ other: Envelope) -> Bool {
        xmin <= other.xmax && other.xmin <= xmax && ymin <= other.ymax && other.ymin <= ymax
    }

    public func union(_ other: Envelope) -> Envelope {
        Envelope(xmin: min(xmin, other.xmin), ymin: min(ymin, other.ymin), xmax: max(xmax, other.xmax), ymax: max(ymax, other.ymax))
    }
}

/// An Esri JSON geometry: point, multipoint, polyline, polygon or envelope (x/y only; z and m are dropped).
public enum Geometry: Sendable, Equatable {
    case point(Point)
    case multipoint([Point])
    case polyline([[Point]])
    case polygon([[Point]])
    case envelope(Envelope)

    /// The Esri geometry type this value is.
    public var type: GeometryType {
        switch self {
        case .point: return .point
        case .multipoint: return .multipoint
        case .polyline: return .polyline
        case .polygon: return .polygon
        case .envelope: return .envelope
        }
    }

    /// Every vertex.
    public var vertices: [Point] {
        switch self {
        case .point(let p): return [p]
        case .multipoint(let points): return points
        case .polyline(let parts), .polygon(let parts): return parts.flatMap { $0 }
        case .envelope(let e):
            return [Point(x: e.xmin, y: e.ymin), Point(x: e.xmin, y: e.ymax), Point(x: e.xmax, y: e.ymax), Point(x: e.xmax, y: e.ymin)]
        }
    }

    /// The bounding box, nil for an empty geometry.
    public var envelope: Envelope? {
        let points = vertices
        guard let first = points.first else { return nil }
        var e = Envelope(xmin: first.x, ymin: first.y, xmax: first.x, ymax: first.y)
        for p in points.dropFirst() {
            e.xmin = min(e.xmin, p.x); e.ymin = min(e.ymin, p.y)
            e.xmax = max(e.xmax, p.x); e.ymax = max(e.ymax, p.y)
        }
        return e
    }

    /// The same shape with every coordinate mapped.
    public func mapPoints(_ transform: (Point) -> Point) -> Geometry {
        switch self {
        case .point(let p): return .point(transform(p))
        case .multipoint(let points): return .multipoint(points.map(transform))
        case .polyline(let parts): return .polyline(parts.map { $0.map(transform) })
        case .polygon(let parts): return .polygon(parts.map { $0.map(transform) })
        case .envelope(let e):
            let a = transform(Point(x: e.xmin, y: e.ymin)), b = transform(Point(x: e.xmax, y: e.ymax))
            return .envelope(Envelope(xmin: a.x, ymin: a.y, xmax: b.x, ymax: b.y))
        }
    }

    // MARK: Esri JSON

    /// Reads Esri JSON (`{"x","y"}`, `{"points"}`, `{"paths"}`, `{"rings"}`, `{"xmin",...}`), with the
    /// geometry's own `spatialReference` when it has one. Throws a sentence saying what is wrong.
    public static func parse(_ json: JSON) throws -> (geometry: Geometry, spatialReference: SpatialReference?) {
        guard json.objectMembers != nil else { throw GeometryError("a geometry must be a JSON object") }
        let sr = json["spatialReference"].flatMap(SpatialReference.init(json:))
        if let x = json["x"] {
            guard let xv = x.double, let yv = json["y"]?.double, xv.isFinite, yv.isFinite else {
                throw GeometryError("a point needs numeric x and y")
            }
            return (.point(Point(x: xv, y: yv)), sr)
        }
        if let points = json["points"] {
            return (.multipoint(try coordinates(points, what: "points")), sr)
        }
        if let paths = json["paths"] {
            guard let parts = paths.array else { throw GeometryError("paths must be an array of paths") }
            return (.polyline(try parts.map { try coordinates($0, what: "a path") }), sr)
        }
        if let rings = json["rings"] {
            guard let parts = rings.array else { throw GeometryError("rings must be an array of rings") }
            return (.polygon(try parts.map { try coordinates($0, what: "a ring") }), sr)
        }
        if let xmin = json["xmin"]?.double, let ymin = json["ymin"]?.double, let xmax = json["xmax"]?.double, let ymax = json["ymax"]?.double {
            return (.envelope(Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)), sr)
        }
        throw GeometryError("no x/y, points, paths, rings or xmin/ymin/xmax/ymax found")
    }

    /// Reads the simple syntax of query parameters: `x,y` for a point, `xmin,ymin,xmax,ymax` for an
    /// envelope; anything else is parsed as Esri JSON.
    public static func parse(parameter text: String, type: GeometryType?) throws -> (geometry: Geometry, spatialReference: SpatialReference?) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.hasPrefix("{") {
            // Finite numbers only: Double("nan") and Double("inf") parse, and a NaN envelope stored with a replica
            // made its every later answer fail.
            let numbers = trimmed.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil } }
            if numbers.count == 2, let x = numbers[0], let y = numbers[1] { return (.point(Point(x: x, y: y)), nil) }
            if numbers.count == 4, let a = numbers[0], let b = numbers[1], let c = numbers[2], let d = numbers[3] {
                return (.envelope(Envelope(xmin: a, ymin: b, xmax: c, ymax: d)), nil)
            }
            throw GeometryError("'\(text.prefix(60))' is neither x,y nor xmin,ymin,xmax,ymax nor Esri JSON")
        }
        let parsed = try parse(try JSON.parse(trimmed))
        if let type, type != parsed.geometry.type {
            throw GeometryError("geometryType is \(type.rawValue) but the geometry is a \(parsed.geometry.type.shortName)")
        }
        return parsed
    }

    private static func coordinates(_ json: JSON, what: String) throws -> [Point] {
        guard let items = json.array else { throw GeometryError("\(what) must be an array of [x, y] pairs") }
        return try items.map { item in
            guard let pair = item.array, pair.count >= 2, let x = pair[0].double, let y = pair[1].double, x.isFinite, y.isFinite else {
                throw GeometryError("\(what) holds a coordinate that is not [x, y]")
            }
            return Point(x: x, y: y)
        }
    }

    /// Esri JSON, without a spatial reference unless one is given.
    public func json(spatialReference: SpatialReference? = nil) -> JSON {
        func pairs(_ points: [Point]) -> JSON { .array(points.map { .array([.double($0.x), .double($0.y)]) }) }
        var members: [(String, JSON)]
        switch self {
        case .point(let p): members = [("x", .double(p.x)), ("y", .double(p.y))]
        case .multipoint(let points): members = [("points", pairs(points))]
        case .polyline(let parts): members = [("paths", .array(parts.map(pairs)))]
        case .polygon(let parts): members = [("rings", .array(parts.map(pairs)))]
        case .envelope(let e): members = [("xmin", .double(e.xmin)), ("ymin", .double(e.ymin)), ("xmax", .double(e.xmax)), ("ymax", .double(e.ymax))]
        }
        if let spatialReference { members.append(("spatialReference", spatialReference.json)) }
        return .object(members)
    }
}

extension Geometry: Codable {
    public init(from decoder: any Decoder) throws {
        self = try Geometry.parse(try JSON(from: decoder)).geometry
    }

    public func encode(to encoder: any Encoder) throws { try json().encode(to: encoder) }
}

/// Why a geometry could not be read.
public struct GeometryError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
