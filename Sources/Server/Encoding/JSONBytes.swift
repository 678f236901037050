import NIOCore
import Service

/// Writes a `JSON` document as compact UTF-8 straight into a `ByteBuffer`: the same text as `JSON.text`
/// (member order kept, integral doubles written as integers), without building a `String` on the way.
enum JSONBytes {
    static func buffer(_ value: JSON, capacity: Int = 4096) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: capacity)
        write(value, into: &buffer)
        return buffer
    }

    static func write(_ value: JSON, into buffer: inout ByteBuffer) {
        switch value {
        case .null: buffer.writeStaticString("null")
        case .bool(let b): buffer.writeStaticString(b ? "true" : "false")
        case .int(let i): buffer.writeString(String(i))
        case .double(let d):
            if !d.isFinite { buffer.writeStaticString("null") }
            else if d.rounded() == d && abs(d) < 1e15 { buffer.writeString(String(Int(d))) }
            else { buffer.writeString("\(d)") }
        case .string(let s): writeString(s, into: &buffer)
        case .array(let elements):
            buffer.writeInteger(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                write(element, into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        case .object(let members):
            buffer.writeInteger(UInt8(ascii: "{"))
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                writeString(key, into: &buffer)
                buffer.writeInteger(UInt8(ascii: ":"))
                write(member, into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func writeString(_ string: String, into buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them in one go.
        let needsEscaping = string.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        } ?? true
        if !needsEscaping {
            buffer.writeString(string)
        } else {
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                case 0..<0x20:
                    buffer.writeStaticString("\\u00")
                    buffer.writeInteger(hex[Int(byte >> 4)])
                    buffer.writeInteger(hex[Int(byte & 0xF)])
                default: buffer.writeInteger(byte)
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }
}
