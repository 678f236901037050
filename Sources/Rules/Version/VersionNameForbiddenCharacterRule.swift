/// `version/name-forbidden-character`: a period, semicolon, single quote or double quote.
public enum VersionNameForbiddenCharacterRule: VersionRule {
    /// An array, not a set: a `Set<Character>` costs a runtime conformance scan (Character: Hashable) when
    /// `maprules version-name` first touches it, about 0.1 ms of the CLI's start-up.
    static let forbidden: [Character] = [".", ";", "'", "\""]

    public static let description = RuleDescription(
        id: "version/name-forbidden-character",
        severity: .error,
        summary: "The version name contains a period, semicolon, single quote or double quote.",
        rationale: """
            The service stores a version as `owner.name`: a period in the name would make the owner ambiguous, \
            and semicolons and quotes are refused because of how version names reach the database. The service \
            rejects such a name when the version is created.
            """,
        fix: "Remove the character or replace it, e.g. with a hyphen or an underscore.",
        triggeringExamples: [.versionName("editor.01", owner: "editor01"), .versionName("Bob's edits")],
        nonTriggeringExamples: [.versionName("editor-01", owner: "editor01"), .versionName("Bobs_edits")])

    public static func violation(in candidate: VersionCandidate) -> String? {
        let found = VersionNameCharacters.positions(in: candidate.name) { forbidden.contains($0) }
        guard !found.isEmpty else { return nil }
        return """
            The version name contains \(VersionNameCharacters.list(found)); periods, semicolons and quotes are \
            not allowed. Remove \(found.count == 1 ? "it" : "them") or use a hyphen or underscore instead.
            """
    }
}
