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

    /// An array of `count` elements that write themselves: `element(i, indent, &writer)` writes element `i`
    /// (called in order, once each) as ``JSONOutput`` would write a value at `indent`. For the 250,000 results
    /// of a SARIF log, which as values cost more than the bytes they print.
    case streamed(count: Int, element: (_ index: Int, _ indent: Int, _ writer: inout JSONByteWriter) -> Void)

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
        var writer = JSONByteWriter(capacity: capacity)
        write(value, indent: 0, to: &writer)
        if newline { writer.append(UInt8(ascii: "\n")) }
        return writer.bytes
    }

    /// The bytes of ``prettyPrintedUTF8(_:newline:capacity:)``, handed to `emit` a chunk of about `chunkSize`
    /// bytes at a time as they are written. Throws `emit`'s first error (after which nothing more is handed
    /// over).
    static func prettyPrinted(_ value: JSONOutput, newline: Bool = false, chunkSize: Int,
                              emit: @escaping (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var writer = JSONByteWriter(chunkSize: chunkSize, emit: emit)
        write(value, indent: 0, to: &writer)
        if newline { writer.append(UInt8(ascii: "\n")) }
        try writer.finish()
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

    /// Writes `value` as a value whose first line is already indented by `indent` spaces.
    static func write(_ value: JSONOutput, indent: Int, to out: inout JSONByteWriter) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let i): out.append(i)
        case .double(let d): out.append(d)
        case .string(let s): out.string(s)
        case .array(let elements):
            writeArray(count: elements.count, indent: indent, to: &out) { i, indent, out in write(elements[i], indent: indent, to: &out) }
        case .generated(let count, let element):
            writeArray(count: count, indent: indent, to: &out) { i, indent, out in write(element(i), indent: indent, to: &out) }
        case .streamed(let count, let element): writeArray(count: count, indent: indent, to: &out, element: element)
        case .object(let members):
            if members.isEmpty { out.append("{}"); return }
            out.append("{\n")
            for (i, member) in members.enumerated() {
                out.spaces(indent + 2)
                out.string(member.0)
                out.append(": ")
                write(member.1, indent: indent + 2, to: &out)
                if i != members.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            out.spaces(indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeArray(count: Int, indent: Int, to out: inout JSONByteWriter,
                                   element: (Int, Int, inout JSONByteWriter) -> Void) {
        if count == 0 { out.append("[]"); return }
        out.append("[\n")
        for i in 0..<count {
            out.spaces(indent + 2)
            element(i, indent + 2, &out)
            if i != count - 1 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\n"))
            out.handOverIfFull()
        }
        out.spaces(indent)
        out.append(UInt8(ascii: "]"))
    }
}
