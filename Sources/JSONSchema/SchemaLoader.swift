import Foundation
import WebMap

/// Supplies schema documents that a `$ref` (or `$schema`) names but the registry does not hold yet. Remote
/// references are never fetched over the network: loaders map URIs to local files.
public protocol SchemaLoader: Sendable {
    /// The document at `uri` (absolute, without fragment), or nil when this loader does not have it.
    func load(uri: String) throws -> JSONNode?
}

/// Maps URLs to files below local folders by their path (`maprules validate --ref-dir DIR`): a reference to
/// `http://localhost:1234/draft2020-12/integer.json` is read from `DIR/draft2020-12/integer.json`, or failing
/// that from `DIR/integer.json` (the longest path suffix that exists wins). `file:` URIs are read directly.
public struct RefDirectories: SchemaLoader {
    public var directories: [String]

    public init(_ directories: [String]) { self.directories = directories }

    public func load(uri: String) throws -> JSONNode? {
        let reference = URIReference(uri)
        let path = URIReference.percentDecoded(reference.path)
        if reference.scheme == "file" {
            return FileManager.default.fileExists(atPath: path) ? try SchemaFiles.read(path: path, uri: uri) : nil
        }
        let components = path.split(separator: "/").map(String.init)
        guard !components.isEmpty else { return nil }
        for directory in directories {
            for start in components.indices {
                let candidate = ([directory] + components[start...]).joined(separator: "/")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return try SchemaFiles.read(path: candidate, uri: uri)
                }
            }
        }
        return nil
    }
}

/// Reads local `file:` URIs only (the default for schemas given as files: their relative `$ref`s resolve to
/// files beside them).
public struct LocalFiles: SchemaLoader {
    public init() {}

    public func load(uri: String) throws -> JSONNode? {
        let reference = URIReference(uri)
        guard reference.scheme == "file" else { return nil }
        let path = URIReference.percentDecoded(reference.path)
        return FileManager.default.fileExists(atPath: path) ? try SchemaFiles.read(path: path, uri: uri) : nil
    }
}

/// Tries loaders in order.
public struct CombinedLoader: SchemaLoader {
    public var loaders: [any SchemaLoader]

    public init(_ loaders: [any SchemaLoader]) { self.loaders = loaders }

    public func load(uri: String) throws -> JSONNode? {
        for loader in loaders {
            if let found = try loader.load(uri: uri) { return found }
        }
        return nil
    }
}

/// Reading schema files with errors that say where.
public enum SchemaFiles {
    /// Parses the file at `path`; `uri` names it in errors.
    public static func read(path: String, uri: String? = nil) throws -> JSONNode {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SchemaError(location: uri ?? path, message: "cannot read \(path)")
        }
        return try parse(SourceText(bytes: [UInt8](data)), name: uri ?? path)
    }

    /// Parses schema text; `name` names it in errors.
    public static func parse(_ text: SourceText, name: String) throws -> JSONNode {
        do {
            return try JSONParser.parse(text).root
        } catch {
            let position = text.position(ofOffset: error.offset)
            throw SchemaError(location: name, message: "not valid JSON at line \(position.line), column \(position.column): \(error.message)")
        }
    }

    /// The `file:` URI of a local path (made absolute against the current directory).
    public static func fileURI(path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let standardized = URIReference.removeDotSegments(absolute)
        let escaped = standardized.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? standardized
        return "file://" + escaped
    }
}
