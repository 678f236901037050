import Foundation
import Service
import FeatureServiceModel
import WebMap

/// The small drawing of a layer's features on its page: points as circles, lines and polygons as paths,
/// fitted into a fixed box (north up). Only numbers reach the SVG; the template writes them, escaped.
///
/// Drawn here rather than with a library: no map or SVG library is a dependency, and scaling one
/// envelope into a box is a few lines.
struct FeatureDrawing {
    struct Circle {
        var x: String
        var y: String
    }

    struct Path {
        /// `ln` (line) or `ar` (area), the stylesheet's classes.
        var style: String
        var d: String
    }

    static let width = 720.0
    static let height = 400.0
    static let margin = 16.0

    var viewBox = "0 0 \(Int(FeatureDrawing.width)) \(Int(FeatureDrawing.height))"
    var circles: [Circle] = []
    var paths: [Path] = []
    var caption: String

    /// Nil when no feature has a geometry (a table, an empty layer).
    init?(features: [Feature], caption: String) {
        self.caption = caption
        let geometries = features.compactMap(\.geometry)
        guard let extent = geometries.compactMap(\.envelope).reduce(nil, { (sum: Envelope?, next) in sum?.union(next) ?? next }) else { return nil }
        let spanX = extent.xmax - extent.xmin, spanY = extent.ymax - extent.ymin
        let room = (x: Self.width - 2 * Self.margin, y: Self.height - 2 * Self.margin)
        let scale = spanX == 0 && spanY == 0 ? 1 : min(spanX > 0 ? room.x / spanX : .infinity, spanY > 0 ? room.y / spanY : .infinity)
        // Centre the drawing in the box.
        let offsetX = Self.margin + (room.x - spanX * scale) / 2
        let offsetY = Self.margin + (room.y - spanY * scale) / 2
        func place(_ p: Point) -> (String, String) {
            (Self.number(offsetX + (p.x - extent.xmin) * scale), Self.number(offsetY + (extent.ymax - p.y) * scale))
        }
        func pathData(_ parts: [[Point]], closed: Bool) -> String {
            parts.filter { !$0.isEmpty }.map { part in
                let points = part.map(place).map { "\($0.0) \($0.1)" }
                return "M" + points.joined(separator: " L") + (closed ? " Z" : "")
            }.joined(separator: " ")
        }
        for geometry in geometries {
            switch geometry {
            case .point(let p): circles.append(Circle(place(p)))
            case .multipoint(let points): circles += points.map { Circle(place($0)) }
            case .polyline(let parts): paths.append(Path(style: "ln", d: pathData(parts, closed: false)))
            case .polygon(let parts): paths.append(Path(style: "ar", d: pathData(parts, closed: true)))
            case .envelope(let e):
                let ring = [Point(x: e.xmin, y: e.ymin), Point(x: e.xmin, y: e.ymax), Point(x: e.xmax, y: e.ymax), Point(x: e.xmax, y: e.ymin)]
                paths.append(Path(style: "ar", d: pathData([ring], closed: true)))
            }
        }
    }

    /// One decimal is finer than a pixel of the box.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension FeatureDrawing.Circle {
    init(_ placed: (String, String)) { self.init(x: placed.0, y: placed.1) }
}
