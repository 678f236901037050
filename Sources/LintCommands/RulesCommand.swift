import ArgumentParser
import Foundation
import Report
import Rules

public struct RulesCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule: ID, default severity, summary.",
        discussion: """
            Examples:
              maprules rules --format json | jq '.[].id'
              maprules rules --format markdown > docs/rules.md    # the rules page, with rationale, fix and examples
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

    @Option(help: """
        Output format: text, json ([{"id","severity","summary","rationale"}]) or markdown (the rules page: \
        definitions, then each rule's rationale, fix and examples).
        """)
    var format: Format = .text

    public func run() throws {
        let rules = RuleCatalog.all.map { $0.description }
        switch format {
        case .text:
            let width = rules.map(\.id.count).max() ?? 0
            for rule in rules {
                print(rule.id.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                      + rule.severity.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + rule.summary)
            }
        case .json:
            struct Entry: Encodable { var id, severity, summary, rationale: String }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(rules.map { Entry(id: $0.id, severity: $0.severity.rawValue, summary: $0.summary, rationale: $0.rationale) })
            print(String(decoding: data, as: UTF8.self))
        case .markdown:
            try emit(RulesPage.markdown(rules: rules), to: nil)
        }
    }
}

public struct ExplainCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a rule: why it matters, what the app does, how to fix it, with examples.",
        discussion: "Example: maprules explain add-feature/required-field-not-editable")

    @Argument(help: "A rule ID, e.g. popup/unknown-field.")
    var ruleId: String

    public func run() throws {
        guard let rule = RuleCatalog.rule(id: ruleId) else {
            let close = Suggestions.ranked(ruleId, in: RuleCatalog.allIds)
            throw CommandFailure("unknown rule ID '\(ruleId)'. Closest: \(close.joined(separator: ", ")). Run 'maprules rules' for the list.")
        }
        let d = rule.description
        var out = "\(d.id)  (default severity: \(d.severity.rawValue))\n\n\(d.summary)\n\n"
        out += "Why it matters:\n\(indent(d.rationale))\n\nHow to fix:\n\(indent(d.fix))\n"
        if let example = d.triggeringExamples.first {
            out += "\nTriggers on:\n\(indent(example.displayText))\n"
            let found = ExampleRunner.diagnostics(for: example).filter { $0.ruleId == d.id }
            for diagnostic in found {
                out += "  => \(diagnostic.line):\(diagnostic.column) \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
            }
        }
        if let example = d.nonTriggeringExamples.first {
            out += "\nDoes not trigger on:\n\(indent(example.displayText))\n"
        }
        print(out, terminator: "")
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }
}

public struct VersionNameCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "version-name",
        abstract: "Check a branch version name against the version/ rules.",
        discussion: """
            Prints the qualified name OWNER.NAME when the name is valid; exits 1 when it is not.
            Example: maprules version-name "Storm survey 2024" --owner editor01
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "The version name as the user types it (without the owner prefix).")
    var name: String

    @Option(help: "The owner whose name prefixes the version (OWNER.NAME).")
    var owner: String?

    @Option(help: "The access to check as well: public, protected or private.")
    var access: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    public func run() throws {
        let candidate = VersionCandidate(name: name, owner: owner, access: access)
        let violations = VersionNameCheck.violations(of: candidate)
        let valid = !violations.contains { $0.severity == .error }
        switch format {
        case .json:
            struct Output: Encodable {
                var name: String
                var qualifiedName: String?
                var valid: Bool
                var violations: [Violation]
                struct Violation: Encodable { var ruleId, message: String }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let output = Output(name: name, qualifiedName: valid ? candidate.qualifiedName : nil, valid: valid,
                                violations: violations.map { .init(ruleId: $0.ruleId, message: $0.message) })
            print(String(decoding: try encoder.encode(output), as: UTF8.self))
        case .text:
            for v in violations { print("\(v.severity.rawValue): \(v.message)  \(v.ruleId)") }
            if valid { print(candidate.qualifiedName) }
        }
        if !valid { throw ExitCode(1) }
    }
}
