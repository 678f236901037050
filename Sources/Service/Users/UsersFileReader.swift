import Foundation
import WebMap
import Yams
import FeatureServiceModel

/// Reads a users file, JSON or YAML, into `UsersFile` with error messages that name the file and,
/// where the parser knows it, the line (`users.yaml:7: ...`).
///
/// The format is chosen by the extension (`.json`; `.yaml` or `.yml`); any other extension is read as
/// JSON when the first character that is not white space is `{`, else as YAML. Both formats are turned
/// into one small tree whose nodes know their line, and that tree is checked once, so a mistake gets the
/// same message in either format.
enum UsersFileReader {
    enum Format { case json, yaml }

    /// One value of the file and the line it starts on (nil when unknown).
    struct Node {
        enum Value {
            case string(String)
            case list([Node])
            case mapping([(key: String, line: Int?, value: Node)])
            case other(String)
        }
        var value: Value
        var line: Int?

        var typeName: String {
            switch value {
            case .string: return "a string"
            case .list: return "a list"
            case .mapping: return "an object"
            case .other(let name): return name
            }
        }

        subscript(key: String) -> Node? {
            guard case .mapping(let members) = value else { return nil }
            return members.last { $0.key == key }?.value
        }
    }

    static let shape = #"{"users": [{"username", "passwordHash", "role", "ownedServices"}]}"#

    static func format(path: String, text: String) -> Format {
        switch (path as NSString).pathExtension.lowercased() {
        case "json": return .json
        case "yaml", "yml": return .yaml
        default:
            let first = text.unicodeScalars.first { !CharacterSet.whitespacesAndNewlines.contains($0) && $0 != "\u{FEFF}" }
            return first == "{" ? .json : .yaml
        }
    }

    static func read(path: String) throws -> UsersFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ServiceError.invalidParameter("\(path): cannot read the users file: \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ServiceError.invalidParameter("\(path) is not a valid users file (\(shape)): it is not UTF-8 text.")
        }
        return try read(text: text, path: path)
    }

    /// Parses and checks the text of a users file; `path` names it in errors and, by its extension, may
    /// say the format.
    static func read(text: String, path: String) throws -> UsersFile {
        let format = format(path: path, text: text)
        let root = try format == .json ? parseJSON(text, path: path) : parseYAML(text, path: path)
        return try decode(root, path: path)
    }

    // MARK: Parsing

    private static func parseJSON(_ text: String, path: String) throws -> Node {
        let source = SourceText(string: text)
        let parsed: ParsedJSON
        do {
            parsed = try JSONParser.parse(source)
        } catch {
            let line = source.position(ofOffset: error.offset).line
            throw ServiceError.invalidParameter("\(path):\(line): not a valid users file (\(shape)): \(error.message)")
        }
        func convert(_ node: JSONNode) -> Node {
            let line = source.position(ofOffset: node.offset).line
            switch node.value {
            case .string(let s): return Node(value: .string(s), line: line)
            case .array(let items): return Node(value: .list(items.map(convert)), line: line)
            case .object(let object):
                return Node(value: .mapping(object.members.map { ($0.key, source.position(ofOffset: $0.keyOffset).line, convert($0.value)) }), line: line)
            default: return Node(value: .other(node.isNull ? "null" : "a \(node.typeName)"), line: line)
            }
        }
        return convert(parsed.root)
    }

    private static func parseYAML(_ text: String, path: String) throws -> Node {
        guard YAMLNesting.upperBound(of: text) <= YAMLNesting.limit else {
            throw ServiceError.invalidParameter("\(path) is not a valid users file (\(shape)): it nests deeper than \(YAMLNesting.limit) levels (or is indented more than \(YAMLNesting.limit) columns).")
        }
        let composed: Yams.Node?
        do {
            composed = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ServiceError.invalidParameter(yamlMessage(error, path: path))
        } catch {
            throw ServiceError.invalidParameter("\(path) is not a valid users file (\(shape)): \(error)")
        }
        guard let composed else {
            throw ServiceError.invalidParameter("\(path) is not a valid users file (\(shape)): the file is empty.")
        }
        func convert(_ node: Yams.Node) -> Node {
            let line = node.mark?.line
            switch node {
            case .scalar(let scalar):
                // Plain scalars that YAML reads as null, booleans or numbers are not strings.
                // YAML 1.2's core schema, as edit scripts are read: `Yes` and `10:20:30` are strings there.
                if scalar.style == .plain, let core = YAMLCoreScalar(plain: scalar.string) {
                    switch core {
                    case .null: return Node(value: .other("null"), line: line)
                    case .bool: return Node(value: .other("a boolean"), line: line)
                    case .integer, .float: return Node(value: .other("a number"), line: line)
                    }
                }
                return Node(value: .string(scalar.string), line: line)
            case .sequence(let sequence):
                return Node(value: .list(sequence.map(convert)), line: line)
            case .mapping(let mapping):
                return Node(value: .mapping(mapping.map { key, value in (key.string ?? "\(key)", key.mark?.line, convert(value)) }), line: line)
            }
        }
        return convert(composed)
    }

    /// `path:line: not a valid users file (...): problem` from a Yams error.
    private static func yamlMessage(_ error: YamlError, path: String) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            // "while parsing a flow sequence (line 3): did not find expected ',' or ']'"
            let opening = context.flatMap { $0.text.isEmpty ? nil : "\($0.text) (line \($0.mark.line)): " } ?? ""
            let what = opening + problem
            return "\(path):\(mark.line): not a valid users file (\(shape)): \(what)."
        default:
            return "\(path) is not a valid users file (\(shape)): \(error)"
        }
    }

    // MARK: Checking

    private static func decode(_ root: Node, path: String) throws -> UsersFile {
        func fail(_ node: Node?, _ message: String) -> ServiceError {
            let place = node?.line.map { "\(path):\($0)" } ?? path
            return ServiceError.invalidParameter("\(place): not a valid users file (\(shape)): \(message)")
        }
        guard case .mapping = root.value else { throw fail(root, "the file holds \(root.typeName), not an object with \"users\".") }
        guard let usersNode = root["users"] else { throw fail(root, "\"users\" is missing.") }
        guard case .list(let items) = usersNode.value else { throw fail(usersNode, "\"users\" must be a list, not \(usersNode.typeName).") }
        var users: [UsersFile.Entry] = []
        var seen: [String: Int?] = [:]
        for (index, item) in items.enumerated() {
            guard case .mapping = item.value else { throw fail(item, "users[\(index)] must be an object, not \(item.typeName).") }
            func string(_ key: String) throws -> String {
                guard let node = item[key] else { throw fail(item, "users[\(index)] has no \"\(key)\".") }
                guard case .string(let value) = node.value else { throw fail(node, "\"\(key)\" of users[\(index)] must be a string, not \(node.typeName).") }
                return value
            }
            let username = try string("username")
            let hash = try string("passwordHash")
            let roleText = try string("role")
            guard let role = Role(rawValue: roleText) else {
                throw fail(item["role"], "the role of '\(username)' must be one of \(Role.allCases.map(\.rawValue).joined(separator: ", ")), not '\(roleText)'.")
            }
            var owned: [String]?
            if let node = item["ownedServices"] {
                switch node.value {
                case .list(let names):
                    owned = try names.map { name in
                        guard case .string(let value) = name.value else {
                            throw fail(name, "\"ownedServices\" of '\(username)' must list service names, not \(name.typeName).")
                        }
                        return value
                    }
                case .other("null"): owned = nil
                default: throw fail(node, "\"ownedServices\" of '\(username)' must be a list, not \(node.typeName).")
                }
            }
            let place = item.line.map { "\(path):\($0)" } ?? path
            if let first = seen[username.lowercased()] {
                let earlier = first.map { " (first on line \($0))" } ?? ""
                throw ServiceError.invalidParameter("\(place): the user '\(username)' is declared twice\(earlier).")
            }
            seen[username.lowercased()] = item.line
            guard hash.hasPrefix("$2") else {
                let line = item["passwordHash"]?.line.map { "\(path):\($0)" } ?? place
                throw ServiceError.invalidParameter("\(line): the password of '\(username)' must be a bcrypt hash, never clear text.")
            }
            users.append(UsersFile.Entry(username: username, passwordHash: hash, role: role, ownedServices: owned))
        }
        return UsersFile(users: users)
    }
}
