import Foundation
import Testing
import Rules
import WebMap

/// Every diagnostic's JSON pointer resolves in the file it is about, and its line and column are those of the
/// value the pointer names. A finding about an absent member (a map without `operationalLayers`, a pop-up
/// without `title`) points at the object that lacks it.
@Suite struct DiagnosticPointerTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Rules whose position is a place inside the value the pointer names (a placeholder inside a string, the
    /// character of an Arcade expression a finding is about), not its start.
    static let positionedInsideTheValue: Set<String> = [
        "map/template-placeholder", "arcade/syntax", "arcade/unknown-field", "arcade/unknown-relationship",
        "arcade/unknown-function", "arcade/profile-variable", "arcade/unknown-layer",
    ]

    /// Problems with `diagnostics` reported for `text`: pointers that do not resolve, positions elsewhere.
    static func problems(_ diagnostics: [Diagnostic], in text: SourceText) -> [String] {
        guard let root = try? JSONParser.parse(text).root else {
            // A file that does not parse has only the root to point at.
            return diagnostics.filter { $0.pointer != "" }.map { "\($0.ruleId): \($0.pointer) in a file that does not parse" }
        }
        return diagnostics.compactMap { diagnostic in
            guard let pointer = JSONPointer(parsing: diagnostic.pointer), let node = pointer.resolve(in: root) else {
                return "\(diagnostic.ruleId): \(diagnostic.pointer) does not resolve"
            }
            let start = text.position(ofOffset: node.offset)
            let at = SourcePosition(line: diagnostic.line, column: diagnostic.column)
            if at == start || (positionedInsideTheValue.contains(diagnostic.ruleId) && at > start) { return nil }
            // Or at the key of the member the pointer names (`json/duplicate-key` points at a repeated key).
            let parent = JSONPointer(Array(pointer.tokens.dropLast())).resolve(in: root)
            let keys = parent?.object?.members.filter { $0.key == pointer.tokens.last }.map { text.position(ofOffset: $0.keyOffset) } ?? []
            if keys.contains(at) { return nil }
            return "\(diagnostic.ruleId): \(diagnostic.pointer) is at \(start), the diagnostic says \(at)"
        }
    }

    @Test(arguments: RuleCatalog.allIds)
    func triggeringExamplesPointAtValuesThatExist(id: String) throws {
        let rule = try #require(RuleCatalog.rule(id: id))
        for example in rule.description.triggeringExamples {
            let text: SourceText
            switch example {
            case .document(let document, _, _): text = SourceText(string: document)
            case .bytes(let bytes): text = SourceText(bytes: bytes)
            case .versionName: continue
            }
            let found = ExampleRunner.diagnostics(for: example)
            #expect(!found.isEmpty)
            let problems = Self.problems(found, in: text)
            #expect(problems.isEmpty, "\(id), example:\n\(example.displayText)\n\(problems.joined(separator: "\n"))")
        }
    }

    @Test func brokenSamplesPointAtValuesThatExist() throws {
        let folder = Self.packageRoot.appendingPathComponent("Samples/Broken")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".services.json") && $0 != "services.json" && $0 != ".maprules.json" }
            .sorted()
        #expect(files.count > 20)
        let linter = Linter()
        var checked = 0
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let text = try SourceFile.read(path: path).text
            guard let report = try linter.lint(path: path, text: text, isExplicit: true) else { continue }
            checked += report.diagnostics.count
            let problems = Self.problems(report.diagnostics, in: text)
            #expect(problems.isEmpty, "\(file):\n\(problems.joined(separator: "\n"))")
        }
        #expect(checked > 20)
    }

    @Test func aMapWithoutOperationalLayersIsReportedAtTheMap() throws {
        let text = SourceText(string: "{\n  \"baseMap\": {\"title\": \"Topographic\", \"baseMapLayers\": []},\n  \"version\": \"2.28\"\n}")
        let found = ExampleRunner.diagnostics(for: .document(String(decoding: text.bytes, as: UTF8.self)))
            .filter { $0.ruleId == "map/no-operational-layers" }
        #expect(found.map(\.pointer) == [""])
        #expect(found.map { SourcePosition(line: $0.line, column: $0.column) } == [SourcePosition(line: 1, column: 1)])
    }

    @Test func aPopupWithoutTitleIsReportedAtThePopup() throws {
        let map = Examples.map().replacingOccurrences(of: #""title": "{Address}","#, with: "")
        let found = ExampleRunner.diagnostics(for: .document(map, services: Examples.treesSnapshot))
            .filter { $0.ruleId == "popup/empty-title" }
        #expect(found.map(\.pointer) == ["/operationalLayers/0/popupInfo"])
        // `"popupInfo": {` opens on line 8, its brace at column 20.
        #expect(found.map { SourcePosition(line: $0.line, column: $0.column) } == [SourcePosition(line: 8, column: 20)])
    }
}
