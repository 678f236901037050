import Foundation
import WebMap

extension ShippedSchemas {
    /// The names `maprules validate --schema` accepts, in the order `--help` lists them.
    public static let names = ["webmap", "popup", "layer", "services-snapshot", "config", "report", "edit-script"]

    /// `names` separated by commas, for help texts and messages. A loop rather than `joined(separator:)`:
    /// `validate`'s help is built at every start of the CLI, and the stdlib's unspecialized `joined` costs
    /// two runtime protocol-conformance scans there (about 0.2 ms of the static binary's start-up).
    public static var nameList: String {
        var list = ""
        for name in names { list += list.isEmpty ? name : ", " + name }
        return list
    }

    /// The `$id` of a shipped schema (`https://maprules.dev/schemas/webmap.schema.json`), nil for an unknown name.
    public static func uri(of name: String) -> String? {
        guard let text = texts[name] else { return nil }
        return (try? JSONParser.parse(text).root["$id"]?.string) ?? "https://maprules.dev/schemas/\(name).schema.json"
    }

    /// A new registry holding every shipped schema under its `$id` (so they can refer to one another, and a
    /// user's schema can `$ref` them), asking `loader` for anything else.
    public static func registry(loader: (any SchemaLoader)? = nil) throws -> SchemaRegistry {
        let registry = SchemaRegistry(loader: loader)
        for name in texts.keys.sorted() {
            guard let text = texts[name] else { continue }
            let root = try SchemaFiles.parse(SourceText(string: text), name: "Schemas/\(name).schema.json")
            try registry.add(root, uri: root["$id"]?.string ?? "https://maprules.dev/schemas/\(name).schema.json")
        }
        return registry
    }

    private static let shared: Result<SchemaRegistry, SchemaError> = {
        do { return .success(try registry()) } catch let error as SchemaError { return .failure(error) } catch {
            return .failure(SchemaError(location: "Schemas/", message: "\(error)"))
        }
    }()

    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var cache: [String: Schema] = [:]

    /// The compiled shipped schema `name`, compiled once per process and shared (validation is thread-safe).
    public static func schema(named name: String) throws -> Schema {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let cached = cache[name] { return cached }
        guard let uri = uri(of: name) else {
            throw SchemaError(location: name, message: "no shipped schema is called '\(name)' (known: \(names.joined(separator: ", ")))")
        }
        let schema = try shared.get().schema(uri)
        cache[name] = schema
        return schema
    }
}

/// What `maprules validate --schema` names: a shipped schema or a schema file.
public enum SchemaArgument {
    /// Compiles `argument`: the name of a shipped schema (`webmap`, `popup`...) unless a file of that name
    /// exists, otherwise the path of a schema file. A file's relative `$ref`s resolve to files beside it, the
    /// shipped schemas resolve by their `$id`, and `refDirectories` map any other URL to local files.
    public static func load(_ argument: String, refDirectories: [String] = []) throws -> Schema {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
        if ShippedSchemas.texts[argument] != nil && !exists {
            if refDirectories.isEmpty { return try ShippedSchemas.schema(named: argument) }
            let registry = try ShippedSchemas.registry(loader: RefDirectories(refDirectories))
            return try registry.schema(ShippedSchemas.uri(of: argument) ?? argument)
        }
        guard exists, !isDirectory.boolValue else {
            throw SchemaError(location: argument, message: isDirectory.boolValue
                ? "is a directory, not a schema file"
                : "no such schema file, and no shipped schema of that name (shipped: \(ShippedSchemas.nameList))")
        }
        let loader = CombinedLoader([LocalFiles(), RefDirectories(refDirectories)])
        let registry = try ShippedSchemas.registry(loader: loader)
        return try registry.compile(try SchemaFiles.read(path: argument), uri: SchemaFiles.fileURI(path: argument))
    }

    /// The report kind of files validated against `argument`: `webmap` and `popup` for those schemas.
    public static func reportKind(of argument: String) -> String {
        ["webmap", "popup"].contains(argument) ? argument : "json"
    }
}
