/// `version/name-empty`: the name is empty or only white space.
public enum VersionNameEmptyRule: VersionRule {
    public static let description = RuleDescription(
        id: "version/name-empty",
        severity: .error,
        summary: "The version name is empty or only white space.",
        rationale: """
            A branch version needs a name: the service refuses to create one without it, and the app lists \
            versions by name, so a blank one could not be told apart or chosen.
            """,
        fix: "Type a name for the version, such as `Inspections-May`.",
        triggeringExamples: [.versionName(""), .versionName("   ")],
        nonTriggeringExamples: [.versionName("MyWork")])

    public static func violation(in candidate: VersionCandidate) -> String? {
        guard VersionNameCharacters.isBlank(candidate.name) else { return nil }
        return candidate.name.isEmpty
            ? "The version name is empty: type a name for the version."
            : "The version name is only white space: type a name for the version."
    }
}
