import Foundation
import JSONSchema
import Testing
import WebMap

/// Runs the JSON-Schema-Test-Suite (`Tests/Fixtures/jsonschema-test-suite`, see its README) for draft
/// 2020-12 and draft-07. Every required case must pass; the optional ones run too and their counts are printed
/// (their known failures are listed in Schemas/README.md, "Validator conformance").
@Suite struct ConformanceTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Third-party test data kept in the repository (`Tests/Fixtures`, see its README).
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")
    static let suite = fixtures.appendingPathComponent("jsonschema-test-suite")

    struct Outcome {
        var passed = 0
        var failed: [String] = []
    }

    /// Runs every case of one test file.
    static func run(file: URL, draft: SchemaDraft) throws -> Outcome {
        let text = SourceText(bytes: [UInt8](try Data(contentsOf: file)))
        let groups = try JSONParser.parse(text).root.array ?? []
        let loader = RefDirectories([suite.appendingPathComponent("remotes").path])
        var outcome = Outcome()
        for group in groups {
            let description = group["description"]?.string ?? "?"
            let tests = group["tests"]?.array ?? []
            let schema: Schema
            do {
                let registry = SchemaRegistry(loader: loader, defaultDraft: draft)
                schema = try registry.compile(group["schema"] ?? JSONNode(.bool(true)))
            } catch {
                for test in tests { outcome.failed.append("\(description) / \(test["description"]?.string ?? "?"): schema not compiled: \(error)") }
                continue
            }
            for test in tests {
                guard let data = test["data"], let expected = test["valid"]?.bool else { continue }
                let fast = schema.isValid(data)
                let violations = schema.validate(data)
                let name = "\(description) / \(test["description"]?.string ?? "?")"
                if fast != expected {
                    outcome.failed.append("\(name): expected \(expected ? "valid" : "invalid")")
                } else if violations.isEmpty != expected {
                    outcome.failed.append("\(name): the detailed pass disagrees (\(violations.count) violations)")
                } else {
                    outcome.passed += 1
                }
            }
        }
        return outcome
    }

    static func files(_ draft: String) -> [(name: String, url: URL, optional: Bool)] {
        let root = suite.appendingPathComponent("tests/\(draft)")
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, URL, Bool)] = []
        for case let url as URL in enumerator where url.pathExtension == "json" {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            found.append(("\(draft)/\(relative)", url, relative.hasPrefix("optional/")))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    @Test(arguments: [("draft2020-12", SchemaDraft.draft2020_12), ("draft7", SchemaDraft.draft7)])
    func suitePasses(draft: String, version: SchemaDraft) throws {
        let files = Self.files(draft)
        #expect(!files.isEmpty, "the test suite was not found at \(Self.suite.path)")
        var required = Outcome(), optional = Outcome()
        var lines: [String] = []
        for file in files {
            let outcome = try Self.run(file: file.url, draft: version)
            lines.append("\(file.name): \(outcome.passed) passed, \(outcome.failed.count) failed")
            if file.optional {
                optional.passed += outcome.passed
                optional.failed += outcome.failed.map { "\(file.name): \($0)" }
            } else {
                required.passed += outcome.passed
                required.failed += outcome.failed.map { "\(file.name): \($0)" }
            }
        }
        lines.append("\(draft) required: \(required.passed) passed, \(required.failed.count) failed")
        lines.append("\(draft) optional: \(optional.passed) passed, \(optional.failed.count) failed")
        lines.append("\(draft) total: \(required.passed + optional.passed) passed, \(required.failed.count + optional.failed.count) failed")
        print(lines.joined(separator: "\n"))
        if ProcessInfo.processInfo.environment["CONFORMANCE_VERBOSE"] != nil {
            print(optional.failed.map { "  optional failure: " + $0 }.joined(separator: "\n"))
        }
        for failure in required.failed { Issue.record("\(failure)") }
    }
}
