import Foundation
import FeatureServiceModel
import WebMap

/// GeoJSON text of feature sets (`f=geojson`), byte for byte what writing `FeatureSet.geoJSON()` gives (tested to be
/// identical), written piece by piece while a page's rows are read, as `FeatureSetText` writes Esri JSON: a feature
/// whose stored attribute text `StoredAttributesWriter` may copy is written from that text (its `properties`, and
/// its `id` from the object id's value in it), any other from the decoded feature.
enum GeoJSONText {
    /// Everything before the first feature.
    static func appendHead(to bytes: inout [UInt8]) {
        JSON.appendASCII("{\"type\":\"FeatureCollection\",\"features\":[", to: &bytes)
    }

    /// Everything after the last feature: `]`, `exceededTransferLimit` when true (`geoJSON()` writes it only then), `}`.
    static func appendTail(exceededTransferLimit: Bool, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "]"))
        if exceededTransferLimit { JSON.appendASCII(",\"exceededTransferLimit\":true", to: &bytes) }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A decoded feature, as `Feature.geoJSON` makes it.
    static func appendFeature(_ feature: Feature, objectIdFieldName: String, to bytes: inout [UInt8]) {
        feature.geoJSON(objectIdFieldName: objectIdFieldName).write(to: &bytes)
    }

    /// A feature from its attributes object already written as JSON (`properties`) and the text of its object id's
    /// value (`objectId`, as stored: `id` is written only when that is an integer, which `StoredAttributesWriter`
    /// has checked is written as decoding then encoding it would write it).
    static func appendFeature(properties: UnsafeBufferPointer<UInt8>, objectId: UnsafeBufferPointer<UInt8>?, geometry: Geometry?,
                              to bytes: inout [UInt8]) {
        appendFeature(properties: properties, objectId: objectId, to: &bytes) { appendGeometry(geometry, to: &$0) }
    }

    /// The same feature with a point given as the text `{"x":X,"y":Y}` that `JSON.appendDouble` writes of its
    /// coordinates (`RowStore.storedPoint`'s): written as `appendGeometry` writes that point, X and Y copied.
    static func appendFeature(properties: UnsafeBufferPointer<UInt8>, objectId: UnsafeBufferPointer<UInt8>?,
                              storedPoint point: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        appendFeature(properties: properties, objectId: objectId, to: &bytes) { bytes in
            // `{"x":` is 5 bytes, X has no comma, `,"y":` is 5 bytes, and `}` ends the text.
            let comma = point.firstIndex(of: UInt8(ascii: ",")) ?? point.endIndex
            JSON.appendASCII("{\"type\":\"Point\",\"coordinates\":[", to: &bytes)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: point[5..<comma]))
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: point[min(comma + 5, point.count - 1)..<(point.count - 1)]))
            JSON.appendASCII("]}", to: &bytes)
        }
    }

    /// `{"type":"Feature","id":...,"geometry":...,"properties":...}`, the geometry written by `writeGeometry`.
    private static func appendFeature(properties: UnsafeBufferPointer<UInt8>, objectId: UnsafeBufferPointer<UInt8>?,
                                      to bytes: inout [UInt8], geometry writeGeometry: (inout [UInt8]) -> Void) {
        JSON.appendASCII("{\"type\":\"Feature\"", to: &bytes)
        if let objectId, isInteger(objectId) {
            JSON.appendASCII(",\"id\":", to: &bytes)
            bytes.append(contentsOf: objectId)
        }
        JSON.appendASCII(",\"geometry\":", to: &bytes)
        writeGeometry(&bytes)
        JSON.appendASCII(",\"properties\":", to: &bytes)
        bytes.append(contentsOf: properties)
        bytes.append(UInt8(ascii: "}"))
    }

    /// A geometry as `GeoJSON.geometry` writes it, `null` for none; a point without building its tree.
    static func appendGeometry(_ geometry: Geometry?, to bytes: inout [UInt8]) {
        switch geometry {
        case nil:
            JSON.appendASCII("null", to: &bytes)
        case .point(let p)?:
            JSON.appendASCII("{\"type\":\"Point\",\"coordinates\":[", to: &bytes)
            JSON.appendDouble(p.x, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSON.appendDouble(p.y, to: &bytes)
            JSON.appendASCII("]}", to: &bytes)
        case let other?:
            GeoJSON.geometry(other).write(to: &bytes)
        }
    }

    /// True for a number token without fraction or exponent (`-?[0-9]+`): among the values `StoredAttributesWriter`
    /// copies, exactly those that decode as an integer (`AttributeValue.int`).
    static func isInteger(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = token.first, first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return !token.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}
