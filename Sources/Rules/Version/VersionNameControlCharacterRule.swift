/// `version/name-control-character`: a control character (tab, newline...) in the name.
public enum VersionNameControlCharacterRule: VersionRule {
    public static let description = RuleDescription(
        id: "version/name-control-character",
        severity: .error,
        summary: "The version name contains a control character (tab, newline...).",
        rationale: """
            MapRules' own rule: a tab or line break in a version name is invisible or breaks the line in \
            every list of versions, and usually comes from pasting. Such a name cannot be typed again to \
            connect to the version.
            """,
        fix: "Retype the name without the tab, line break or other control character.",
        triggeringExamples: [.versionName("My\tWork"), .versionName("MyWork\n")],
        nonTriggeringExamples: [.versionName("My Work")])

    public static func violation(in candidate: VersionCandidate) -> String? {
        let name = candidate.name
        guard !VersionNameCharacters.isBlank(name) else { return nil }
        let found = VersionNameCharacters.positions(in: name) { $0.unicodeScalars.contains(where: VersionNameCharacters.isControlScalar) }
        guard !found.isEmpty else { return nil }
        return "The version name contains \(VersionNameCharacters.list(found)): retype the name without \(found.count == 1 ? "it" : "them")."
    }
}
