import Arcade
import Foundation
import WebMap

/// Reads the `--feature` and `--original` arguments of `maprules arcade`: ArcGIS REST feature JSON
/// (`{"attributes": {...}, "geometry": {...}}`) made into an `ArcadeFeature`. With a layer schema, attributes of
/// date fields (epoch milliseconds, as the REST API writes them) become Dates.
enum ArcadeFeatureJSON {
    /// `text` is the JSON itself, or `@FILE` to read it from a file.
    static func feature(from argument: String, option: String, schema: ArcadeLayerSchema?) throws -> ArcadeFeature {
        let text: String
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            guard let data = FileManager.default.contents(atPath: path), let read = String(data: data, encoding: .utf8) else {
                throw CommandFailure("\(option): cannot read '\(path)' (no such file, or not UTF-8)")
            }
            text = read
        } else {
            text = argument
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(text).root
        } catch {
            throw CommandFailure("\(option): not JSON: \(error)")
        }
        guard let object = root.object else {
            throw CommandFailure("\(option): expected a feature, {\"attributes\": {...}, \"geometry\": {...}}; got a JSON \(root.value.typeName)")
        }
        let attributes = ArcadeDictionary()
        if let node = object["attributes"] {
            guard let members = node.object?.uniqueMembers else {
                throw CommandFailure("\(option): \"attributes\" must be an object of field names and values")
            }
            for member in members {
                let field = schema?.field(named: member.key)
                attributes[member.key] = ArcadeValue(json: member.value, fieldType: field?.type)
            }
        }
        var geometry: ArcadeGeometry?
        if let node = object["geometry"], !node.isNull {
            geometry = try self.geometry(node, option: option)
        }
        return ArcadeFeature(attributes: attributes, geometry: geometry, schema: schema)
    }

    /// Esri JSON geometry: a point (`x`, `y`), multipoint (`points`), polyline (`paths`), polygon (`rings`) or
    /// envelope (`xmin`...).
    static func geometry(_ node: JSONNode, option: String) throws -> ArcadeGeometry {
        guard let object = node.object else { throw CommandFailure("\(option): \"geometry\" must be an object") }
        let wkid = object["spatialReference"]?.object?["wkid"]?.integer
        func point(_ node: JSONNode) throws -> ArcadePoint {
            guard let pair = node.array, pair.count >= 2, let x = pair[0].number, let y = pair[1].number else {
                throw CommandFailure("\(option): a geometry's coordinates must be [x, y] number pairs")
            }
            return ArcadePoint(x: x, y: y, z: pair.count > 2 ? pair[2].number : nil, wkid: wkid)
        }
        func paths(_ key: String) throws -> [[ArcadePoint]]? {
            guard let node = object[key] else { return nil }
            guard let parts = node.array else { throw CommandFailure("\(option): \"\(key)\" must be an array of coordinate arrays") }
            return try parts.map { part in
                guard let points = part.array else { throw CommandFailure("\(option): \"\(key)\" must be an array of coordinate arrays") }
                return try points.map(point)
            }
        }
        if let x = object["x"]?.number, let y = object["y"]?.number {
            return .point(ArcadePoint(x: x, y: y, z: object["z"]?.number, m: object["m"]?.number, wkid: wkid))
        }
        if let node = object["points"] {
            guard let points = node.array else { throw CommandFailure("\(option): \"points\" must be an array of [x, y]") }
            return .multipoint(points: try points.map(point), wkid: wkid)
        }
        if let parts = try paths("paths") { return .polyline(paths: parts, wkid: wkid) }
        if let parts = try paths("rings") { return .polygon(rings: parts, wkid: wkid) }
        if let xmin = object["xmin"]?.number, let ymin = object["ymin"]?.number, let xmax = object["xmax"]?.number,
           let ymax = object["ymax"]?.number {
            return .extent(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, wkid: wkid)
        }
        throw CommandFailure("\(option): \"geometry\" is none of a point (x, y), multipoint (points), polyline (paths), polygon (rings) or envelope (xmin, ymin, xmax, ymax)")
    }
}
