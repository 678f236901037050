import Foundation
import Rules

/// The rule catalogue as one Markdown page: what `maprules rules --format markdown` prints and what the
/// repository keeps as `docs/rules.md` (a test fails when the two differ).
///
/// The page is the fixed text of `RulesPageText` (the shared definitions, each family's introduction,
/// configuration) around what every rule says about itself: ID, default severity, summary, rationale, fix,
/// its first triggering example with the diagnostic it produces, and its first non-triggering example.
///
/// ```swift
/// let page = RulesPage.markdown()          // the whole catalogue
/// try page.write(toFile: "docs/rules.md", atomically: true, encoding: .utf8)
/// ```
public enum RulesPage {
    /// The page for `rules` (the catalogue by default), families in the order they first appear.
    public static func markdown(rules: [RuleDescription] = RuleCatalog.all.map { $0.description }) -> String {
        var out = RulesPageText.introduction + "\n"
        out += index(of: rules) + "\n"
        out += RulesPageText.definitions + "\n"
        for family in families(of: rules) {
            out += "## \(family)/" + (RulesPageText.familyTitles[family].map { ": \($0)" } ?? "") + "\n\n"
            if let introduction = RulesPageText.familyIntroductions[family] { out += introduction + "\n\n" }
            for rule in rules where rule.family == family { out += section(for: rule) }
        }
        out += RulesPageText.configuration
        return out
    }

    /// The GitHub anchor of a heading: lower case, punctuation other than `-` dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    private static func families(of rules: [RuleDescription]) -> [String] {
        var seen: Set<String> = []
        return rules.map(\.family).filter { seen.insert($0).inserted }
    }

    /// One table row per rule, each ID linking to its section.
    private static func index(of rules: [RuleDescription]) -> String {
        var out = "| rule | default severity | summary |\n|---|---|---|\n"
        for rule in rules {
            out += "| [`\(rule.id)`](#\(anchor(rule.id))) | \(rule.severity.rawValue) | \(tableCell(rule.summary)) |\n"
        }
        return out
    }

    private static func section(for rule: RuleDescription) -> String {
        var out = "### \(rule.id)\n\n"
        out += "Default severity: **\(rule.severity.rawValue)**. \(rule.summary)\n\n"
        out += "**Why it matters.** \(rule.rationale)\n\n"
        out += "**How to fix.** \(rule.fix)\n\n"
        if let example = rule.triggeringExamples.first {
            out += "Triggers on:\n\n" + exampleBlock(example)
            let found = ExampleRunner.diagnostics(for: example).filter { $0.ruleId == rule.id }
            if !found.isEmpty {
                out += "which reports:\n\n" + fenced(found.map {
                    "\($0.line):\($0.column)  \($0.severity.rawValue)  \($0.message)  \($0.ruleId)"
                }.joined(separator: "\n"), language: "text")
            }
        }
        if let example = rule.nonTriggeringExamples.first {
            out += "Does not trigger on:\n\n" + exampleBlock(example)
        }
        return out
    }

    /// An example as a reader needs it: the document, then the services snapshot (folded) and `--var`s it is
    /// linted with; raw bytes with invalid sequences as `\xNN`; a version name with its owner and access.
    private static func exampleBlock(_ example: RuleExample) -> String {
        switch example {
        case .document(let text, let services, let variables):
            var out = fenced(text, language: "json")
            if !variables.isEmpty {
                out += "linted with " + variables.sorted { $0.key < $1.key }
                    .map { "`--var \($0.key)=\($0.value)`" }.joined(separator: " ") + "\n\n"
            }
            if let services {
                out += "<details><summary>with this services snapshot</summary>\n\n" + fenced(services, language: "json") + "</details>\n\n"
            }
            return out
        case .bytes:
            return "the bytes (`\\xNN`: a byte that is not valid UTF-8, or a byte-order mark):\n\n"
                + fenced(example.displayText, language: "text")
        case .versionName:
            return fenced(example.displayText, language: "text")
        }
    }

    /// `text` in a code fence longer than any run of backticks inside it.
    private static func fenced(_ text: String, language: String) -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return "\(fence)\(language)\n\(text)\n\(fence)\n\n"
    }

    /// A table cell: one line, `|` escaped.
    private static func tableCell(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "|", with: "\\|")
    }
}
