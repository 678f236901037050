import Foundation
import WebMap

/// Projection between WGS84 (4326, the storage reference) and Web Mercator (3857 / 102100).
public enum Projection {
    public enum System: Sendable { case wgs84, webMercator }

    static let radius = 6378137.0
    static let maxLatitude = 85.0511287798066

    public static func toWebMercator(_ p: Point) -> Point {
        let lat = max(-maxLatitude, min(maxLatitude, p.y))
        let x = p.x * .pi / 180 * radius
        let y = log(tan(.pi / 4 + lat * .pi / 360)) * radius
        return Point(x: x, y: y)
    }

    public static func toWGS84(_ p: Point) -> Point {
        let lon = p.x / radius * 180 / .pi
        let lat = (2 * atan(exp(p.y / radius)) - .pi / 2) * 180 / .pi
        return Point(x: lon, y: lat)
    }

    /// `geometry` moved from `from` to `to` (identity when they are the same system).
    public static func project(_ geometry: Geometry, from: System, to: System) -> Geometry {
        switch (from, to) {
        case (.wgs84, .webMercator): return geometry.mapPoints(toWebMercator)
        case (.webMercator, .wgs84): return geometry.mapPoints(toWGS84)
        default: return geometry
        }
    }

    /// Resolves a requested spatial reference, refusing those the core cannot project.
    package static func system(of reference: SpatialReference?, default fallback: System) throws -> System {
        guard let reference else { return fallback }
        guard let system = reference.normalized else {
            throw ServiceError.invalidParameter("Spatial reference \(reference.wkid) is not supported: use 4326 (WGS84) or 3857 / 102100 (Web Mercator).")
        }
        return system
    }
}
