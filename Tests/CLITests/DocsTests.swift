import Foundation
import Testing

/// The documentation a clone carries: `docs/rules.md` is what `maprules rules --format markdown` prints, every
/// `docs/` page a source comment names exists, and the links between the pages resolve.
struct DocsTests {
    static let root = CLI.packageRoot

    @Test func theRulesPageIsWhatTheCommandPrints() throws {
        let result = try CLI.run(["rules", "--format", "markdown"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let kept = try String(contentsOf: Self.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let printed = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let stored = kept.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference = zip(printed, stored).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(printed.count, stored.count)
        #expect(kept == result.stdout, """
            docs/rules.md differs from `maprules rules --format markdown` at line \(firstDifference + 1): \
            run `swift run maprules rules --format markdown > docs/rules.md`
            """)
    }

    @Test func theRulesPageHasEveryRuleOnce() throws {
        let result = try CLI.run(["rules", "--format", "json"])
        let rules = try #require(try CLI.json(result.stdout) as? [[String: Any]])
        let page = try CLI.run(["rules", "--format", "markdown"]).stdout
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            #expect(page.components(separatedBy: "\n### \(id)\n").count == 2, "one section for \(id)")
        }
    }

    /// Every page a source comment (or a schema's description) names exists: `docs/rules.md`, or by its bare
    /// name ("see runtime.md"), a page of docs/ or a file at the root.
    @Test func everyPageTheCodeNamesExists() throws {
        let named = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_./-])(docs/)?([A-Za-z0-9_-]+)\.md\b"#)
        var missing: [String] = []
        var seen = 0
        let sources = try Self.files(under: "Sources", endingIn: [".swift"]) + Self.files(under: "Tests", endingIn: [".swift"])
        let others = try Self.files(under: "Schemas", endingIn: [".json"]) + Self.files(under: "Scripts", endingIn: [".sh"])
            + Self.files(under: "Benchmarks", endingIn: [".sh", ".py"])
        for file in sources + others {
            var text = try String(contentsOf: file, encoding: .utf8)
            if file.pathExtension == "swift" {
                // Comments only: a string literal ending in .md (a file a test writes) is no reference.
                text = text.split(separator: "\n").compactMap { line in line.range(of: "//").map { String(line[$0.upperBound...]) } }
                    .joined(separator: "\n")
            }
            let range = NSRange(text.startIndex..., in: text)
            for match in named.matches(in: text, range: range) {
                let name = String(text[Range(match.range(at: 2), in: text)!]) + ".md"
                seen += 1
                let candidates = ["docs/" + name, name]
                if !candidates.contains(where: { FileManager.default.fileExists(atPath: Self.root.appendingPathComponent($0).path) }) {
                    missing.append("\(file.path.dropFirst(Self.root.path.count + 1)) names \(name)")
                }
            }
        }
        #expect(seen > 10, "the search finds the pages the code names")
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    @Test func noPageOutsideTheRepositoryIsNamed() throws {
        for folder in ["Sources", "Tests", "docs"] {
            for file in try Self.files(under: folder, endingIn: [".swift", ".md"]) where file.lastPathComponent != "DocsTests.swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("shared/spec"), "\(file.path) names a page outside the repository")
            }
        }
    }

    /// Relative links of the README and docs/ pages point at files that exist, and `#anchors` at headings of
    /// the page they name (GitHub's anchors: lower case, punctuation dropped, spaces as `-`).
    @Test func linksBetweenThePagesResolve() throws {
        let pages = try Self.files(under: "docs", endingIn: [".md"])
            + [Self.root.appendingPathComponent("README.md"), Self.root.appendingPathComponent("Benchmarks/README.md")]
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var broken: [String] = []
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in link.matches(in: text, range: range) {
                let target = String(text[Range(match.range(at: 1), in: text)!])
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                guard FileManager.default.fileExists(atPath: file.path) else {
                    broken.append("\(page.lastPathComponent): \(target) (no such file)")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let anchors = Self.anchors(of: try String(contentsOf: file, encoding: .utf8))
                    if !anchors.contains(parts[1]) { broken.append("\(page.lastPathComponent): \(target) (no such heading)") }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// The anchors GitHub gives a page's headings (code blocks left out).
    static func anchors(of markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var inCode = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            guard !inCode, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            anchors.insert(String(heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            }))
        }
        return anchors
    }

    static func files(under folder: String, endingIn suffixes: [String]) throws -> [URL] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where suffixes.contains(where: { url.lastPathComponent.hasSuffix($0) }) {
            if url.path.contains("/generated") || url.path.contains("/.venv/") { continue }
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }
}
