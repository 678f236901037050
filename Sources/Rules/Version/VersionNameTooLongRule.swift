/// `version/name-too-long`: more than 62 characters.
public enum VersionNameTooLongRule: VersionRule {
    /// The longest name the service accepts (the owner and period it adds are not counted).
    static let maximumLength = 62

    public static let description = RuleDescription(
        id: "version/name-too-long",
        severity: .error,
        summary: "The version name is longer than 62 characters.",
        rationale: """
            Branch version names are limited to 62 characters (not counting the `owner.` prefix the service \
            adds); the service refuses to create a version with a longer name, and the edits made for it have \
            nowhere to go. Characters are counted as a person sees them.
            """,
        fix: "Shorten the name to 62 characters or fewer.",
        triggeringExamples: [.versionName(String(repeating: "a", count: 63))],
        nonTriggeringExamples: [.versionName(String(repeating: "a", count: 62)), .versionName(String(repeating: "é", count: 62))])

    public static func violation(in candidate: VersionCandidate) -> String? {
        let length = candidate.name.count
        guard length > maximumLength else { return nil }
        return "The version name is \(length) characters long; at most \(maximumLength) are allowed: shorten it by \(length - maximumLength)."
    }
}
