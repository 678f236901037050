/// `version/name-not-unique`: the qualified name already exists.
public enum VersionNameNotUniqueRule: VersionRule {
    public static let description = RuleDescription(
        id: "version/name-not-unique",
        severity: .error,
        summary: "A version with this qualified name already exists.",
        rationale: """
            The service identifies a version by its qualified name, `owner.name`, compared without regard to \
            case: it refuses to create a second `editor01.MyWork`, or an `editor01.mywork` beside it.
            """,
        fix: "Choose another name, or connect to the existing version instead of creating one.",
        triggeringExamples: [.versionName("MyWork", owner: "editor01", existing: ["sde.DEFAULT", "EDITOR01.mywork"])],
        nonTriggeringExamples: [
            .versionName("MyWork", owner: "editor01", existing: ["sde.DEFAULT", "editor02.MyWork"]),
        ])

    public static func violation(in candidate: VersionCandidate) -> String? {
        let qualified = candidate.qualifiedName
        guard let existing = candidate.existingNames.first(where: { $0.lowercased() == qualified.lowercased() }) else { return nil }
        let same = existing == qualified ? "" : " (names compare without regard to case)"
        return "A version named '\(existing)' already exists\(same): choose another name for '\(qualified)', or connect to the existing version."
    }
}
