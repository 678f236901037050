// JSON-RPC 2.0 over stdio with LSP's base protocol framing (`Content-Length: N\r\n\r\n` then N bytes of JSON).
// Written here: no package in this machine's copy speaks LSP's base protocol, and the framing is a few lines.
import Foundation
import WebMap

/// Reads framed messages from a file descriptor, buffering what arrived beyond the current message so that the
/// server can see whether more messages are already waiting (and skip linting versions that are superseded).
final class MessageReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// The largest message accepted: a document of this size is far beyond any web map an editor would open.
    static let maximumLength = 256 * 1024 * 1024

    init(descriptor: Int32) { self.descriptor = descriptor }

    enum ReadError: Error, CustomStringConvertible {
        case badHeader(String)
        case tooLarge(Int)
        var description: String {
            switch self {
            case .badHeader(let text): return "bad message header: \(text)"
            case .tooLarge(let n): return "message of \(n) bytes is over the limit"
            }
        }
    }

    /// The next message's JSON bytes, or nil at the end of input.
    func next() throws -> Data? {
        while true {
            if let message = try framedMessage() { return message }
            guard fill() else { return nil }
        }
    }

    /// True when a whole message is already buffered.
    var hasBufferedMessage: Bool {
        (try? peekLength()) != nil  // nil when not all of it has arrived, or when its header is bad
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = read(descriptor, &chunk, chunk.count)
        guard n > 0 else { return false }
        if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// (header length, body length) when a whole message is buffered.
    private func peekLength() throws -> (Int, Int)? {
        let available = buffer.count - start
        guard available >= 4 else { return nil }
        var headerEnd: Int?
        var i = start
        while i + 3 < buffer.count {
            if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { headerEnd = i; break }
            i += 1
        }
        guard let headerEnd else {
            if available > 8192 { throw ReadError.badHeader("no blank line after 8 KB") }
            return nil
        }
        let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                length = Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        guard let length, length >= 0 else { throw ReadError.badHeader(header) }
        guard length <= Self.maximumLength else { throw ReadError.tooLarge(length) }
        let headerLength = headerEnd + 4 - start
        return buffer.count - start >= headerLength + length ? (headerLength, length) : nil
    }

    private func framedMessage() throws -> Data? {
        guard let (header, length) = try peekLength() else { return nil }
        let bodyStart = start + header
        let body = Data(buffer[bodyStart..<(bodyStart + length)])
        start = bodyStart + length
        if start > 1 << 20 { buffer.removeFirst(start); start = 0 }
        return body
    }
}

/// Writes framed messages to a file descriptor.
final class MessageWriter {
    private let descriptor: Int32
    private let lock = NSLock()

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes `message` as compact JSON text (`JSON.write(to:)`) after its `Content-Length` header.
    func write(_ message: JSON) {
        var body: [UInt8] = []
        message.write(to: &body)
        var bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        bytes.append(contentsOf: body)
        lock.lock()
        defer { lock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }
}
