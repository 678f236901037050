/// `version/name-leading-space`: the first character is a space.
public enum VersionNameLeadingSpaceRule: VersionRule {
    public static let description = RuleDescription(
        id: "version/name-leading-space",
        severity: .error,
        summary: "The version name starts with a space.",
        rationale: """
            The service refuses version names that start with a space. A leading space is invisible in a list \
            of versions, so it is almost always typed by accident.
            """,
        fix: "Remove the space(s) at the start of the name.",
        triggeringExamples: [.versionName(" MyWork")],
        nonTriggeringExamples: [.versionName("MyWork"), .versionName("My Work")])

    public static func violation(in candidate: VersionCandidate) -> String? {
        let name = candidate.name
        guard !VersionNameCharacters.isBlank(name), let first = name.first,
              first.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .spaceSeparator }) else { return nil }
        return "The version name starts with \(VersionNameCharacters.describe(first)): remove the leading space."
    }
}
