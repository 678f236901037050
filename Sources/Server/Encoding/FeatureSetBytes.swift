import Foundation
import NIOCore
import Service

/// The hot path of `query`: a feature set written straight to bytes, member for member what
/// `OrderedJSONEncoder` makes of `FeatureSet` (tested to be identical), without going through
/// `Codable` for every attribute of every feature.
enum FeatureSetBytes {
    static func buffer(_ set: FeatureSet) -> ByteBuffer {
        ByteBuffer(bytes: bytes(set))
    }

    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) } }
    }

    static func bytes(_ set: FeatureSet) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024 + set.features.count * 512)
        JSONBytes.appendASCII("{\"objectIdFieldName\":", to: &bytes)
        JSONBytes.appendString(set.objectIdFieldName, to: &bytes)
        if let globalId = set.globalIdFieldName {
            JSONBytes.appendASCII(",\"globalIdFieldName\":", to: &bytes)
            JSONBytes.appendString(globalId, to: &bytes)
        }
        if let type = set.geometryType {
            JSONBytes.appendASCII(",\"geometryType\":", to: &bytes)
            JSONBytes.appendString(type, to: &bytes)
        }
        if let reference = set.spatialReference {
            JSONBytes.appendASCII(",\"spatialReference\":", to: &bytes)
            JSONBytes.append(reference.json, to: &bytes)
        }
        JSONBytes.appendASCII(",\"fields\":", to: &bytes)
        JSONBytes.append(.array(set.fields), to: &bytes)
        JSONBytes.appendASCII(",\"features\":[", to: &bytes)
        // Every feature of a set usually has the same attribute names: each name's `"name":` is written once
        // and copied while the names stay the same.
        var names: [String] = []
        var written: [[UInt8]] = []
        for (index, feature) in set.features.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            if let encoded = feature.encodedAttributes {
                // The attributes object as the loop below would write it (the query checked it is).
                JSONBytes.appendASCII("{\"attributes\":", to: &bytes)
                bytes.append(contentsOf: encoded)
                appendGeometry(feature, to: &bytes)
                continue
            }
            JSONBytes.appendASCII("{\"attributes\":{", to: &bytes)
            for (position, (name, value)) in feature.attributes.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                if position < names.count && sameBytes(names[position], name) {
                    bytes.append(contentsOf: written[position])
                } else {
                    var key: [UInt8] = []
                    JSONBytes.appendString(name, to: &key)
                    key.append(UInt8(ascii: ":"))
                    bytes.append(contentsOf: key)
                    if position < names.count {
                        names[position] = name
                        written[position] = key
                    } else if position == names.count {
                        names.append(name)
                        written.append(key)
                    }
                }
                switch value {
                case .null: JSONBytes.appendASCII("null", to: &bytes)
                case .int(let i): JSONBytes.appendInteger(i, to: &bytes)
                case .double(let d): JSONBytes.appendDouble(d, to: &bytes)
                case .string(let s): JSONBytes.appendString(s, to: &bytes)
                }
            }
            bytes.append(UInt8(ascii: "}"))
            appendGeometry(feature, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        if let exceeded = set.exceededTransferLimit {
            JSONBytes.appendASCII(",\"exceededTransferLimit\":", to: &bytes)
            JSONBytes.appendASCII(exceeded ? "true" : "false", to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// `,"geometry":...` when the feature has one, and the feature's closing brace.
    @inline(__always)
    private static func appendGeometry(_ feature: Feature, to bytes: inout [UInt8]) {
        if let geometry = feature.geometry {
            JSONBytes.appendASCII(",\"geometry\":", to: &bytes)
            if case .point(let p) = geometry {
                // What `geometry.json()` gives for a point: {"x": x, "y": y}.
                JSONBytes.appendASCII("{\"x\":", to: &bytes)
                JSONBytes.appendDouble(p.x, to: &bytes)
                JSONBytes.appendASCII(",\"y\":", to: &bytes)
                JSONBytes.appendDouble(p.y, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            } else {
                JSONBytes.append(geometry.json(), to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
