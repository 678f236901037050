import Foundation
import WebMap

/// A file to lint: where it is on disk, how reports name it, and whether the user named it.
public struct LintTarget: Sendable, Hashable {
    public var path: String
    public var displayPath: String
    public var isExplicit: Bool
    /// The path as the system knows it when it is not UTF-8 (`path` and `displayPath` then show the bytes
    /// that are not as `\xNN`).
    public var rawPath: [UInt8]?

    public init(path: String, displayPath: String, isExplicit: Bool, rawPath: [UInt8]? = nil) {
        self.path = path
        self.displayPath = displayPath
        self.isExplicit = isExplicit
        self.rawPath = rawPath
    }
}

/// Turns the paths a user gave into files: named files as they are, directories walked recursively for
/// `*.json` (snapshot files `*.services.json`, hidden folders and `.build` left out), in a stable order.
public enum FileDiscovery {
    public struct Result: Sendable {
        public var targets: [LintTarget]
        /// Files inside directories that could not be read (broken links, no permission), with the reason.
        public var skipped: [(path: String, reason: String)]
        /// Each directory given, with every candidate file found under it (also those another path found first).
        public var directories: [(path: String, files: [String])] = []

        /// The directories given under which no file was linted: no web map (nor broken JSON that may be
        /// one) was found there. `reports` are the reports of `targets`.
        public func directoriesWithoutMaps(reports: [FileReport]) -> [String] {
            let reported = Set(reports.map(\.path))
            return directories.filter { !$0.files.contains(where: reported.contains) }.map(\.path)
        }
    }

    public static func targets(for paths: [String]) throws(DocumentError) -> Result {
        var targets: [LintTarget] = []
        var skipped: [(String, String)] = []
        var directories: [(String, [String])] = []
        // Files already taken, by device and inode: `map.json` and `./map.json`, or a folder and a file in it
        // both named, are one file, linted once.
        var seen = Set<String>()
        func isNew(_ path: String, raw: [UInt8]? = nil) -> Bool {
            var info = stat()
            let found = raw.map { stat(($0 + [0]).map { CChar(bitPattern: $0) }, &info) } ?? stat(path, &info)
            return seen.insert(found == 0 ? "\(info.st_dev):\(info.st_ino)" : URL(fileURLWithPath: path).standardizedFileURL.path).inserted
        }
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                let broken = (try? fm.destinationOfSymbolicLink(atPath: path)) != nil
                throw DocumentError(path: path, message: broken ? "is a broken symbolic link" : "no such file or directory")
            }
            if !isDirectory.boolValue {
                guard fm.isReadableFile(atPath: path) else { throw DocumentError(path: path, message: "cannot be read (permission denied)") }
                if isNew(path) { targets.append(LintTarget(path: path, displayPath: path, isExplicit: true)) }
                continue
            }
            var found: [String] = []
            var raw: [String: [UInt8]] = [:]
            walk(directory: path, into: &found, raw: &raw, skipped: &skipped)
            directories.append((path, found))
            for file in found.sorted() where isNew(file, raw: raw[file]) {
                targets.append(LintTarget(path: file, displayPath: file, isExplicit: false, rawPath: raw[file]))
            }
        }
        return Result(targets: targets, skipped: skipped, directories: directories)
    }

    private static func walk(directory: String, into found: inout [String], raw: inout [String: [UInt8]], skipped: inout [(String, String)]) {
        DirectoryWalk.walk(directory) { entry in
            switch entry {
            case .undecodableName(let path, let rawPath, let isFolder):
                if isFolder {
                    skipped.append((path, "a folder whose name is not UTF-8 (shown with \\xNN for each byte that is not) is not searched: rename it in UTF-8"))
                } else if rawPath.count >= 5 && Array(rawPath.suffix(5)) == Array(".json".utf8) && !path.hasSuffix(".services.json") {
                    found.append(path)
                    raw[path] = rawPath
                }
            case .file(let path, let name):
                guard name.hasSuffix(".json") && !name.hasSuffix(".services.json") && name != "services.json"
                        && name != ConfigurationFile.fileName else { return }
                if access(path, R_OK) == 0 { found.append(path) } else { skipped.append((path, "cannot be read (permission denied)")) }
            case .brokenLink(let path, let name):
                if name.hasSuffix(".json") { skipped.append((path, "broken symbolic link")) }
            case .unreadableFolder(let path):
                skipped.append((path, "cannot be read (permission denied)"))
            case .tooDeep(let path):
                skipped.append((path, "nested more than 64 folders deep"))
            }
        }
    }
}

extension Linter {
    /// Lints `targets` in parallel across cores; reports come back in the targets' order. `progress` is
    /// called with (done, total) as files finish. Stops at the first configuration or snapshot error.
    public func lint(_ targets: [LintTarget], progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [FileReport] {
        final class Box: @unchecked Sendable {
            var results: [Result<FileReport?, Error>?]
            var done = 0
            let lock = NSLock()
            init(count: Int) { results = Array(repeating: nil, count: count) }
        }
        let box = Box(count: targets.count)
        DispatchQueue.concurrentPerform(iterations: targets.count) { index in
            let target = targets[index]
            let result = Result { () throws -> FileReport? in
                guard let rawPath = target.rawPath else {
                    return try self.lint(path: target.path, displayPath: target.displayPath, isExplicit: target.isExplicit)
                }
                let text = try SourceFile.read(rawPath: rawPath, path: target.path)
                return try self.lint(path: target.path, displayPath: target.displayPath, text: text, isExplicit: target.isExplicit)
            }
            box.lock.lock()
            box.results[index] = result
            box.done += 1
            let done = box.done
            box.lock.unlock()
            progress?(done, targets.count)
        }
        var reports: [FileReport] = []
        for result in box.results {
            if let report = try result?.get() { reports.append(report) }
        }
        return reports
    }
}
