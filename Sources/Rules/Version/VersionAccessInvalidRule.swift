/// `version/access-invalid`: access is not public, protected or private.
public enum VersionAccessInvalidRule: VersionRule {
    static let accessLevels = ["public", "protected", "private"]

    public static let description = RuleDescription(
        id: "version/access-invalid",
        severity: .error,
        summary: "The version access is not `public`, `protected` or `private`.",
        rationale: """
            A branch version's access decides who may see and edit it: public (every signed-in user may view \
            and edit), protected (everyone may view, only the owner, the service owner and administrators may \
            edit) or private (only they may view or edit). The service refuses any other value.
            """,
        fix: "Use `public`, `protected` or `private`.",
        triggeringExamples: [.versionName("MyWork", access: "secret"), .versionName("MyWork", access: "")],
        nonTriggeringExamples: [.versionName("MyWork", access: "protected"), .versionName("MyWork", access: "Private")])

    public static func violation(in candidate: VersionCandidate) -> String? {
        guard let access = candidate.access, !accessLevels.contains(access.lowercased()) else { return nil }
        let suggestion = Suggestions.closest(to: access, in: accessLevels).map { " Did you mean '\($0)'?" } ?? ""
        return "The version access '\(access)' is not public, protected or private.\(suggestion)"
    }
}
