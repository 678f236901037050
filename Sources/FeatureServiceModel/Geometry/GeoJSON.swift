import Foundation
import WebMap

/// Conversions between Esri JSON geometries and GeoJSON (RFC 7946, always WGS84).
public enum GeoJSON {
    /// A GeoJSON geometry as Esri JSON; nil for an unsupported or malformed one.
    public static func esriGeometry(_ json: JSON) -> Geometry? {
        func point(_ j: JSON) -> Point? {
            guard let a = j.array, a.count >= 2, let x = a[0].double, let y = a[1].double else { return nil }
            return Point(x: x, y: y)
        }
        func line(_ j: JSON) -> [Point]? {
            guard let a = j.array else { return nil }
            let points = a.compactMap(point)
            return points.count == a.count ? points : nil
        }
        func lines(_ j: JSON) -> [[Point]]? {
            guard let a = j.array else { return nil }
            let parts = a.compactMap(line)
            return parts.count == a.count ? parts : nil
        }
        guard let type = json["type"]?.string, let coordinates = json["coordinates"] else { return nil }
        switch type {
        case "Point": return point(coordinates).map(Geometry.point)
        case "MultiPoint": return line(coordinates).map(Geometry.multipoint)
        case "LineString": return line(coordinates).map { .polyline([$0]) }
        case "MultiLineString": return lines(coordinates).map(Geometry.polyline)
        case "Polygon":
            // GeoJSON outer rings are counter-clockwise, Esri's clockwise: reverse every ring.
            return lines(coordinates).map { .polygon($0.map { $0.reversed() }) }
        case "MultiPolygon":
            guard let polygons = coordinates.array else { return nil }
            let parts = polygons.compactMap(lines)
            guard parts.count == polygons.count else { return nil }
            return .polygon(parts.flatMap { $0.map { $0.reversed() } })
        default: return nil
        }
    }

    /// An Esri geometry (already in WGS84) as a GeoJSON geometry object.
    public static func geometry(_ geometry: Geometry) -> JSON {
        func pos(_ p: Point) -> JSON { .array([.double(p.x), .double(p.y)]) }
        func ring(_ r: [Point]) -> JSON { .array(r.map(pos)) }
        switch geometry {
        case .point(let p): return .object([("type", .string("Point")), ("coordinates", pos(p))])
        case .multipoint(let points): return .object([("type", .string("MultiPoint")), ("coordinates", ring(points))])
        case .polyline(let paths):
            if paths.count == 1 { return .object([("type", .string("LineString")), ("coordinates", ring(paths[0]))]) }
            return .object([("type", .string("MultiLineString")), ("coordinates", .array(paths.map(ring)))])
        case .polygon(let rings):
            return .object([("type", .string("Polygon")), ("coordinates", .array(rings.map { ring($0.reversed()) }))])
        case .envelope(let e):
            let r = [Point(x: e.xmin, y: e.ymin), Point(x: e.xmax, y: e.ymin), Point(x: e.xmax, y: e.ymax), Point(x: e.xmin, y: e.ymax), Point(x: e.xmin, y: e.ymin)]
            return .object([("type", .string("Polygon")), ("coordinates", .array([ring(r)]))])
        }
    }
}
