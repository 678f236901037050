import Foundation
import JSONSchema
import WebMap
import Yams

/// An edit script file read as JSON, with the line and column of every value. YAML is read with Yams and
/// written out as JSON text while remembering where each value stood in the YAML, so that one schema
/// validation and one set of messages serve both formats.
struct ScriptSource {
    let path: String
    /// The JSON text (the file itself for JSON; the converted text for YAML).
    let text: SourceText
    let root: JSONNode
    /// For YAML: the YAML position of each value, by the offset of its JSON text.
    private let yamlPositions: [Int: SourcePosition]

    /// The problems that make a script invalid (exit 2 before anything runs).
    struct Invalid: Error, CustomStringConvertible {
        var messages: [String]
        var description: String { messages.joined(separator: "\n") }
    }

    static func read(path: String) throws -> ScriptSource {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(messages: ["\(path): cannot read the script (no such file, or not readable)."])
        }
        guard let string = String(data: data, encoding: .utf8) else { throw Invalid(messages: ["\(path): the script is not UTF-8 text."]) }
        let trimmed = string.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        let isJSON = path.lowercased().hasSuffix(".json") || trimmed.first == "{" || trimmed.first == "["
        return isJSON ? try json(string, path: path) : try yaml(string, path: path)
    }

    private static func json(_ string: String, path: String) throws -> ScriptSource {
        let text = SourceText(bytes: Array(string.utf8))
        do {
            let parsed = try JSONParser.parse(text)
            return try ScriptSource(path: path, text: text, root: parsed.root, yamlPositions: [:]).refusingRepeated(parsed.duplicateKeys)
        } catch let error as JSONParseError {
            let position = text.position(ofOffset: error.offset)
            throw Invalid(messages: ["\(path):\(position.line):\(position.column): not valid JSON: \(error.message)"])
        }
    }

    private static func yaml(_ string: String, path: String) throws -> ScriptSource {
        guard YAMLNesting.upperBound(of: string) <= YAMLNesting.limit else {
            throw Invalid(messages: ["\(path): the script nests deeper than \(YAMLToJSON.maximumDepth) levels (or is indented more than \(YAMLNesting.limit) columns)."])
        }
        let node: Yams.Node?
        do { node = try Yams.compose(yaml: string) } catch let error as YamlError {
            throw Invalid(messages: [yamlMessage(error, path: path)])
        } catch {
            throw Invalid(messages: ["\(path): not valid YAML: \(error)"])
        }
        guard let node else { throw Invalid(messages: ["\(path): the script is empty."]) }
        var writer = YAMLToJSON()
        writer.write(node, depth: 0)
        if let problem = writer.problem { throw Invalid(messages: ["\(path): \(problem)"]) }
        let text = SourceText(bytes: writer.bytes)
        do {
            let parsed = try JSONParser.parse(text)
            return try ScriptSource(path: path, text: text, root: parsed.root, yamlPositions: writer.positions).refusingRepeated(parsed.duplicateKeys)
        } catch let error as JSONParseError {
            throw Invalid(messages: ["\(path): the YAML cannot be read as JSON data: \(error.message)"])
        }
    }

    /// The script, or `Invalid` when a key is repeated in an object: the later value would silently replace the
    /// earlier (a second `steps:` would drop every step of the first).
    private func refusingRepeated(_ duplicates: [DuplicateKey]) throws -> ScriptSource {
        guard !duplicates.isEmpty else { return self }
        throw Invalid(messages: duplicates.prefix(20).map { duplicate in
            let p = position(ofOffset: duplicate.offset)
            return "\(path):\(p.line):\(p.column): the key '\(duplicate.key)' appears twice in the same object (at \(duplicate.pointer)); give it once."
        })
    }

    private static func yamlMessage(_ error: YamlError, path: String) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let opening = context.flatMap { $0.text.isEmpty ? nil : "\($0.text) (line \($0.mark.line)): " } ?? ""
            return "\(path):\(mark.line):\(mark.column): not valid YAML: \(opening)\(problem)."
        default:
            return "\(path): not valid YAML: \(error)"
        }
    }

    /// Where the value at `offset` of the JSON text stands in the file.
    func position(ofOffset offset: Int) -> SourcePosition {
        if yamlPositions.isEmpty { return text.position(ofOffset: offset) }
        if let exact = yamlPositions[offset] { return exact }
        let before = yamlPositions.keys.filter { $0 <= offset }.max()
        return before.flatMap { yamlPositions[$0] } ?? SourcePosition(line: 1, column: 1)
    }

    /// "path:line:column".
    func place(_ node: JSONNode) -> String {
        let p = position(ofOffset: node.offset)
        return "\(path):\(p.line):\(p.column)"
    }

    /// The violations of the shipped `edit-script` schema, as "path:line:column: message" lines.
    func schemaProblems() throws -> [String] {
        let schema: Schema
        do { schema = try ShippedSchemas.schema(named: "edit-script") } catch {
            throw Invalid(messages: ["The shipped edit-script schema cannot be compiled: \(error)"])
        }
        return schema.validate(root).map { violation in
            let p = position(ofOffset: violation.instanceOffset)
            let at = violation.instancePointer.description.isEmpty ? "" : " (at \(violation.instancePointer))"
            return "\(path):\(p.line):\(p.column): \(violation.message)\(at)"
        }
    }
}

/// Writes a composed YAML document as compact JSON, recording where each value came from. Plain scalars
/// that YAML 1.2's core schema reads as null, booleans or numbers become those JSON values (`YAMLCoreScalar`:
/// not Yams' YAML 1.1 reading, in which `Yes` is true and `10:20:30` a number); every other scalar is a string.
/// (Hand-written because Yams decodes into Swift values, losing the marks that messages need.)
private struct YAMLToJSON {
    var bytes: [UInt8] = []
    var positions: [Int: SourcePosition] = [:]
    /// Set when the document is too deep or expands too far (aliases repeating aliases: a "billion laughs").
    var problem: String?

    static let maximumDepth = 256
    static let maximumBytes = 32 << 20

    mutating func write(_ node: Yams.Node, depth: Int) {
        guard problem == nil else { return }
        if depth > Self.maximumDepth { problem = "the script nests deeper than \(Self.maximumDepth) levels."; return }
        if bytes.count > Self.maximumBytes { problem = "the script expands to more than 32 MB (YAML aliases repeating aliases?)."; return }
        if let mark = node.mark { positions[bytes.count] = SourcePosition(line: mark.line, column: mark.column) }
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, let core = YAMLCoreScalar(plain: scalar.string) {
                switch core {
                case .null: append("null"); return
                case .bool(let bool): append(bool ? "true" : "false"); return
                case .integer(let digits): append(digits); return
                case .float(let float) where float.isFinite: append(String(float)); return
                case .float: break  // .inf and .nan have no JSON number: kept as the text written
                }
            }
            string(scalar.string)
        case .sequence(let sequence):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in sequence.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .mapping(let mapping):
            bytes.append(UInt8(ascii: "{"))
            for (index, pair) in mapping.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                if let mark = pair.key.mark { positions[bytes.count] = SourcePosition(line: mark.line, column: mark.column) }
                string(pair.key.string ?? "\(pair.key)")
                bytes.append(UInt8(ascii: ":"))
                write(pair.value, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    private mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case "\n": append("\\n")
            case "\r": append("\\r")
            case "\t": append("\\t")
            default:
                if scalar.value < 0x20 { append(String(format: "\\u%04x", scalar.value)) } else { append(String(scalar)) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
