import Foundation
import WebMap

/// Reading `.maprules.json`: found upward from a linted file, or named with `--config`.
/// Shape (see `Schemas/config.schema.json`):
/// `{"rules": {ID: "off"|"info"|"warning"|"error"}, "overrides": [{"files": [glob], "layers": [id or title],
/// "rules": {...}}], "variables": {NAME: VALUE}, "offline": true|false}`.
public enum ConfigurationFile {
    public static let fileName = ".maprules.json"

    /// Loads and checks a configuration file.
    public static func load(path: String) throws(ConfigurationError) -> RuleConfiguration {
        let text: SourceText
        do { text = try SourceFile.read(path: path).text } catch { throw ConfigurationError(path: path, message: error.message) }
        let root: JSONNode
        do { root = try JSONParser.parse(text).root } catch {
            throw ConfigurationError(path: path, position: text.position(ofOffset: error.offset), message: "not valid JSON: \(error.message)")
        }
        func fail(_ node: JSONNode, _ message: String) -> ConfigurationError {
            ConfigurationError(path: path, position: text.position(ofOffset: node.offset), message: message)
        }
        guard let object = root.object else { throw fail(root, "the configuration must be a JSON object") }
        let allowed = ["$schema", "rules", "overrides", "variables", "offline"]
        for member in object.members where !allowed.contains(member.key) {
            throw ConfigurationError(path: path, position: text.position(ofOffset: member.keyOffset),
                                     message: "unknown key '\(member.key)' (expected one of \(allowed.joined(separator: ", ")))")
        }
        func positions(_ node: JSONNode?) -> [String: SourcePosition] {
            var result: [String: SourcePosition] = [:]
            for member in node?.object?.members ?? [] where result[member.key] == nil {
                result[member.key] = text.position(ofOffset: member.keyOffset)
            }
            return result
        }
        func settings(_ node: JSONNode?) throws(ConfigurationError) -> [String: RuleSetting] {
            guard let node else { return [:] }
            guard let object = node.object else { throw fail(node, "'rules' must be an object mapping rule IDs to off, info, warning or error") }
            var result: [String: RuleSetting] = [:]
            for member in object.members {
                guard let text = member.value.string, let setting = RuleSetting(text) else {
                    throw fail(member.value, "the setting of '\(member.key)' must be \"off\", \"info\", \"warning\" or \"error\"")
                }
                result[member.key] = setting
            }
            return result
        }
        func strings(_ node: JSONNode?, _ name: String) throws(ConfigurationError) -> [String] {
            guard let node else { return [] }
            guard let array = node.array else { throw fail(node, "'\(name)' must be an array of strings") }
            var result: [String] = []
            for element in array {
                guard let s = element.string else { throw fail(element, "'\(name)' must hold strings only") }
                result.append(s)
            }
            return result
        }
        var overrides: [RuleConfiguration.Override] = []
        if let list = object["overrides"] {
            guard let array = list.array else { throw fail(list, "'overrides' must be an array") }
            for entry in array {
                guard let o = entry.object else { throw fail(entry, "each override must be an object") }
                for member in o.members where !["files", "layers", "rules"].contains(member.key) {
                    throw ConfigurationError(path: path, position: text.position(ofOffset: member.keyOffset),
                                             message: "unknown key '\(member.key)' in an override (expected files, layers, rules)")
                }
                overrides.append(.init(files: try strings(o["files"], "files"), layers: try strings(o["layers"], "layers"),
                                       rules: try settings(o["rules"]), rulePositions: positions(o["rules"])))
            }
        }
        var variables: [String: String] = [:]
        if let vars = object["variables"] {
            guard let o = vars.object else { throw fail(vars, "'variables' must be an object of strings") }
            for member in o.members {
                guard let s = member.value.string else { throw fail(member.value, "variable '\(member.key)' must be a string") }
                variables[member.key] = s
            }
        }
        var offline = false
        if let node = object["offline"] {
            guard let value = node.bool else { throw fail(node, "'offline' must be true or false") }
            offline = value
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var configuration = RuleConfiguration(baseDirectory: folder, rules: try settings(object["rules"]), overrides: overrides,
                                              variables: variables, path: path)
        configuration.offline = offline
        configuration.rulePositions = positions(object["rules"])
        return configuration
    }

    /// The nearest `.maprules.json` in the folder of `path` or above, if any.
    public static func find(from path: String) -> String? {
        var folder = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        if !(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            folder.deleteLastPathComponent()
        }
        for _ in 0..<256 {
            let candidate = folder.appendingPathComponent(fileName).path
            // A regular file (or a link to one): a FIFO of that name would make the read wait forever.
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
        return nil
    }
}
