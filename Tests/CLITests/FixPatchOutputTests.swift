import Foundation
import Testing

/// `lint --fix-dry-run --format json`: each file's change as an RFC 6902 JSON Patch (issue 31, item 8: it
/// printed the unified diff, which no JSON tool reads).
@Suite(.serialized) struct FixPatchOutputTests {
    /// Applying each printed patch, in order, to the original file gives what `--fix` writes.
    @Test func dryRunAsJSONPrintsAPatchPerFileThatFixApplies() throws {
        let dir = try FixCommandTests.brokenCopy()
        let before = try FixCommandTests.contents(dir)
        let dryRun = try CLI.run(["lint", ".", "--fix-dry-run", "--format", "json"], in: dir)
        let output = try #require(try? CLI.json(dryRun.stdout) as? [String: Any], "\(dryRun.stdout.prefix(400)) \(dryRun.stderr)")
        let files = try #require(output["files"] as? [[String: Any]])
        #expect(files.count >= 5, "\(files.count) files")
        #expect(try FixCommandTests.contents(dir) == before, "the dry run changed nothing")

        _ = try CLI.run(["lint", ".", "--fix"], in: dir)
        for file in files {
            let path = try #require(file["path"] as? String)
            let patch = try #require(file["patch"] as? [[String: Any]])
            #expect(!patch.isEmpty, "\(path)")
            let original = try JSONSerialization.jsonObject(with: try #require(before[path]), options: [])
            let patched = try Self.apply(patch, to: original)
            let fixed = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent(path)), options: [])
            #expect(NSDictionary(dictionary: patched as? [String: Any] ?? [:]).isEqual(fixed as? [String: Any] ?? ["": 0]), "\(path): \(patch)")
        }
    }

    struct PatchFailure: Error, CustomStringConvertible { var description: String }

    /// A minimal RFC 6902 applier (add, remove, replace), strict: a missing target is an error.
    static func apply(_ patch: [[String: Any]], to document: Any) throws -> Any {
        var document = document
        for operation in patch {
            guard let op = operation["op"] as? String, let path = operation["path"] as? String else { throw PatchFailure(description: "bad operation \(operation)") }
            let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
                .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
            document = try change(document, Array(tokens), op: op, value: operation["value"])
        }
        return document
    }

    static func change(_ node: Any, _ tokens: [String], op: String, value: Any?) throws -> Any {
        guard let first = tokens.first else { throw PatchFailure(description: "empty path") }
        let last = tokens.count == 1
        if var object = node as? [String: Any] {
            if last {
                switch op {
                case "add": object[first] = value
                case "replace", "remove":
                    guard object[first] != nil else { throw PatchFailure(description: "no member \(first)") }
                    object[first] = op == "remove" ? nil : value
                default: throw PatchFailure(description: "op \(op)")
                }
            } else {
                guard let child = object[first] else { throw PatchFailure(description: "no member \(first)") }
                object[first] = try change(child, Array(tokens.dropFirst()), op: op, value: value)
            }
            return object
        }
        if var array = node as? [Any], let index = Int(first) {
            guard index >= 0, index < array.count || (last && op == "add" && index == array.count) else {
                throw PatchFailure(description: "index \(index) out of \(array.count)")
            }
            if last {
                switch op {
                case "add": array.insert(value as Any, at: index)
                case "replace": array[index] = value as Any
                case "remove": array.remove(at: index)
                default: throw PatchFailure(description: "op \(op)")
                }
            } else {
                array[index] = try change(array[index], Array(tokens.dropFirst()), op: op, value: value)
            }
            return array
        }
        throw PatchFailure(description: "cannot step into \(type(of: node)) with \(first)")
    }
}
