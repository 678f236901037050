import Foundation
import FeatureServiceModel
import WebMap

/// An edit script (docs/edit-scripts.md), read and checked: the schema (unknown operations, wrong types), the
/// references (`$NAME...` must name a value saved by an earlier step) and the behaviours. A script that passes
/// these checks can run; one that does not is reported before anything is sent (exit 2).
public struct EditScript: Sendable {
    public struct Step: Sendable {
        /// 1-based.
        public var index: Int
        public var operation: String
        public var arguments: JSON
        public var save: String?
        public var expectFailure: String?
        /// "path:line:column" of the step.
        public var place: String
    }

    public var path: String
    public var service: String?
    /// The web map path, resolved against the script's folder.
    public var map: String?
    public var defaultVersionEdits: ServiceGeodatabase.DefaultVersionPolicy
    public var behaviours: [any EditBehaviour]
    public var steps: [Step]

    /// The folder holding the script (attachment files and the map are relative to it).
    public var directory: String { (path as NSString).deletingLastPathComponent }

    public static let operations = ["signIn", "fetchVersions", "createVersion", "switchVersion", "query", "addFeature", "updateAttributes",
                                    "moveFeature", "deleteFeature", "relate", "addAttachment", "deleteAttachment", "applyEdits",
                                    "undoLocalEdits", "expect", "expectLocalEdits"]

    /// Reads and checks the script at `path`; throws `EditScript.Invalid` listing every problem.
    public static func load(path: String) throws -> EditScript {
        let source: ScriptSource
        do { source = try ScriptSource.read(path: path) } catch let error as ScriptSource.Invalid { throw Invalid(problems: error.messages) }
        var problems: [String]
        do { problems = try source.schemaProblems() } catch let error as ScriptSource.Invalid { throw Invalid(problems: error.messages) }
        if !problems.isEmpty { throw Invalid(problems: problems) }
        let root = JSON(source.root)
        var steps: [Step] = []
        var saved: Set<String> = [EditScriptRunner.predefinedName]
        for (offset, node) in (source.root["steps"]?.array ?? []).enumerated() {
            let index = offset + 1
            let object = JSON(node)
            guard let operation = (object.objectMembers ?? []).map(\.0).first(where: operations.contains) else { continue }
            let place = source.place(node)
            for reference in references(in: object[operation] ?? .null) where !saved.contains(reference.name) {
                let hint = saved.isEmpty ? " No earlier step saves a value." : " Saved so far: \(saved.sorted().joined(separator: ", "))."
                problems.append("\(place): step \(index) (\(operation)) refers to '$\(reference.text)', but no earlier step has `save: \(reference.name)`.\(hint)")
            }
            // An attachment's file is looked for before anything runs, as the map is (a reference is resolved later).
            if operation == "addAttachment", let file = object[operation]?["file"]?.string, !file.contains("$") {
                let resolved = file.hasPrefix("/") ? file : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(file)
                var isDirectory: ObjCBool = false
                if !FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) || isDirectory.boolValue {
                    let at = node[operation]?["file"].map(source.place) ?? place
                    problems.append("\(at): step \(index) (addAttachment): the file '\(file)' \(isDirectory.boolValue ? "is a directory" : "does not exist") (looked for \(resolved)).")
                }
            }
            if let name = object["save"]?.string { saved.insert(name) }
            let expected = object["expectFailure"].map { $0.string ?? $0.int.map(String.init) ?? $0.text }
            steps.append(Step(index: index, operation: operation, arguments: object[operation] ?? .null, save: object["save"]?.string,
                              expectFailure: expected, place: place))
        }
        var behaviours: [any EditBehaviour] = []
        for entry in root["behaviours"]?.array ?? [] {
            if let c = entry["copyFromContaining"], let layer = c["layer"]?.string, let field = c["field"]?.string,
               let from = c["from"]?.string, let source = c["sourceField"]?.string {
                behaviours.append(CopyFromContaining(layer: layer, field: field, from: from, sourceField: source))
            } else if let c = entry["copyFromNewestRelated"], let layer = c["layer"]?.string, let relationship = c["relationship"]?.string,
                      let fields = c["fields"]?.array?.compactMap(\.string), let newestBy = c["newestBy"]?.string {
                behaviours.append(CopyFromNewestRelated(layer: layer, relationship: relationship, fields: fields, newestBy: newestBy))
            }
        }
        var mapPath: String?
        if let map = root["map"]?.string {
            let resolved = map.hasPrefix("/") ? map : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(map)
            if !FileManager.default.fileExists(atPath: resolved) {
                problems.append("\(source.place(source.root["map"]!)): the web map '\(map)' does not exist (looked for \(resolved)).")
            }
            mapPath = resolved
        }
        if !problems.isEmpty { throw Invalid(problems: problems) }
        return EditScript(path: path, service: root["service"]?.string, map: mapPath,
                          defaultVersionEdits: root["defaultVersionEdits"]?.string == "allow" ? .allow : .refuse,
                          behaviours: behaviours, steps: steps)
    }

    /// A script that cannot run: every problem, each "path:line:column: message".
    public struct Invalid: Error, CustomStringConvertible {
        public var problems: [String]
        public var description: String { problems.joined(separator: "\n") }
    }

    // MARK: References

    struct Reference {
        var name: String
        /// "hit.features.0.objectid" (without the `$`).
        var text: String
        var path: [String]
    }

    /// Every `$NAME.path` in the strings of `value` (whole values and inside longer strings).
    static func references(in value: JSON) -> [Reference] {
        switch value {
        case .string(let s): return references(inText: s)
        case .array(let items): return items.flatMap(references(in:))
        case .object(let members): return members.flatMap { references(in: $0.1) }
        default: return []
        }
    }

    static func references(inText text: String) -> [Reference] {
        var result: [Reference] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            guard chars[i] == "$", i + 1 < chars.count, chars[i + 1].isLetter || chars[i + 1] == "_" else { i += 1; continue }
            var j = i + 1
            while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || chars[j] == "." || chars[j] == "-" { j += 1 }
            var body = String(chars[(i + 1)..<j])
            while body.hasSuffix(".") { body.removeLast() }
            let parts = body.split(separator: ".").map(String.init)
            if let name = parts.first { result.append(Reference(name: name, text: body, path: Array(parts.dropFirst()))) }
            i = j
        }
        return result
    }
}
