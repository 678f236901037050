import WebMap

/// Runs a rule's examples through the same linter users run: the example tests and `maprules explain` use it.
public enum ExampleRunner {
    /// The diagnostics every rule produces for `example` (with default severities).
    public static func diagnostics(for example: RuleExample) -> [Diagnostic] {
        switch example {
        case .document(let text, let services, let variables):
            return lint(SourceText(string: text), services: services, variables: variables)
        case .bytes(let bytes):
            return lint(SourceText(bytes: bytes), services: nil, variables: [:])
        case .versionName(let name, let owner, let existing, let access):
            let candidate = VersionCandidate(name: name, owner: owner, existingNames: existing, access: access)
            return VersionNameCheck.violations(of: candidate).map {
                Diagnostic(ruleId: $0.ruleId, severity: $0.severity, message: $0.message, pointer: "", line: 1, column: 1)
            }
        }
    }

    /// Lints one example document as the file `example.json`, named explicitly on the command line.
    private static func lint(_ text: SourceText, services: String?, variables: [String: String]) -> [Diagnostic] {
        var options = LintOptions()
        options.configuration = .default
        options.useDefaultSnapshots = false
        options.variables = variables
        if let services, let root = try? JSONParser.parse(services).root,
           let snapshot = try? ServicesSnapshot(path: "example.services.json", root: root) {
            options.snapshots = [snapshot]
        }
        let report = try? Linter(options: options).lint(path: "/example/example.json", displayPath: "example.json",
                                                        text: text, isExplicit: true)
        return report?.diagnostics ?? []
    }

    /// True when `example` makes the rule `id` fire.
    public static func fires(_ id: String, on example: RuleExample) -> Bool {
        diagnostics(for: example).contains { $0.ruleId == id }
    }
}

/// A version-name rule's finding.
public struct VersionViolation: Sendable, Codable, Equatable {
    public var ruleId: String
    public var severity: Severity
    public var message: String
}

/// Checks a version name against every version/ rule (`maprules version-name`, the runtime, the service).
public enum VersionNameCheck {
    public static func violations(of candidate: VersionCandidate) -> [VersionViolation] {
        RuleCatalog.versionRules.compactMap { rule in
            rule.violation(in: candidate).map {
                VersionViolation(ruleId: rule.description.id, severity: rule.description.severity, message: $0)
            }
        }
    }

    /// True when no error-severity rule is violated.
    public static func isValid(_ candidate: VersionCandidate) -> Bool {
        !violations(of: candidate).contains { $0.severity == .error }
    }
}
