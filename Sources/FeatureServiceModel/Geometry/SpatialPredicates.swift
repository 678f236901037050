import Foundation
import WebMap

/// The spatial relationship a query asks for, read as "feature REL query geometry".
public enum SpatialRelation: String, Sendable, Codable, CaseIterable {
    /// The feature and the query geometry share at least one point.
    case intersects = "esriSpatialRelIntersects"
    /// The feature wholly contains the query geometry.
    case contains = "esriSpatialRelContains"
    /// The feature lies wholly within the query geometry.
    case within = "esriSpatialRelWithin"
    /// The feature's envelope intersects the query geometry's envelope.
    case envelopeIntersects = "esriSpatialRelEnvelopeIntersects"

    /// Accepts the Esri names and the short forms (`intersects`, `contains`, `within`, `envelope-intersects`).
    public init?(parameter: String) {
        let key = parameter.lowercased().replacingOccurrences(of: "esrispatialrel", with: "").replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
        switch key {
        case "intersects": self = .intersects
        case "contains": self = .contains
        case "within": self = .within
        case "envelopeintersects", "envintersects", "indexintersects": self = .envelopeIntersects
        default: return nil
        }
    }
}

/// Exact predicates on planar coordinates (the core evaluates them in WGS84 degrees).
package enum Spatial {
    package static func holds(_ relation: SpatialRelation, feature: Geometry, query: Geometry) -> Bool {
        switch relation {
        case .envelopeIntersects:
            guard let a = feature.envelope, let b = query.envelope else { return false }
            return a.intersects(b)
        case .intersects: return intersects(feature, query)
        case .contains: return contains(feature, query)
        case .within: return contains(query, feature)
        }
    }

    // MARK: Decomposition

    package struct Segment { package var a: Point; package var b: Point }

    package static func areaRings(_ g: Geometry) -> [[Point]] {
        switch g {
        case .polygon(let rings): return rings.filter { $0.count >= 3 }
        case .envelope(let e):
            return [[Point(x: e.xmin, y: e.ymin), Point(x: e.xmin, y: e.ymax), Point(x: e.xmax, y: e.ymax), Point(x: e.xmax, y: e.ymin), Point(x: e.xmin, y: e.ymin)]]
        default: return []
        }
    }

    package static func segments(_ g: Geometry) -> [Segment] {
        func of(_ path: [Point], closed: Bool) -> [Segment] {
            guard path.count >= 2 else { return [] }
            var result = zip(path, path.dropFirst()).map { Segment(a: $0, b: $1) }
            if closed, let first = path.first, let last = path.last, first != last { result.append(Segment(a: last, b: first)) }
            return result
        }
        switch g {
        case .point, .multipoint: return []
        case .polyline(let paths): return paths.flatMap { of($0, closed: false) }
        case .polygon, .envelope: return areaRings(g).flatMap { of($0, closed: true) }
        }
    }

    // MARK: Primitives

    package static func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }

    package static func onSegment(_ p: Point, _ s: Segment) -> Bool {
        let eps = 1e-12 * max(1, abs(s.a.x) + abs(s.a.y))
        guard abs(cross(s.a, s.b, p)) <= eps * max(1, hypot(s.b.x - s.a.x, s.b.y - s.a.y)) else { return false }
        return p.x >= min(s.a.x, s.b.x) - eps && p.x <= max(s.a.x, s.b.x) + eps && p.y >= min(s.a.y, s.b.y) - eps && p.y <= max(s.a.y, s.b.y) + eps
    }

    package static func segmentsIntersect(_ s: Segment, _ t: Segment) -> Bool {
        let d1 = cross(t.a, t.b, s.a), d2 = cross(t.a, t.b, s.b), d3 = cross(s.a, s.b, t.a), d4 = cross(s.a, s.b, t.b)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return onSegment(s.a, t) || onSegment(s.b, t) || onSegment(t.a, s) || onSegment(t.b, s)
    }

    /// Interiors cross (not merely touching at an end or along the boundary).
    package static func segmentsCrossProperly(_ s: Segment, _ t: Segment) -> Bool {
        let d1 = cross(t.a, t.b, s.a), d2 = cross(t.a, t.b, s.b), d3 = cross(s.a, s.b, t.a), d4 = cross(s.a, s.b, t.b)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    /// Even-odd point in polygon, boundary excluded.
    package static func strictlyInside(_ p: Point, rings: [[Point]]) -> Bool {
        var inside = false
        for ring in rings {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    package static func onBoundary(_ p: Point, of g: Geometry) -> Bool { segments(g).contains { onSegment(p, $0) } }

    /// Inside the area of `g` or on its boundary (areas only).
    package static func coveredByArea(_ p: Point, _ g: Geometry) -> Bool {
        let rings = areaRings(g)
        guard !rings.isEmpty else { return false }
        return strictlyInside(p, rings: rings) || onBoundary(p, of: g)
    }

    /// `p` lies on `g` (any dimension): equal to a point, on a line, in an area.
    package static func pointTouches(_ p: Point, _ g: Geometry) -> Bool {
        switch g {
        case .point(let q): return p == q
        case .multipoint(let points): return points.contains(p)
        case .polyline: return segments(g).contains { onSegment(p, $0) }
        case .polygon, .envelope: return coveredByArea(p, g)
        }
    }

    package static func isArea(_ g: Geometry) -> Bool {
        if case .polygon = g { return true }
        if case .envelope = g { return true }
        return false
    }

    // MARK: Predicates

    package static func intersects(_ a: Geometry, _ b: Geometry) -> Bool {
        guard let ea = a.envelope, let eb = b.envelope, ea.intersects(eb) else { return false }
        let sa = segments(a), sb = segments(b)
        for s in sa { for t in sb where segmentsIntersect(s, t) { return true } }
        if sa.isEmpty, a.vertices.contains(where: { pointTouches($0, b) }) { return true }
        if sb.isEmpty, b.vertices.contains(where: { pointTouches($0, a) }) { return true }
        if isArea(b), let p = a.vertices.first, coveredByArea(p, b) { return true }
        if isArea(a), let p = b.vertices.first, coveredByArea(p, a) { return true }
        return false
    }

    /// `a` wholly contains `b`.
    package static func contains(_ a: Geometry, _ b: Geometry) -> Bool {
        guard let ea = a.envelope, let eb = b.envelope,
              eb.xmin >= ea.xmin, eb.xmax <= ea.xmax, eb.ymin >= ea.ymin, eb.ymax <= ea.ymax else { return false }
        switch a {
        case .point, .multipoint:
            return b.vertices.allSatisfy { pointTouches($0, a) }
        case .polyline:
            let lines = segments(a)
            return b.vertices.allSatisfy { p in lines.contains { onSegment(p, $0) } } && !isArea(b)
        case .polygon, .envelope:
            guard b.vertices.allSatisfy({ coveredByArea($0, a) }) else { return false }
            let boundary = segments(a)
            for s in segments(b) {
                if boundary.contains(where: { segmentsCrossProperly(s, $0) }) { return false }
                let mid = Point(x: (s.a.x + s.b.x) / 2, y: (s.a.y + s.b.y) / 2)
                if !coveredByArea(mid, a) { return false }
            }
            return true
        }
    }
}
