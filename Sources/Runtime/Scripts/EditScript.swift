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
        public private(set) var operation: String
        /// The operation's arguments as written (`$NAME` references not yet resolved).
        public private(set) var arguments: JSON
        public var save: String?
        public var expectFailure: String?
        /// "path:line:column" of the step.
        public var place: String
        /// The operation, read from `arguments` as written.
        let written: any ScriptOperation
        /// True when `arguments` hold `$NAME` references (then the operation is read again when the step runs).
        let hasReferences: Bool

        /// The operation to run: as written, or, when it refers to saved values, read again with them in place
        /// (`script/reference` when a value it names was not saved).
        func action(with saved: [String: JSON]) throws -> any ScriptOperation {
            guard hasReferences else { return written }
            return type(of: written).init(arguments: try ScriptValues.substitute(arguments, saved: saved, place: place))
        }
    }

    public var path: String
    public var service: String?
    /// The web map path, resolved against the script's folder.
    public var map: String?
    public var defaultVersionEdits: ServiceGeodatabase.DefaultVersionPolicy
    public var behaviours: [any EditBehaviour]
    public var steps: [Step]

    /// The folder holding the script (attachment files and the map are relative to it).
    public var directory: String { Self.directory(of: path) }

    static func directory(of path: String) -> String { (path as NSString).deletingLastPathComponent }

    /// The operations' keys, in the order of edit-scripts.md's table (`ScriptOperationCatalog`).
    public static let operations = ScriptOperationCatalog.all.map { $0.name }

    /// `path` as written in a script (absolute, or relative to the script's folder `directory`).
    static func resolve(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
    }

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
            guard let kind = (object.objectMembers ?? []).lazy.compactMap({ ScriptOperationCatalog.operation(named: $0.0) }).first else { continue }
            let operation = kind.name
            let arguments = object[operation] ?? .null
            let place = source.place(node)
            let used = references(in: arguments)
            for reference in used where !saved.contains(reference.name) {
                let hint = saved.isEmpty ? " No earlier step saves a value." : " Saved so far: \(saved.sorted().joined(separator: ", "))."
                problems.append("\(place): step \(index) (\(operation)) refers to '$\(reference.text)', but no earlier step has `save: \(reference.name)`.\(hint)")
            }
            problems += kind.problems(in: WrittenStep(index: index, arguments: arguments, node: node, source: source, directory: directory(of: path)))
            if let name = object["save"]?.string { saved.insert(name) }
            let expected = object["expectFailure"].map { $0.string ?? $0.int.map(String.init) ?? $0.text }
            steps.append(Step(index: index, operation: operation, arguments: arguments, save: object["save"]?.string,
                              expectFailure: expected, place: place, written: kind.init(arguments: arguments), hasReferences: !used.isEmpty))
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
            let resolved = resolve(map, in: directory(of: path))
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
