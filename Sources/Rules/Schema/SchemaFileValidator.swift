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

/// Finding the files `maprules validate` reads: named files as they are, directories walked for `*.json`
/// (`DirectoryWalk`).
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
            var undecodable: String?
            DirectoryWalk.walk(path, includeHidden: { $0 == ".maprules.json" }) { entry in
                // A broken link is listed like a file: reading it then says what is wrong.
                switch entry {
                case .file(let path, let name), .brokenLink(let path, let name):
                    if name.hasSuffix(".json") && include(name) { found.append(path) }
                case .undecodableName(let path, _, let isFolder):
                    if !isFolder && path.hasSuffix(".json") && undecodable == nil { undecodable = path }
                case .unreadableFolder, .tooDeep:
                    break
                }
            }
            // Never left out unseen: say which file, and why it cannot be named.
            if let undecodable {
                throw DocumentError(path: undecodable, message: "has a name that is not UTF-8 (shown with \\xNN for each byte that is not): rename it in UTF-8 to validate it")
            }
            files += found.sorted()
        }
        return files
    }
}
