import Rules
import WebMap

/// A JSON value to write, with object members in the order they were given. The JSON-based formats build one
/// and print it with ``JSONOutput/prettyPrinted(_:)`` so their key order and layout are fixed by this code,
/// not by whichever Foundation the tool was built with.
indirect enum JSONOutput {
    case null
    case bool(Bool)
    case int(Int)
    /// A fraction (JSON's shortest text for it; an integral value as an integer).
    case double(Double)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])
    /// An array of `count` elements, each made by `element` as it is written and dropped after: a report's
    /// diagnostics, which as a whole tree (some ten values apiece, 250,000 of them) cost more memory and time
    /// than the text they print.
    case generated(count: Int, element: (Int) -> JSONOutput)

    /// `value` as a string, or `null` when it is nil.
    static func string(_ value: String?) -> JSONOutput { value.map(JSONOutput.string) ?? .null }

    /// A JSON value, members in order.
    init(_ value: JSON) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let elements): self = .array(elements.map(JSONOutput.init))
        case .object(let members): self = .object(members.map { ($0.0, JSONOutput($0.1)) })
        }
    }

    /// Two-space indentation, `"key": value`, empty arrays and objects as `[]` and `{}`, no trailing newline.
    /// Strings are written as UTF-8 with only `"`, `\`, control characters, DEL and the line separators escaped.
    /// Written as bytes: a report of thousands of files is mostly unescaped text copied as it is.
    /// `newline` ends the text with one (without a copy of the whole text to append it); `capacity` is a guess
    /// of the text's size in bytes (a guess too large costs only address space: the bytes never written are
    /// never touched), so that a report of 100 MB is not copied each time its buffer doubles.
    static func prettyPrinted(_ value: JSONOutput, newline: Bool = false, capacity: Int = 4096) -> String {
        String(decoding: prettyPrintedUTF8(value, newline: newline, capacity: capacity), as: UTF8.self)
    }

    /// ``prettyPrinted(_:newline:capacity:)`` as its UTF-8 bytes, for output that needs no `String` (and no
    /// copy of a 300 MB report into one).
    static func prettyPrintedUTF8(_ value: JSONOutput, newline: Bool = false, capacity: Int = 4096) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(max(capacity, 4096))
        write(value, indent: 0, to: &out)
        if newline { out.append(UInt8(ascii: "\n")) }
        return out
    }

    /// A generous guess of the bytes a report's diagnostics take in a JSON format: their texts, plus `perDiagnostic`
    /// bytes each for keys, numbers and indentation.
    static func estimatedSize(of report: LintReport, perDiagnostic: Int) -> Int {
        var total = 0
        for file in report.files {
            total += 256 + file.path.utf8.count
            for diagnostic in file.diagnostics {
                total += perDiagnostic + diagnostic.message.utf8.count + diagnostic.pointer.utf8.count
                    + (diagnostic.layer?.id?.utf8.count ?? 0) + (diagnostic.layer?.title?.utf8.count ?? 0)
            }
        }
        return total + total / 4
    }

    private static func write(_ value: JSONOutput, indent: Int, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): JSON.appendDouble(d, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements): writeArray(count: elements.count, indent: indent, to: &out) { elements[$0] }
        case .generated(let count, let element): writeArray(count: count, indent: indent, to: &out, element: element)
        case .object(let members):
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(contentsOf: "{\n".utf8)
            for (i, member) in members.enumerated() {
                writeSpaces(indent + 2, to: &out)
                writeString(member.0, to: &out)
                out.append(contentsOf: ": ".utf8)
                write(member.1, indent: indent + 2, to: &out)
                if i != members.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            writeSpaces(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeArray(count: Int, indent: Int, to out: inout [UInt8], element: (Int) -> JSONOutput) {
        if count == 0 { out.append(contentsOf: "[]".utf8); return }
        out.append(contentsOf: "[\n".utf8)
        for i in 0..<count {
            writeSpaces(indent + 2, to: &out)
            write(element(i), indent: indent + 2, to: &out)
            if i != count - 1 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\n"))
        }
        writeSpaces(indent, to: &out)
        out.append(UInt8(ascii: "]"))
    }

    /// Copied from one run of spaces (a SARIF log is about half indentation).
    private static func writeSpaces(_ count: Int, to out: inout [UInt8]) {
        var left = count
        while left > 0 {
            let n = min(left, spaces.count)
            spaces.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
            left -= n
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 128)

    /// Runs of bytes that need no escape (nearly all of a report) are copied at once, not byte by byte: a
    /// report of 250,000 findings is some 160 MB of text.
    private static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                guard needsLook(byte) else { i += 1; continue }
                let replacement: Substitute
                switch byte {
                case UInt8(ascii: "\""): replacement = .text("\\\"")
                case UInt8(ascii: "\\"): replacement = .text("\\\\")
                case UInt8(ascii: "\n"): replacement = .text("\\n")
                case UInt8(ascii: "\r"): replacement = .text("\\r")
                case UInt8(ascii: "\t"): replacement = .text("\\t")
                case 0x08: replacement = .text("\\b")
                case 0x0C: replacement = .text("\\f")
                case 0x00...0x1F, 0x7F:
                    // DEL and the line separators are legal JSON, but escaped they cannot upset a terminal or a
                    // JavaScript consumer.
                    replacement = .escape(UInt32(byte), length: 1)
                default:
                    // 0xE2: U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR are E2 80 A8 and E2 80 A9.
                    if i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) {
                        replacement = .escape(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029, length: 3)
                    } else {
                        i += 1
                        continue
                    }
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                switch replacement {
                case .text(let text):
                    out.append(contentsOf: text.utf8)
                    i += 1
                case .escape(let value, let length):
                    writeEscape(value, to: &out)
                    i += length
                }
                runStart = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private enum Substitute {
        case text(String)
        case escape(UInt32, length: Int)
    }

    /// The bytes `writeString` must look at: `"`, `\`, the C0 controls, DEL and 0xE2 (the first byte of
    /// U+2028 and U+2029); every other byte is copied as it is.
    @inline(__always)
    private static func needsLook(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2
    }

    private static func writeEscape(_ value: UInt32, to out: inout [UInt8]) {
        let digits = String(value, radix: 16, uppercase: false)
        out.append(contentsOf: "\\u".utf8)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 4 - digits.utf8.count)))
        out.append(contentsOf: digits.utf8)
    }
}
