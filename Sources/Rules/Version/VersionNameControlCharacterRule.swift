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
        triggeringExamples: [.versionName("My\tWork"), .versionName("MyWork\n"), .versionName("Work\u{202E}kroW"),
                             .versionName("MyWork", owner: "editor\u{202E}10")],
        nonTriggeringExamples: [.versionName("My Work"), .versionName("Mein Büro", owner: "editor01")])

    /// Control characters, and the invisible characters that reorder text (a right-to-left override makes
    /// `Work\u{202E}kroW` display as `WorkWork`: issue 31), in the name and in the owner.
    public static func violation(in candidate: VersionCandidate) -> String? {
        func isControl(_ c: Character) -> Bool { c.unicodeScalars.contains(where: VersionNameCharacters.isControlScalar) }
        var messages: [String] = []
        let name = candidate.name
        if !VersionNameCharacters.isBlank(name) {
            let found = VersionNameCharacters.positions(in: name, where: isControl)
            if !found.isEmpty {
                messages.append("The version name contains \(VersionNameCharacters.list(found)): retype the name without \(found.count == 1 ? "it" : "them").")
            }
        }
        if let owner = candidate.owner {
            let found = VersionNameCharacters.positions(in: owner, where: isControl)
            if !found.isEmpty {
                messages.append("The owner contains \(VersionNameCharacters.list(found)): give the owner's user name without \(found.count == 1 ? "it" : "them").")
            }
        }
        guard !messages.isEmpty else { return nil }
        if (candidate.name + (candidate.owner ?? "")).unicodeScalars.contains(where: \.properties.isBidiControl) {
            messages.append("Bidirectional control characters reorder how the name is shown without being seen.")
        }
        return messages.joined(separator: " ")
    }
}
