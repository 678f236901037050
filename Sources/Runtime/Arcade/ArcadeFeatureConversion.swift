import Arcade
import FeatureServiceModel
import WebMap

/// A table's features as Arcade sees them (`$feature`, the features of a FeatureSet), and Arcade's geometries as
/// the service reads them (`Intersects(featureSet, geometry)`).
struct ArcadeFeatureConversion {
    let info: TableInfo

    /// The layer's fields, types and coded domains.
    var schema: ArcadeLayerSchema { ArcadeLayerSchema(metadata: info.metadata) }

    /// The feature as Arcade reads it: attributes (the values of date fields as Dates), geometry, the schema.
    /// `fields` keeps only those attributes (case-insensitive; nil or `*`: all); `includeGeometry` false drops it.
    func feature(_ feature: TableFeature, fields: [String]? = nil, includeGeometry: Bool = true) -> ArcadeFeature {
        let schema = self.schema
        let kept = fields.flatMap { $0.contains("*") ? nil : Set($0.map { $0.lowercased() }) }
        let attributes = ArcadeDictionary()
        for (name, value) in feature.attributes.entries where kept?.contains(name.lowercased()) ?? true {
            let isDate = schema.field(named: name)?.type == "esriFieldTypeDate"
            switch value {
            case .null: attributes[name] = .null
            case .int(let i): attributes[name] = isDate ? .date(ArcadeDate(epochMilliseconds: Double(i))) : .number(Double(i))
            case .double(let d): attributes[name] = isDate ? .date(ArcadeDate(epochMilliseconds: d)) : .number(d)
            case .string(let s): attributes[name] = .text(s)
            }
        }
        let wkid = (feature.spatialReference ?? info.spatialReference).wkid
        let geometry = includeGeometry ? feature.geometry.map { Self.arcadeGeometry($0, wkid: wkid) } : nil
        return ArcadeFeature(attributes: attributes, geometry: geometry, schema: schema)
    }

    static func arcadeGeometry(_ geometry: Geometry, wkid: Int) -> ArcadeGeometry {
        func point(_ p: Point) -> ArcadePoint { ArcadePoint(x: p.x, y: p.y, wkid: wkid) }
        switch geometry {
        case .point(let p): return .point(point(p))
        case .multipoint(let points): return .multipoint(points: points.map(point), wkid: wkid)
        case .polyline(let paths): return .polyline(paths: paths.map { $0.map(point) }, wkid: wkid)
        case .polygon(let rings): return .polygon(rings: rings.map { $0.map(point) }, wkid: wkid)
        case .envelope(let e): return .extent(xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax, wkid: wkid)
        }
    }

    /// An Arcade geometry as a service geometry with its spatial reference (nil: the layer's).
    static func geometry(_ geometry: ArcadeGeometry) -> (Geometry, SpatialReference?) {
        func point(_ p: ArcadePoint) -> Point { Point(x: p.x, y: p.y) }
        let reference = geometry.wkid.map { SpatialReference(wkid: $0) }
        switch geometry {
        case .point(let p): return (.point(point(p)), reference)
        case .multipoint(let points, _): return (.multipoint(points.map(point)), reference)
        case .polyline(let paths, _): return (.polyline(paths.map { $0.map(point) }), reference)
        case .polygon(let rings, _): return (.polygon(rings.map { $0.map(point) }), reference)
        case .extent(let xmin, let ymin, let xmax, let ymax, _):
            return (.envelope(Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)), reference)
        }
    }
}
