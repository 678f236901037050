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
        triggeringExamples: [.versionName(""), .versionName("   "), .versionName("MyWork", owner: "")],
        nonTriggeringExamples: [.versionName("MyWork"), .versionName("MyWork", owner: "editor01")])

    /// The name, and the owner when one is given: an empty owner would make the qualified name `.MyWork`, a
    /// version that belongs to nobody (issue 31: `--owner ''` was accepted).
    public static func violation(in candidate: VersionCandidate) -> String? {
        var messages: [String] = []
        if VersionNameCharacters.isBlank(candidate.name) {
            messages.append(candidate.name.isEmpty
                ? "The version name is empty: type a name for the version."
                : "The version name is only white space: type a name for the version.")
        }
        if let owner = candidate.owner, VersionNameCharacters.isBlank(owner) {
            messages.append("""
                The owner is \(owner.isEmpty ? "empty" : "only white space"), so the qualified name would be \
                '\(owner).\(candidate.name)', a version of nobody: give the user name of the version's owner.
                """)
        }
        return messages.isEmpty ? nil : messages.joined(separator: " ")
    }
}
