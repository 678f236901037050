import NIOCore
import Service
import FeatureServiceModel
import WebMap

/// Writes a `JSON` document as compact UTF-8 straight into bytes (the text of `JSON.text`, written by the
/// core's own writer, `JSON.write(to:)`), without building a `String` on the way. The bytes are gathered in an
/// array (one bounds check per append, none of `ByteBuffer`'s per-write bookkeeping) and handed over in one copy.
enum JSONBytes {
    static func buffer(_ value: JSON, capacity: Int = 4096) -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        value.write(to: &bytes)
        return ByteBuffer(bytes: bytes)
    }
}
