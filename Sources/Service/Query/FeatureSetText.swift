import Foundation
import FeatureServiceModel
import WebMap

/// Esri JSON text of feature sets, member for member what `OrderedJSONEncoder` makes of `FeatureSet` (tested
/// to be identical), written straight to bytes without going through `Codable` for every attribute of every
/// feature. The query's `f=json` answer (`ServiceCore.queryText`) is written piece by piece with these
/// functions while the rows are read.
enum FeatureSetText {
    /// The whole feature set, from the same pieces (the tests compare it with `OrderedJSONEncoder`'s text).
    static func bytes(_ set: FeatureSet) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024 + set.features.count * 512)
        appendHead(objectIdFieldName: set.objectIdFieldName, globalIdFieldName: set.globalIdFieldName, geometryType: set.geometryType,
                   spatialReference: set.spatialReference, fields: set.fields, to: &bytes)
        var keys = AttributeKeys()
        for (index, feature) in set.features.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendFeature(feature, keys: &keys, to: &bytes)
        }
        appendTail(exceededTransferLimit: set.exceededTransferLimit, to: &bytes)
        return bytes
    }

    /// Everything before the first feature: `{"objectIdFieldName":...,"fields":[...],"features":[`.
    static func appendHead(objectIdFieldName: String, globalIdFieldName: String?, geometryType: String?,
                           spatialReference: SpatialReference?, fields: [JSON], to bytes: inout [UInt8]) {
        JSON.appendASCII("{\"objectIdFieldName\":", to: &bytes)
        JSON.appendString(objectIdFieldName, to: &bytes)
        if let globalIdFieldName {
            JSON.appendASCII(",\"globalIdFieldName\":", to: &bytes)
            JSON.appendString(globalIdFieldName, to: &bytes)
        }
        if let geometryType {
            JSON.appendASCII(",\"geometryType\":", to: &bytes)
            JSON.appendString(geometryType, to: &bytes)
        }
        if let spatialReference {
            JSON.appendASCII(",\"spatialReference\":", to: &bytes)
            spatialReference.json.write(to: &bytes)
        }
        JSON.appendASCII(",\"fields\":", to: &bytes)
        JSON.array(fields).write(to: &bytes)
        JSON.appendASCII(",\"features\":[", to: &bytes)
    }

    /// Everything after the last feature: `]`, `exceededTransferLimit` when set, `}`.
    static func appendTail(exceededTransferLimit: Bool?, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "]"))
        if let exceededTransferLimit {
            JSON.appendASCII(",\"exceededTransferLimit\":", to: &bytes)
            JSON.appendASCII(exceededTransferLimit ? "true" : "false", to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"name":` of the attribute names met so far, by position: every feature of a set usually has the same
    /// names, so each is written once and copied while the names stay the same.
    struct AttributeKeys {
        var names: [String] = []
        var written: [[UInt8]] = []
    }

    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) } }
    }

    /// `{"attributes":{...},"geometry":...}`.
    static func appendFeature(_ feature: Feature, keys: inout AttributeKeys, to bytes: inout [UInt8]) {
        JSON.appendASCII("{\"attributes\":{", to: &bytes)
        for (position, (name, value)) in feature.attributes.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            if position < keys.names.count && sameBytes(keys.names[position], name) {
                bytes.append(contentsOf: keys.written[position])
            } else {
                var key: [UInt8] = []
                JSON.appendString(name, to: &key)
                key.append(UInt8(ascii: ":"))
                bytes.append(contentsOf: key)
                if position < keys.names.count {
                    keys.names[position] = name
                    keys.written[position] = key
                } else if position == keys.names.count {
                    keys.names.append(name)
                    keys.written.append(key)
                }
            }
            switch value {
            case .null: JSON.appendASCII("null", to: &bytes)
            case .int(let i): JSON.appendInteger(i, to: &bytes)
            case .double(let d): JSON.appendDouble(d, to: &bytes)
            case .string(let s): JSON.appendString(s, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "}"))
        appendGeometry(feature.geometry, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"geometry":...` when there is a geometry.
    @inline(__always)
    static func appendGeometry(_ geometry: Geometry?, to bytes: inout [UInt8]) {
        guard let geometry else { return }
        JSON.appendASCII(",\"geometry\":", to: &bytes)
        if case .point(let p) = geometry {
            // What `geometry.json()` gives for a point: {"x": x, "y": y}.
            JSON.appendASCII("{\"x\":", to: &bytes)
            JSON.appendDouble(p.x, to: &bytes)
            JSON.appendASCII(",\"y\":", to: &bytes)
            JSON.appendDouble(p.y, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        } else {
            geometry.json().write(to: &bytes)
        }
    }
}
