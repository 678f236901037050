import WebMap

/// What a rule says about itself: read by `maprules rules`, `maprules explain`, SARIF's `rules[]`, and the
/// example tests. Nothing about a rule lives anywhere but in its type.
public struct RuleDescription: Sendable {
    /// Stable `family/name` identifier.
    public var id: String
    public var severity: Severity
    /// One line.
    public var summary: String
    /// Why it matters: what the field app does because of it.
    public var rationale: String
    /// How to fix it.
    public var fix: String
    /// Documents that must trigger the rule.
    public var triggeringExamples: [RuleExample]
    /// Documents that must not trigger the rule.
    public var nonTriggeringExamples: [RuleExample]

    public init(id: String, severity: Severity, summary: String, rationale: String, fix: String,
                triggeringExamples: [RuleExample], nonTriggeringExamples: [RuleExample]) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.fix = fix
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }

    /// "popup" for "popup/unknown-field".
    public var family: String { String(id.split(separator: "/").first ?? "") }
}

/// An example input of a rule.
public enum RuleExample: Sendable {
    /// A document (usually a web map) as file text, with the services snapshot that resolves its layers, and
    /// the `--var` variables in force.
    case document(String, services: String? = nil, variables: [String: String] = [:])
    /// A document given as raw bytes, for input a Swift `String` cannot hold (invalid UTF-8, other encodings).
    case bytes([UInt8])
    /// A version name as typed, with its owner and the qualified names that already exist.
    case versionName(String, owner: String = "editor01", existing: [String] = [], access: String = "public")

    /// The example as a reader sees it in `maprules explain`.
    public var displayText: String {
        switch self {
        case .document(let text, let services, let variables):
            var out = text
            if let services { out += "\n\nwith services snapshot:\n" + services }
            if !variables.isEmpty {
                out += "\n\nwith " + variables.sorted { $0.key < $1.key }.map { "--var \($0.key)=\($0.value)" }.joined(separator: " ")
            }
            return out
        case .bytes(let bytes):
            return Self.escaped(bytes)
        case .versionName(let name, let owner, let existing, let access):
            // The owner as typed when it is plain text, quoted and escaped when it is empty or holds what a
            // reader would not see.
            let plainOwner = !owner.isEmpty && owner.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x21 && $0.value < 0x7F }
            var out = "version name \(String(reflecting: name)) (owner \(plainOwner ? owner : String(reflecting: owner)), access \(access))"
            if !existing.isEmpty { out += ", existing: " + existing.joined(separator: ", ") }
            return out
        }
    }

    /// `bytes` as text, with every byte that is not part of a valid UTF-8 sequence (and a byte-order mark)
    /// written as `\xNN`.
    static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00..<0x80: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            if length > 0, index + length <= bytes.count, let scalar = Self.scalar(bytes[index..<(index + length)]) {
                if scalar == "\u{FEFF}" {
                    // A byte-order mark is invisible: show its bytes.
                    out += "\\xEF\\xBB\\xBF"
                } else {
                    out.unicodeScalars.append(scalar)
                }
                index += length
            } else {
                out += "\\x" + String(lead, radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return out
    }

    /// The scalar `bytes` encode when they are exactly one well-formed UTF-8 sequence.
    static func scalar(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), UTF8.width(scalar) == bytes.count else { return nil }
        return scalar
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// Any rule: a type with a description.
public protocol Rule {
    static var description: RuleDescription { get }
}

/// A rule about the document itself (`json/`): runs on every file, parsed or not.
public protocol DocumentRule: Rule {
    static func check(_ context: LintContext)
}

/// A rule about a web map: runs once the file has parsed as a map.
public protocol MapRule: Rule {
    static func check(_ context: MapContext)
}

/// A rule about a version name: answers a message when `candidate` violates it, nil otherwise.
public protocol VersionRule: Rule {
    static func violation(in candidate: VersionCandidate) -> String?
}

/// A version name to check, with what the check may need to know.
public struct VersionCandidate: Sendable {
    public var name: String
    public var owner: String?
    /// Qualified names that already exist (the service knows them; `maprules version-name` does not).
    public var existingNames: [String]
    public var access: String?

    public init(name: String, owner: String? = nil, existingNames: [String] = [], access: String? = nil) {
        self.name = name
        self.owner = owner
        self.existingNames = existingNames
        self.access = access
    }

    /// `owner.name`, as the service stores it.
    public var qualifiedName: String { owner.map { "\($0).\(name)" } ?? name }
}
