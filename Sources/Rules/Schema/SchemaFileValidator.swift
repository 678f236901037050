import Foundation
import JSONSchema
import WebMap

/// Validates any JSON files against one compiled schema (`maprules validate`): a file that does not parse gets
/// its `json/` diagnostic, each violation a `schema/invalid` diagnostic with its line and column.
public struct SchemaFileValidator: Sendable {
    public let schema: Schema
    /// The report's `kind` for every file (`webmap` / `popup` when validating against those schemas).
    public let kind: String

    public init(schema: Schema, kind: String = "json") {
        self.schema = schema
        self.kind = kind
    }

    /// The report of one file's text.
    public func validate(_ text: SourceText, displayPath: String) -> FileReport {
        let parsed: ParsedJSON
        do {
            parsed = try JSONParser.parse(text)
        } catch {
            let failure = ParseFailure.classify(error, in: text)
            let id: String
            switch failure.kind {
            case .syntax: id = JSONSyntaxRule.description.id
            case .encoding: id = JSONEncodingRule.description.id
            case .tooDeep: id = JSONTooDeepRule.description.id
            }
            let position = text.position(ofOffset: failure.offset)
            let message = failure.message.replacingOccurrences(of: " and no other rule ran", with: "")
            return FileReport(path: displayPath, kind: "json", diagnostics: [
                Diagnostic(ruleId: id, severity: .error, message: message, pointer: "", line: position.line, column: position.column),
            ])
        }
        let diagnostics = schema.validate(parsed).map { SchemaDiagnostics.diagnostic(for: $0, in: text) }
        return FileReport(path: displayPath, kind: kind, diagnostics: diagnostics.sorted(by: Diagnostic.reportOrder))
    }

    /// Reads and validates files in parallel; reports come back in the order of `paths`. Throws the first
    /// file that cannot be read.
    public func validate(paths: [(path: String, displayPath: String)]) throws -> [FileReport] {
        final class Box: @unchecked Sendable {
            var results: [Result<FileReport, Error>?]
            let lock = NSLock()
            init(count: Int) { results = Array(repeating: nil, count: count) }
        }
        let box = Box(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let entry = paths[index]
            let result = Result { () throws -> FileReport in
                let file = try SourceFile.read(path: entry.path)
                return validate(file.text, displayPath: entry.displayPath)
            }
            box.lock.lock()
            box.results[index] = result
            box.lock.unlock()
        }
        return try box.results.map { try $0!.get() }
    }
}

/// Finding the files `maprules validate` reads: named files as they are, directories walked for `*.json` with
/// POSIX `readdir` (Foundation's enumerator costs a tenth of a second per thousand files).
public enum JSONFileDiscovery {
    /// The files named by `paths`, in order; below each directory every `*.json` in sorted order, hidden
    /// entries and symbolic links to folders left out, and files for which `include` says false skipped.
    public static func files(_ paths: [String], include: (String) -> Bool) throws(DocumentError) -> [String] {
        var files: [String] = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else { throw DocumentError(path: path, message: "no such file or directory") }
            if info.st_mode & S_IFMT != S_IFDIR {
                files.append(path)
                continue
            }
            var found: [String] = []
            walk(path.hasSuffix("/") ? String(path.dropLast()) : path, depth: 0, include: include, into: &found)
            files += found.sorted()
        }
        return files
    }

    private static func walk(_ directory: String, depth: Int, include: (String) -> Bool, into found: inout [String]) {
        guard depth < 64, let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name.hasPrefix(".") && name != ".maprules.json" { continue }
            let path = directory + "/" + name
            var type = entry.pointee.d_type
            if type == UInt8(DT_UNKNOWN) {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                type = info.st_mode & S_IFMT == S_IFDIR ? UInt8(DT_DIR) : UInt8(DT_REG)
            }
            if type == UInt8(DT_DIR) {
                walk(path, depth: depth + 1, include: include, into: &found)
            } else if type != UInt8(DT_LNK) || !isDirectory(path), name.hasSuffix(".json"), include(name) {
                found.append(path)
            }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
