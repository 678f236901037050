import Foundation

/// `Area`, `Length` and `Centroid`: planar (Cartesian) measurements in the geometry's own coordinates, as the
/// reference says ("a planar measurement using Cartesian mathematics").
///
/// Units. Without a unit, the answer is in the spatial reference's own unit (square units for areas). With a
/// unit (the reference's units table: `meters`, `feet`, `kilometers`, `miles`, `nautical-miles`, `yards`, and for
/// areas also `acres`, `hectares`, each with its `square-` and other spellings, or the linear unit codes 9001 meters,
/// 9002 feet, 9003 US survey feet, 9030 nautical miles, 9035 US survey miles, 9036 kilometers, 9093 miles,
/// 9096 yards) the coordinates are taken as meters, except in the foot-based spatial references MapRules knows
/// (US State Plane in US survey feet: wkid 2222–2289, 2867–2930, 102629–102760). Geographic coordinates (wkid
/// 4000–4999 and 104000–104999, e.g. 4326) are degrees: a planar measurement in meters or acres means nothing
/// there, so asking for a unit is a run error that points to AreaGeodetic/LengthGeodetic (not supported here).
enum PlanarMeasurement {
    static func area(_ geometry: ArcadeGeometry) -> Double {
        switch geometry {
        case .polygon(let rings, _):
            // Esri writes outer rings clockwise (positive here) and holes counterclockwise (negative).
            return abs(rings.reduce(0) { $0 - signedArea($1) })
        case .extent(let xmin, let ymin, let xmax, let ymax, _): return abs((xmax - xmin) * (ymax - ymin))
        default: return 0
        }
    }

    /// Counterclockwise positive (the shoelace formula).
    static func signedArea(_ ring: [ArcadePoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        for index in ring.indices {
            let a = ring[index], b = ring[(index + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    static func length(_ geometry: ArcadeGeometry) -> Double {
        let shape = PlanarShape(geometry)
        return shape.segments.reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    /// The area-weighted centre of a polygon (holes subtracted); of a line, its length-weighted centre; of points,
    /// their mean; a degenerate polygon (no area) falls back to the mean of its vertices.
    static func centroid(_ geometry: ArcadeGeometry) -> ArcadePoint? {
        let wkid = geometry.wkid
        switch geometry {
        case .point(let p): return p
        case .extent(let xmin, let ymin, let xmax, let ymax, _): return ArcadePoint(x: (xmin + xmax) / 2, y: (ymin + ymax) / 2, wkid: wkid)
        case .polygon(let rings, _):
            var area = 0.0, cx = 0.0, cy = 0.0
            for ring in rings where ring.count >= 3 {
                for index in ring.indices {
                    let a = ring[index], b = ring[(index + 1) % ring.count]
                    let f = a.x * b.y - b.x * a.y
                    area += f / 2
                    cx += (a.x + b.x) * f
                    cy += (a.y + b.y) * f
                }
            }
            if area != 0 { return ArcadePoint(x: cx / (6 * area), y: cy / (6 * area), wkid: wkid) }
            return mean(rings.flatMap { $0 }, wkid: wkid)
        case .polyline:
            let segments = PlanarShape(geometry).segments
            let total = segments.reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
            guard total > 0 else { return mean(PlanarShape(geometry).vertices, wkid: wkid) }
            var x = 0.0, y = 0.0
            for (a, b) in segments {
                let l = hypot(b.x - a.x, b.y - a.y)
                x += (a.x + b.x) / 2 * l
                y += (a.y + b.y) / 2 * l
            }
            return ArcadePoint(x: x / total, y: y / total, wkid: wkid)
        case .multipoint(let points, _): return mean(points, wkid: wkid)
        }
    }

    static func mean(_ points: [ArcadePoint], wkid: Int?) -> ArcadePoint? {
        guard !points.isEmpty else { return nil }
        let n = Double(points.count)
        return ArcadePoint(x: points.reduce(0) { $0 + $1.x } / n, y: points.reduce(0) { $0 + $1.y } / n, wkid: wkid)
    }

    /// The envelope of a geometry; nil for one without coordinates.
    static func envelope(_ geometry: ArcadeGeometry) -> ArcadeGeometry? {
        if case .extent = geometry { return geometry }
        let points = PlanarShape(geometry).vertices
        guard let first = points.first else { return nil }
        var (xmin, ymin, xmax, ymax) = (first.x, first.y, first.x, first.y)
        for p in points { xmin = min(xmin, p.x); ymin = min(ymin, p.y); xmax = max(xmax, p.x); ymax = max(ymax, p.y) }
        return .extent(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, wkid: geometry.wkid)
    }
}

/// The units of `Area` and `Length`.
enum MeasurementUnits {
    /// Meters per unit for a linear unit, or square meters per unit for an areal-only one (`areal` true).
    static func resolve(_ value: ArcadeValue, call: ArcadeCall) throws -> (factor: Double, areal: Bool) {
        if case .number(let code) = value {
            let codes: [Double: Double] = [9001: 1, 9002: 0.3048, 9003: 1200.0 / 3937.0, 9030: 1852, 9035: 1609.347218694,
                                           9036: 1000, 9093: 1609.344, 9096: 0.9144]
            guard let factor = codes[code] else { throw call.failure("unit code \(ArcadeValue.formatNumber(code)) is not one MapRules knows") }
            return (factor, false)
        }
        let name = value.textValue.lowercased().replacingOccurrences(of: "square-", with: "").replacingOccurrences(of: "square", with: "")
        switch name {
        case "acres", "acre", "ac": return (4046.8564224, true)
        case "hectares", "hectare", "ha": return (10_000, true)
        case "feet", "foot", "ft": return (0.3048, false)
        case "kilometers", "kilometer", "km": return (1000, false)
        case "miles", "mile", "mi": return (1609.344, false)
        case "nautical-miles", "nautical-mile", "nauticalmiles", "nauticalmile": return (1852, false)
        case "meters", "meter", "m": return (1, false)
        case "yards", "yard", "yd": return (0.9144, false)
        default: throw call.failure("'\(value.textValue)' is not a unit of the reference's units table (meters, feet, acres, ...)")
        }
    }

    /// Meters per coordinate unit of a spatial reference; nil for geographic ones (degrees).
    static func metersPerCoordinate(wkid: Int?) -> Double? {
        guard let wkid else { return 1 }
        if (4000...4999).contains(wkid) || (104000...104999).contains(wkid) { return nil }
        if (2222...2289).contains(wkid) || (2867...2930).contains(wkid) || (102629...102760).contains(wkid) { return 1200.0 / 3937.0 }
        return 1
    }

    /// `measure` (in coordinate units, squared when `dimension` is 2) in the unit asked for.
    static func convert(_ measure: Double, dimension: Int, wkid: Int?, unit: ArcadeValue, call: ArcadeCall) throws -> Double {
        if unit.isNull { return measure }
        let (factor, areal) = try resolve(unit, call: call)
        guard let coordinate = metersPerCoordinate(wkid: wkid) else {
            throw call.failure("the geometry is in geographic coordinates (wkid \(wkid ?? 0), degrees): a planar "
                + "measure cannot be given in \(unit.textValue); AreaGeodetic and LengthGeodetic are not supported here")
        }
        if dimension == 1 {
            guard !areal else { throw call.failure("\(unit.textValue) measures areas, not lengths") }
            return measure * coordinate / factor
        }
        return measure * coordinate * coordinate / (areal ? factor : factor * factor)
    }
}
