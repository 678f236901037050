/// A geometry as Arcade sees it, in the spatial reference of its layer (wkid). Coordinates are x/y; z and m are
/// kept when present but planar functions ignore them.
public enum ArcadeGeometry {
    case point(ArcadePoint)
    case multipoint(points: [ArcadePoint], wkid: Int?)
    /// Paths, each a list of points.
    case polyline(paths: [[ArcadePoint]], wkid: Int?)
    /// Rings, each closed or not as written (functions treat a ring as closed).
    case polygon(rings: [[ArcadePoint]], wkid: Int?)
    case extent(xmin: Double, ymin: Double, xmax: Double, ymax: Double, wkid: Int?)

    public var typeName: String {
        switch self {
        case .point: return "Point"
        case .multipoint: return "Multipoint"
        case .polyline: return "Polyline"
        case .polygon: return "Polygon"
        case .extent: return "Extent"
        }
    }

    public var wkid: Int? {
        switch self {
        case .point(let p): return p.wkid
        case .multipoint(_, let wkid), .polyline(_, let wkid), .polygon(_, let wkid): return wkid
        case .extent(_, _, _, _, let wkid): return wkid
        }
    }
}

public struct ArcadePoint {
    public var x: Double
    public var y: Double
    public var z: Double?
    public var m: Double?
    public var wkid: Int?
    public init(x: Double, y: Double, z: Double? = nil, m: Double? = nil, wkid: Int? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.m = m
        self.wkid = wkid
    }
}
