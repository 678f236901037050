import Foundation

/// The planar tests behind `Intersects`, `Contains`, `Within`, `Disjoint` and `Distance`: points, segments and rings in x/y
/// (z and m ignored), no geometry engine. A polygon's rings are read with the even-odd rule, so holes are holes
/// whatever their orientation; an extent is its four-sided ring. A point on a polygon's boundary intersects it but
/// is not contained in it (the interior of the one must meet the interior of the other, as Esri's `Contains` says).
struct PlanarShape {
    /// 0 for points, 1 for lines, 2 for areas.
    let dimension: Int
    let vertices: [ArcadePoint]
    /// Line segments (polylines' paths, polygons' ring edges, closing edges included).
    let segments: [(ArcadePoint, ArcadePoint)]
    let rings: [[ArcadePoint]]
    /// The ends of open paths: the boundary of a polyline.
    let pathEnds: [ArcadePoint]

    init(_ geometry: ArcadeGeometry) {
        switch geometry {
        case .point(let p): self.init(dimension: 0, vertices: [p])
        case .multipoint(let points, _): self.init(dimension: 0, vertices: points)
        case .polyline(let paths, _):
            let pieces = paths.filter { !$0.isEmpty }
            self.init(dimension: 1, vertices: pieces.flatMap { $0 }, segments: pieces.flatMap(PlanarShape.pathSegments),
                      pathEnds: pieces.flatMap { [$0.first!, $0.last!] })
        case .polygon(let rings, _):
            let closed = rings.filter { $0.count >= 3 }
            self.init(dimension: 2, vertices: closed.flatMap { $0 }, segments: closed.flatMap(PlanarShape.ringSegments), rings: closed)
        case .extent(let xmin, let ymin, let xmax, let ymax, _):
            let ring = [ArcadePoint(x: xmin, y: ymin), ArcadePoint(x: xmin, y: ymax), ArcadePoint(x: xmax, y: ymax), ArcadePoint(x: xmax, y: ymin)]
            self.init(dimension: 2, vertices: ring, segments: PlanarShape.ringSegments(ring), rings: [ring])
        }
    }

    init(dimension: Int, vertices: [ArcadePoint], segments: [(ArcadePoint, ArcadePoint)] = [], rings: [[ArcadePoint]] = [],
         pathEnds: [ArcadePoint] = []) {
        self.dimension = dimension
        self.vertices = vertices
        self.segments = segments
        self.rings = rings
        self.pathEnds = pathEnds
    }

    static func pathSegments(_ path: [ArcadePoint]) -> [(ArcadePoint, ArcadePoint)] {
        path.count < 2 ? [] : (1..<path.count).map { (path[$0 - 1], path[$0]) }
    }

    static func ringSegments(_ ring: [ArcadePoint]) -> [(ArcadePoint, ArcadePoint)] {
        var segments = pathSegments(ring)
        if let first = ring.first, let last = ring.last, first.x != last.x || first.y != last.y { segments.append((last, first)) }
        return segments
    }

    /// The bounding box of the vertices; nil without any.
    var envelope: (xmin: Double, ymin: Double, xmax: Double, ymax: Double)? {
        guard let first = vertices.first else { return nil }
        return vertices.reduce((first.x, first.y, first.x, first.y)) { box, p in
            (min(box.0, p.x), min(box.1, p.y), max(box.2, p.x), max(box.3, p.y))
        }
    }

    /// How much work a test between two shapes takes, for the step bound.
    var size: Int { vertices.count + segments.count }

    enum Location { case inside, boundary, outside }

    /// Where a point lies relative to this shape.
    func locate(_ p: ArcadePoint) -> Location {
        switch dimension {
        case 0: return vertices.contains { $0.x == p.x && $0.y == p.y } ? .inside : .outside
        case 1:
            guard segments.contains(where: { Planar.onSegment(p, $0.0, $0.1) }) || vertices.contains(where: { $0.x == p.x && $0.y == p.y }) else {
                return .outside
            }
            return pathEnds.contains { $0.x == p.x && $0.y == p.y } ? .boundary : .inside
        default:
            if segments.contains(where: { Planar.onSegment(p, $0.0, $0.1) }) { return .boundary }
            var inside = false
            for (a, b) in segments where (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if p.x < x { inside.toggle() }
            }
            return inside ? .inside : .outside
        }
    }

    func intersects(_ other: PlanarShape) -> Bool {
        if vertices.contains(where: { other.locate($0) != .outside }) { return true }
        if other.vertices.contains(where: { locate($0) != .outside }) { return true }
        for (a, b) in segments {
            for (c, d) in other.segments where Planar.segmentsIntersect(a, b, c, d) { return true }
        }
        return false
    }

    /// The shortest planar distance between the shapes: 0 when they intersect.
    func distance(to other: PlanarShape) -> Double {
        if intersects(other) { return 0 }
        var best = Double.infinity
        for p in vertices {
            for q in other.vertices { best = min(best, hypot(p.x - q.x, p.y - q.y)) }
            for (a, b) in other.segments { best = min(best, Planar.distance(p, a, b)) }
        }
        for q in other.vertices {
            for (a, b) in segments { best = min(best, Planar.distance(q, a, b)) }
        }
        return best
    }

    /// Every point of `other` is in this shape, and their interiors meet.
    func contains(_ other: PlanarShape) -> Bool {
        guard !other.vertices.isEmpty, other.dimension <= dimension else { return false }
        var probes = other.vertices
        probes += other.segments.map { Planar.midpoint($0.0, $0.1) }
        let locations = probes.map(locate)
        if locations.contains(.outside) { return false }
        if dimension == 2 {
            for (a, b) in other.segments {
                for (c, d) in segments where Planar.properlyCross(a, b, c, d) { return false }
            }
        }
        if other.dimension == 2 { return true } // an area within an area (boundaries may touch)
        return locations.contains(.inside)
    }
}

/// Segment arithmetic.
enum Planar {
    static func cross(_ o: ArcadePoint, _ a: ArcadePoint, _ b: ArcadePoint) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    static func midpoint(_ a: ArcadePoint, _ b: ArcadePoint) -> ArcadePoint { ArcadePoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }

    static func onSegment(_ p: ArcadePoint, _ a: ArcadePoint, _ b: ArcadePoint) -> Bool {
        guard cross(a, b, p) == 0 else { return false }
        return p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y) && p.y <= max(a.y, b.y)
    }

    /// The segments share at least one point (touching and overlapping included).
    static func segmentsIntersect(_ a: ArcadePoint, _ b: ArcadePoint, _ c: ArcadePoint, _ d: ArcadePoint) -> Bool {
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return onSegment(a, c, d) || onSegment(b, c, d) || onSegment(c, a, b) || onSegment(d, a, b)
    }

    /// From a point to the nearest point of a segment.
    static func distance(_ p: ArcadePoint, _ a: ArcadePoint, _ b: ArcadePoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return hypot(p.x - a.x, p.y - a.y) }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        return hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy))
    }

    /// The segments cross at a point inside both (not at an end of either).
    static func properlyCross(_ a: ArcadePoint, _ b: ArcadePoint, _ c: ArcadePoint, _ d: ArcadePoint) -> Bool {
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }
}
