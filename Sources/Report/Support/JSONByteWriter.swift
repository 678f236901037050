import WebMap

/// The bytes of a JSON text as it is written, in ``JSONOutput``'s layout (two-space indentation). Either kept
/// whole (``init(capacity:)``), or handed to a consumer a chunk at a time (``init(chunkSize:emit:)``): a SARIF
/// report of 250,000 findings is 320 MB, and written through one buffer of a megabyte it costs no page fault
/// after the first megabyte and stays in the cache.
struct JSONByteWriter {
    /// What is written and not yet handed over (all of it without a consumer).
    private(set) var bytes: [UInt8] = []
    private let chunkSize: Int
    private let emit: ((UnsafeBufferPointer<UInt8>) throws -> Void)?
    /// The first error the consumer threw; nothing is handed over after it.
    private(set) var error: (any Error)?

    /// Keeps every byte in ``bytes``. `capacity` is a guess of the size; too large costs only address space.
    init(capacity: Int) {
        chunkSize = .max
        emit = nil
        bytes.reserveCapacity(max(capacity, 4096))
    }

    /// Hands the bytes to `emit` in chunks of about `chunkSize` (cut only between array elements, so a chunk
    /// may be longer), then the rest at ``finish()``.
    init(chunkSize: Int, emit: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) {
        self.chunkSize = max(1, chunkSize)
        self.emit = emit
        bytes.reserveCapacity(self.chunkSize + 64 * 1024)
    }

    /// Hands over what is written once it reaches the chunk size. Called between array elements.
    @inline(__always)
    mutating func handOverIfFull() {
        if bytes.count >= chunkSize { handOver() }
    }

    /// Hands over what remains; throws the consumer's first error, if any.
    mutating func finish() throws {
        handOver()
        if let error { throw error }
    }

    private mutating func handOver() {
        guard let emit, !bytes.isEmpty else { return }
        if error == nil {
            do { try bytes.withUnsafeBufferPointer { try emit($0) } } catch { self.error = error }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Bytes that are already JSON (punctuation, a key known to need no escape).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text that needs no escape, as it is (hex digits, a number's text).
    mutating func appendUnescaped(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `value` in decimal.
    mutating func append(_ value: Int) {
        if value >= 0 && value < 10 { bytes.append(UInt8(ascii: "0") + UInt8(value)); return }
        appendUnescaped(String(value))
    }

    /// `value` as JSON's shortest text for it (an integral value as an integer).
    mutating func append(_ value: Double) { JSON.appendDouble(value, to: &bytes) }

    /// `count` spaces, copied from one run of them (a SARIF log is about half indentation).
    mutating func spaces(_ count: Int) {
        var left = count
        while left > 0 {
            let n = min(left, Self.spaceRun.count)
            Self.spaceRun.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
            left -= n
        }
    }

    private static let spaceRun = [UInt8](repeating: UInt8(ascii: " "), count: 128)

    /// `s` as a JSON string: UTF-8 with only `"`, `\`, control characters, DEL and the line separators
    /// escaped. Runs of bytes that need no escape (nearly all of a report) are copied at once.
    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { source in
            var runStart = 0
            var i = 0
            while i < source.count {
                let byte = source[i]
                guard Self.needsLook(byte) else { i += 1; continue }
                let escape: StaticString?
                var scalar: UInt32 = 0
                var length = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x00...0x1F, 0x7F:
                    // DEL and the line separators are legal JSON, but escaped they cannot upset a terminal or a
                    // JavaScript consumer.
                    escape = nil
                    scalar = UInt32(byte)
                default:
                    // 0xE2: U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR are E2 80 A8 and E2 80 A9.
                    guard i + 2 < source.count && source[i + 1] == 0x80 && (source[i + 2] == 0xA8 || source[i + 2] == 0xA9) else {
                        i += 1
                        continue
                    }
                    escape = nil
                    scalar = source[i + 2] == 0xA8 ? 0x2028 : 0x2029
                    length = 3
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<i]))
                if let escape { append(escape) } else { unicodeEscape(scalar) }
                i += length
                runStart = i
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<source.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The bytes ``string(_:)`` must look at: `"`, `\`, the C0 controls, DEL and 0xE2 (the first byte of
    /// U+2028 and U+2029); every other byte is copied as it is.
    @inline(__always)
    private static func needsLook(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2
    }

    private mutating func unicodeEscape(_ value: UInt32) {
        let digits = String(value, radix: 16, uppercase: false)
        append("\\u")
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 4 - digits.utf8.count)))
        bytes.append(contentsOf: digits.utf8)
    }
}

/// An object written member by member in ``JSONOutput``'s layout: `{`, each member on its own line indented
/// two spaces more than the object, `}` on a line of its own, `{}` when empty.
struct JSONObjectStream {
    let indent: Int
    private var isEmpty = true

    /// Writes the `{`.
    init(indent: Int, _ writer: inout JSONByteWriter) {
        self.indent = indent
        writer.append(UInt8(ascii: "{"))
    }

    /// Starts a member: its key (which must need no escape) and `: `; the caller writes the value, indented
    /// by ``memberIndent``.
    mutating func key(_ key: StaticString, _ writer: inout JSONByteWriter) {
        writer.append(isEmpty ? "\n" : ",\n")
        isEmpty = false
        writer.spaces(indent + 2)
        writer.append(UInt8(ascii: "\""))
        writer.append(key)
        writer.append("\": ")
    }

    /// The indentation of a member's value.
    var memberIndent: Int { indent + 2 }

    /// Writes the `}`.
    func close(_ writer: inout JSONByteWriter) {
        if !isEmpty {
            writer.append(UInt8(ascii: "\n"))
            writer.spaces(indent)
        }
        writer.append(UInt8(ascii: "}"))
    }
}
