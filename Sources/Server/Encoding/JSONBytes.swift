import NIOCore
import Service

/// Writes a `JSON` document as compact UTF-8 straight into bytes (the text of `JSON.text`, written by the
/// core's own writer), without building a `String` on the way. The bytes are gathered in an array (one
/// bounds check per append, none of `ByteBuffer`'s per-write bookkeeping) and handed over in one copy.
enum JSONBytes {
    static func buffer(_ value: JSON, capacity: Int = 4096) -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        append(value, to: &bytes)
        return ByteBuffer(bytes: bytes)
    }

    static func write(_ value: JSON, into buffer: inout ByteBuffer) {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        buffer.writeBytes(bytes)
    }

    static func writeString(_ string: String, into buffer: inout ByteBuffer) {
        var bytes: [UInt8] = []
        appendString(string, to: &bytes)
        buffer.writeBytes(bytes)
    }

    // The compact writer itself is the service core's (`JSON.write(to:)` and its helpers): these names
    // keep the encoders of this folder short.
    @inline(__always)
    static func appendASCII(_ text: StaticString, to bytes: inout [UInt8]) { JSON.appendASCII(text, to: &bytes) }

    @inline(__always)
    static func appendDouble(_ d: Double, to bytes: inout [UInt8]) { JSON.appendDouble(d, to: &bytes) }

    @inline(__always)
    static func appendInteger<T: BinaryInteger>(_ value: T, to bytes: inout [UInt8]) { JSON.appendInteger(value, to: &bytes) }

    @inline(__always)
    static func append(_ value: JSON, to bytes: inout [UInt8]) { value.write(to: &bytes) }

    @inline(__always)
    static func appendString(_ string: String, to bytes: inout [UInt8]) { JSON.appendString(string, to: &bytes) }
}
