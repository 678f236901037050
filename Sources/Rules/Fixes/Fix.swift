import WebMap

/// A value a JSON Patch operation sets: a string or a boolean, or (for fixes that move elements, such as
/// `form/nested-group`) any JSON value.
public enum PatchValue: Sendable, Hashable, Codable {
    case string(String)
    case bool(Bool)
    case json(JSON)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else { self = .json(try container.decode(JSON.self)) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(jsonText)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let s): try container.encode(s)
        case .bool(let b): try container.encode(b)
        case .json(let value): try container.encode(value)
        }
    }

    /// The value as JSON text, as a fix writes it into the file.
    public var jsonText: String {
        switch self {
        case .string(let s): return JSONText.string(s)
        case .bool(let b): return b ? "true" : "false"
        case .json(let value): return value.text
        }
    }
}

/// One RFC 6902 JSON Patch operation (only the three the fixes need).
public struct PatchOperation: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable { case add, remove, replace }

    public var op: Kind
    /// RFC 6901 pointer of the target.
    public var path: String
    /// The value of `add` and `replace`; nil for `remove`.
    public var value: PatchValue?

    public init(op: Kind, path: String, value: PatchValue? = nil) {
        self.op = op
        self.path = path
        self.value = value
    }
}

/// A change to the file's text: the bytes `offset ..< offset + length` replaced by `text`, with the line and
/// column (Unicode scalars, 1-based) where the replaced range starts and ends, for SARIF and editors.
public struct TextEdit: Sendable, Hashable, Codable {
    public var offset: Int
    public var length: Int
    public var text: String
    public var start: SourcePosition
    /// The position just after the replaced range (equal to `start` for an insertion).
    public var end: SourcePosition

    public init(offset: Int, length: Int, text: String, start: SourcePosition, end: SourcePosition) {
        self.offset = offset
        self.length = length
        self.text = text
        self.start = start
        self.end = end
    }

    public var range: Range<Int> { offset..<(offset + length) }
}

/// The fix of a diagnostic, when it is unambiguous: what it does, as a JSON Patch against the file as it was
/// linted, and as the minimal text edits that make the same change while keeping the rest of the file
/// byte for byte (formatting, key order, other values).
///
/// Each diagnostic's patch stands alone, relative to the file as linted (two `remove`s in one array are two
/// patches, each with its original index). Equality and hashing compare `description` and `patch`: the
/// edits are where that patch lands in one particular text, and the JSON report (which decodes back to a
/// `LintReport`) writes only the patch.
public struct Fix: Sendable, Codable {
    public var description: String
    public var patch: [PatchOperation]
    public var edits: [TextEdit]

    public init(description: String, patch: [PatchOperation], edits: [TextEdit]) {
        self.description = description
        self.patch = patch
        self.edits = edits
    }

    private enum CodingKeys: String, CodingKey { case description, patch, edits }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        description = try container.decode(String.self, forKey: .description)
        patch = try container.decode([PatchOperation].self, forKey: .patch)
        edits = try container.decodeIfPresent([TextEdit].self, forKey: .edits) ?? []
    }
}

extension Fix: Hashable {
    public static func == (lhs: Fix, rhs: Fix) -> Bool { lhs.description == rhs.description && lhs.patch == rhs.patch }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
        hasher.combine(patch)
    }
}

/// JSON text for values a fix writes.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, everything else
    /// (non-ASCII included) as it is.
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
