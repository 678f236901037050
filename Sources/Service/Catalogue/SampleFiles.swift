import Foundation
import WebMap
import FeatureServiceModel

/// The files of one sample folder, wherever they are: a folder on disk, or a copy carried inside the
/// binary (`ShippedSamples`). `SampleFolder` (the catalogue loader) and the portal's web map items read
/// both through this one interface, by paths relative to the folder (`features/0.json`).
public struct SampleFiles: Sendable {
    private enum Storage: Sendable {
        case directory(String)
        /// Relative path → text.
        case embedded([String: String])
    }

    /// The folder's name (`TreesOfPortland`).
    public let name: String
    /// Where the files are, for messages and the catalogue: the folder's path, or `(built in)/<name>`.
    public let location: String
    private let storage: Storage

    /// The sample folder at `path` on disk.
    public static func folder(_ path: String) -> SampleFiles {
        SampleFiles(name: (path as NSString).lastPathComponent, location: path, storage: .directory(path))
    }

    /// A sample folder held in memory: `files` maps paths relative to the folder to their text.
    public static func embedded(name: String, files: [String: String]) -> SampleFiles {
        SampleFiles(name: name, location: "(built in)/\(name)", storage: .embedded(files))
    }

    /// True for a copy carried in memory rather than read from disk.
    public var isEmbedded: Bool {
        if case .embedded = storage { return true }
        return false
    }

    /// The names of the files at the top of the folder, sorted; nil when the folder cannot be read.
    public func topLevelFileNames() -> [String]? {
        switch storage {
        case .directory(let path):
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
            return names.filter { !directoryExists(path: (path as NSString).appendingPathComponent($0)) }.sorted()
        case .embedded(let files):
            return files.keys.filter { !$0.contains("/") }.sorted()
        }
    }

    /// True when the folder holds the file `relativePath`.
    public func contains(_ relativePath: String) -> Bool {
        switch storage {
        case .directory(let path):
            let full = (path as NSString).appendingPathComponent(relativePath)
            return FileManager.default.fileExists(atPath: full) && !directoryExists(path: full)
        case .embedded(let files):
            return files[relativePath] != nil
        }
    }

    /// The text of the file `relativePath`; errors name the file and the reason.
    public func text(_ relativePath: String) throws(DocumentError) -> SourceText {
        switch storage {
        case .directory:
            return try SourceFile.read(path: path(of: relativePath)).text
        case .embedded(let files):
            guard let text = files[relativePath] else { throw DocumentError(path: path(of: relativePath), message: "no such file") }
            return SourceText(string: text)
        }
    }

    /// The bytes of the file `relativePath`, or nil when it cannot be read.
    public func data(_ relativePath: String) -> Data? {
        switch storage {
        case .directory:
            return FileManager.default.contents(atPath: path(of: relativePath))
        case .embedded(let files):
            return files[relativePath].map { Data($0.utf8) }
        }
    }

    /// When the file was last changed: its modification date on disk; nil for a built-in copy.
    public func modificationDate(of relativePath: String) -> Date? {
        guard case .directory = storage else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: path(of: relativePath)))?[.modificationDate] as? Date
    }

    /// The path of `relativePath` for messages (below `location`).
    public func path(of relativePath: String) -> String {
        (location as NSString).appendingPathComponent(relativePath)
    }

    private func directoryExists(path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
