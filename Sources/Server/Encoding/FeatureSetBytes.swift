import NIOCore
import Service

/// The hot path of `query`: a feature set written straight to bytes, member for member what
/// `OrderedJSONEncoder` makes of `FeatureSet` (tested to be identical), without going through
/// `Codable` for every attribute of every feature.
enum FeatureSetBytes {
    static func buffer(_ set: FeatureSet) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: 1024 + set.features.count * 512)
        buffer.writeStaticString("{\"objectIdFieldName\":")
        JSONBytes.writeString(set.objectIdFieldName, into: &buffer)
        if let globalId = set.globalIdFieldName {
            buffer.writeStaticString(",\"globalIdFieldName\":")
            JSONBytes.writeString(globalId, into: &buffer)
        }
        if let type = set.geometryType {
            buffer.writeStaticString(",\"geometryType\":")
            JSONBytes.writeString(type, into: &buffer)
        }
        if let reference = set.spatialReference {
            buffer.writeStaticString(",\"spatialReference\":")
            JSONBytes.write(reference.json, into: &buffer)
        }
        buffer.writeStaticString(",\"fields\":")
        JSONBytes.write(.array(set.fields), into: &buffer)
        buffer.writeStaticString(",\"features\":[")
        for (index, feature) in set.features.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            buffer.writeStaticString("{\"attributes\":{")
            var first = true
            for (name, value) in feature.attributes {
                if !first { buffer.writeInteger(UInt8(ascii: ",")) }
                first = false
                JSONBytes.writeString(name, into: &buffer)
                buffer.writeInteger(UInt8(ascii: ":"))
                switch value {
                case .null: buffer.writeStaticString("null")
                case .int(let i): buffer.writeString(String(i))
                case .double(let d): JSONBytes.write(.double(d), into: &buffer)
                case .string(let s): JSONBytes.writeString(s, into: &buffer)
                }
            }
            buffer.writeInteger(UInt8(ascii: "}"))
            if let geometry = feature.geometry {
                buffer.writeStaticString(",\"geometry\":")
                JSONBytes.write(geometry.json(), into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        }
        buffer.writeInteger(UInt8(ascii: "]"))
        if let exceeded = set.exceededTransferLimit {
            buffer.writeStaticString(",\"exceededTransferLimit\":")
            buffer.writeStaticString(exceeded ? "true" : "false")
        }
        buffer.writeInteger(UInt8(ascii: "}"))
        return buffer
    }
}
