import NIOCore
import Service

/// Writes a `JSON` document as compact UTF-8 straight into bytes: the same text as `JSON.text` (member
/// order kept, integral doubles written as integers), without building a `String` on the way. The bytes
/// are gathered in an array (one bounds check per append, none of `ByteBuffer`'s per-write bookkeeping) and
/// handed over in one copy.
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

    @inline(__always)
    static func appendASCII(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    static func appendDouble(_ d: Double, to bytes: inout [UInt8]) {
        if !d.isFinite { appendASCII("null", to: &bytes) }
        else if d.rounded() == d && abs(d) < 1e15 { appendInteger(Int(d), to: &bytes) }
        else { bytes.append(contentsOf: d.description.utf8) }
    }

    /// The decimal digits of `value`, as `String(value)` writes them.
    static func appendInteger<T: BinaryInteger>(_ value: T, to bytes: inout [UInt8]) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, written backwards
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            while magnitude > 0 {
                count += 1
                raw[24 - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(24 - count)...]))
        }
    }

    static func append(_ value: JSON, to bytes: inout [UInt8]) {
        switch value {
        case .null: appendASCII("null", to: &bytes)
        case .bool(let b): appendASCII(b ? "true" : "false", to: &bytes)
        case .int(let i): appendInteger(i, to: &bytes)
        case .double(let d): appendDouble(d, to: &bytes)
        case .string(let s): appendString(s, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                append(member, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Most strings need no escaping: copy them in one go.
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): appendASCII("\\\"", to: &bytes)
                case UInt8(ascii: "\\"): appendASCII("\\\\", to: &bytes)
                case UInt8(ascii: "\n"): appendASCII("\\n", to: &bytes)
                case UInt8(ascii: "\r"): appendASCII("\\r", to: &bytes)
                case UInt8(ascii: "\t"): appendASCII("\\t", to: &bytes)
                case 0..<0x20:
                    appendASCII("\\u00", to: &bytes)
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
