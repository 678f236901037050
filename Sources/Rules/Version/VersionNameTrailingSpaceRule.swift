/// `version/name-trailing-space`: the name ends with white space.
public enum VersionNameTrailingSpaceRule: VersionRule {
    public static let description = RuleDescription(
        id: "version/name-trailing-space",
        severity: .warning,
        summary: "The version name ends with white space.",
        rationale: """
            MapRules' own rule: `MyWork ` and `MyWork` look identical in every list of versions, yet they are \
            different versions; users connect to the wrong one or cannot find theirs.
            """,
        fix: "Remove the white space at the end of the name.",
        triggeringExamples: [.versionName("MyWork ")],
        nonTriggeringExamples: [.versionName("MyWork"), .versionName("My Work")])

    public static func violation(in candidate: VersionCandidate) -> String? {
        let name = candidate.name
        guard !VersionNameCharacters.isBlank(name), let last = name.last, last.isWhitespace else { return nil }
        return "The version name ends with \(VersionNameCharacters.describe(last)) at position \(name.count): it looks identical to the name without it. Remove the trailing white space."
    }
}
