import Foundation
import Testing
import Arcade

/// The geometry functions of https://developers.arcgis.com/arcade/function-reference/geometry_functions/ that need
/// no geometry engine. Most of the page's examples read `$feature` or elided JSON (`Polygon({ ... })`); those
/// with their inputs given (Extent, Geometry) are here as written, the relations with small planar cases.
@Suite struct GeometryFunctionTests {
    static func polygon(_ rings: [[(Double, Double)]], wkid: Double = 3857) -> ArcadeValue {
        let json = DV.d(("rings", .array(ArcadeArray(rings.map { ring in
            .array(ArcadeArray(ring.map { DV.numbers($0.0, $0.1) }))
        }))), ("spatialReference", DV.d(("wkid", DV.n(wkid)))))
        return (try? callData("Polygon", json)) ?? .null
    }
    static func point(_ x: Double, _ y: Double) -> ArcadeValue {
        (try? callData("Point", DV.d(("x", DV.n(x)), ("y", DV.n(y)), ("spatialReference", DV.d(("wkid", DV.n(3857))))))) ?? .null
    }
    /// A 10 × 10 square with a 2 × 2 hole in its middle (outer ring clockwise, hole counterclockwise, as Esri writes).
    static let squareWithHole = polygon([[(0, 0), (0, 10), (10, 10), (10, 0), (0, 0)], [(4, 4), (6, 4), (6, 6), (4, 6), (4, 4)]])

    @Test func extentAndGeometryExamples() throws {
        let extentJSON = DV.d(("xmin", DV.n(-109.55)), ("ymin", DV.n(25.76)), ("xmax", DV.n(-86.39)), ("ymax", DV.n(49.94)),
                              ("spatialReference", DV.d(("wkid", DV.n(3857)))))
        let extent = try callData("Extent", extentJSON)
        #expect(extent.typeName == "Extent")
        #expect(extent.dataJSON == #"{"xmin":-109.55,"ymin":25.76,"xmax":-86.39,"ymax":49.94,"spatialReference":{"wkid":3857}}"#)
        let pointJSON = DV.d(("x", DV.n(-118.15)), ("y", DV.n(33.80)), ("spatialReference", DV.d(("wkid", DV.n(4326)))))
        let point = try callData("Geometry", pointJSON)
        #expect(point.typeName == "Point")
        #expect(point.dataJSON == #"{"x":-118.15,"y":33.8,"spatialReference":{"wkid":4326}}"#)
        #expect(try callData("Extent", Self.squareWithHole).dataJSON
            == #"{"xmin":0,"ymin":0,"xmax":10,"ymax":10,"spatialReference":{"wkid":3857}}"#)
    }

    @Test func geometryOfAFeature() throws {
        let feature = ArcadeValue.feature(ArcadeFeature(attributes: ArcadeDictionary(), geometry: .point(ArcadePoint(x: 1, y: 2))))
        #expect(try callData("Geometry", feature).dataJSON == #"{"x":1,"y":2}"#)
        #expect(try callData("Geometry", .feature(ArcadeFeature(attributes: ArcadeDictionary()))).isNull)
        #expect(throws: ArcadeFunctionError.self) { try callData("Point", DV.d(("paths", DV.a()))) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Polygon", DV.t("{not json")) }
    }

    @Test func pointInPolygonWithHole() throws {
        #expect(try callData("Contains", Self.squareWithHole, Self.point(2, 2)).dataJSON == "true")
        #expect(try callData("Contains", Self.squareWithHole, Self.point(5, 5)).dataJSON == "false") // in the hole
        #expect(try callData("Intersects", Self.squareWithHole, Self.point(5, 5)).dataJSON == "false")
        #expect(try callData("Contains", Self.squareWithHole, Self.point(0, 5)).dataJSON == "false") // on the boundary
        #expect(try callData("Intersects", Self.squareWithHole, Self.point(0, 5)).dataJSON == "true")
        #expect(try callData("Within", Self.point(2, 2), Self.squareWithHole).dataJSON == "true")
        #expect(try callData("Disjoint", Self.point(20, 2), Self.squareWithHole).dataJSON == "true")
    }

    @Test func linesAndPolygons() throws {
        let crossing = try callData("Polyline", DV.d(("paths", DV.a(DV.a(DV.numbers(-5, 1), DV.numbers(15, 1))))))
        let inside = try callData("Polyline", DV.d(("paths", DV.a(DV.a(DV.numbers(1, 1), DV.numbers(3, 3))))))
        let acrossHole = try callData("Polyline", DV.d(("paths", DV.a(DV.a(DV.numbers(3, 5), DV.numbers(7, 5))))))
        #expect(try callData("Intersects", crossing, Self.squareWithHole).dataJSON == "true")
        #expect(try callData("Contains", Self.squareWithHole, crossing).dataJSON == "false")
        #expect(try callData("Contains", Self.squareWithHole, inside).dataJSON == "true")
        #expect(try callData("Contains", Self.squareWithHole, acrossHole).dataJSON == "false")
        let small = Self.polygon([[(1, 1), (1, 2), (2, 2), (2, 1), (1, 1)]])
        let overlapping = Self.polygon([[(8, 8), (8, 12), (12, 12), (12, 8), (8, 8)]])
        #expect(try callData("Contains", Self.squareWithHole, small).dataJSON == "true")
        #expect(try callData("Within", small, Self.squareWithHole).dataJSON == "true")
        #expect(try callData("Intersects", overlapping, Self.squareWithHole).dataJSON == "true")
        #expect(try callData("Contains", Self.squareWithHole, overlapping).dataJSON == "false")
        let envelope = try callData("Extent", DV.d(("xmin", DV.n(9)), ("ymin", DV.n(9)), ("xmax", DV.n(20)), ("ymax", DV.n(20))))
        #expect(try callData("Intersects", envelope, Self.squareWithHole).dataJSON == "true")
        #expect(try callData("Intersects", Self.point(1, 1), .null).dataJSON == "false")
    }

    @Test func areaLengthCentroid() throws {
        #expect(try callData("Area", Self.squareWithHole).dataNumber == 96)
        #expect(try callData("Area", Self.squareWithHole, DV.t("square-meters")).dataNumber == 96)
        #expect(try callData("Area", Self.squareWithHole, DV.t("hectares")).dataNumber == 0.0096)
        #expect(dataRounded(try callData("Area", Self.squareWithHole, DV.t("square-feet")), 3) == 1033.335)
        #expect(try callData("Length", Self.squareWithHole).dataNumber == 48) // both rings
        #expect(try callData("Length", Self.squareWithHole, DV.t("kilometers")).dataNumber == 0.048)
        let line = try callData("Polyline", DV.d(("paths", DV.a(DV.a(DV.numbers(0, 0), DV.numbers(3, 4))))))
        #expect(try callData("Length", line).dataNumber == 5)
        #expect(try callData("Centroid", Self.squareWithHole).dataJSON == #"{"x":5,"y":5,"spatialReference":{"wkid":3857}}"#)
        let ringPoints = DV.a(DV.numbers(0, 0), DV.numbers(0, 2), DV.numbers(2, 2), DV.numbers(2, 0))
        #expect(try callData("Centroid", ringPoints).dataJSON == #"{"x":1,"y":1}"#)
        #expect(try callData("Area", ringPoints).dataNumber == 4)
        #expect(try callData("Area", Self.point(1, 1)).dataNumber == 0)
    }

    @Test func distanceAndEnvelopes() throws {
        #expect(try callData("Distance", Self.point(13, 14), Self.squareWithHole).dataNumber == 5) // to the corner (10, 10)
        #expect(try callData("Distance", Self.point(5, 5), Self.squareWithHole).dataNumber == 1) // from the hole's edge
        #expect(try callData("Distance", Self.point(2, 2), Self.squareWithHole).dataNumber == 0)
        #expect(try callData("Distance", Self.point(0, 0), Self.point(3, 4), DV.t("kilometers")).dataNumber == 0.005)
        let line = try callData("Polyline", DV.d(("paths", DV.a(DV.a(DV.numbers(20, 0), DV.numbers(20, 10))))))
        #expect(try callData("Distance", line, Self.squareWithHole).dataNumber == 10)
        #expect(try callData("EnvelopeIntersects", Self.point(5, 5), Self.squareWithHole).dataJSON == "true")
        #expect(try callData("EnvelopeIntersects", line, Self.squareWithHole).dataJSON == "false")
        let multipoint = try callData("Multipoint", DV.d(("points", DV.a(DV.numbers(50, 50), DV.numbers(1, 1)))))
        #expect(try callData("Intersects", multipoint, Self.squareWithHole).dataJSON == "true")
        #expect(try callData("Contains", Self.squareWithHole, multipoint).dataJSON == "false")
    }

    @Test func geographicCoordinatesAndUnits() throws {
        let degrees = Self.polygon([[(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)]], wkid: 4326)
        #expect(try callData("Area", degrees).dataNumber == 1) // square degrees, without a unit
        #expect(throws: ArcadeFunctionError.self) { try callData("Area", degrees, DV.t("square-meters")) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Length", Self.squareWithHole, DV.t("acres")) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Area", Self.squareWithHole, DV.t("furlongs")) }
        let feet = Self.polygon([[(0, 0), (0, 100), (100, 100), (100, 0), (0, 0)]], wkid: 2230) // State Plane, US feet
        #expect(dataRounded(try callData("Area", feet, DV.t("square-meters")), 3) == 929.034) // 10,000 square US survey feet
    }

    @Test func hostileCoordinates() throws {
        let nanPolygon = Self.polygon([[(.nan, 0), (0, .infinity), (1, 1)]])
        _ = try callData("Area", nanPolygon)
        _ = try callData("Contains", nanPolygon, Self.point(.nan, .nan))
        _ = try callData("Centroid", nanPolygon)
        #expect(try callData("Centroid", Self.polygon([])).isNull)
    }
}
