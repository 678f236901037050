import Foundation

/// A services snapshot: one JSON object mapping normalised layer (and service root) URLs to the metadata
/// the service returned, so that maps lint offline and identically in CI.
public struct ServicesSnapshot: Sendable {
    public var path: String
    public var entries: [String: JSONNode]

    public init(path: String, root: JSONNode) throws(DocumentError) {
        guard let object = root.object else {
            throw DocumentError(path: path, message: "a services snapshot must be a JSON object mapping layer URLs to their metadata, found \(root.typeName)")
        }
        self.path = path
        var entries: [String: JSONNode] = [:]
        for member in object.members where member.value.object != nil {
            entries[ServiceURL.normalize(member.key)] = member.value
        }
        self.entries = entries
        layers = entries.mapValues(LayerMetadata.init)
        roots = entries.filter { $0.value["layers"] != nil || $0.value["tables"] != nil }.mapValues(ServiceRootMetadata.init)
    }

    /// Reads and parses a snapshot file.
    public static func load(path: String) throws(DocumentError) -> ServicesSnapshot {
        let file = try SourceFile.read(path: path)
        do {
            let parsed = try JSONParser.parse(file.text)
            return try ServicesSnapshot(path: path, root: parsed.root)
        } catch let error as JSONParseError {
            let position = file.text.position(ofOffset: error.offset)
            throw DocumentError(path: path, message: "services snapshot is not valid JSON at \(position): \(error.message)")
        } catch let error as DocumentError {
            throw error
        } catch {
            throw DocumentError(path: path, message: "\(error)")
        }
    }

    /// Layer metadata read once per snapshot, not once per map that uses it.
    private var layers: [String: LayerMetadata] = [:]

    public func layer(url: String) -> LayerMetadata? {
        layers[ServiceURL.normalize(url)]
    }

    public func serviceRoot(url: String) -> ServiceRootMetadata? {
        roots[ServiceURL.normalize(url)]
    }

    private var roots: [String: ServiceRootMetadata] = [:]

    /// The default snapshot files for a map: `<map>.services.json`, then `services.json` in its folder.
    public static func defaultPaths(forMap mapPath: String) -> [String] {
        let url = URL(fileURLWithPath: mapPath)
        let folder = url.deletingLastPathComponent()
        let base = url.deletingPathExtension().lastPathComponent
        return [folder.appendingPathComponent(base + ".services.json").path, folder.appendingPathComponent("services.json").path]
    }
}

/// A file that could not be read or is not what it should be; `description` says which and why.
public struct DocumentError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
