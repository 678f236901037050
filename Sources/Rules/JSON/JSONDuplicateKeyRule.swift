import WebMap

/// `json/duplicate-key`: an object repeats a key.
public enum JSONDuplicateKeyRule: DocumentRule {
    public static let description = RuleDescription(
        id: "json/duplicate-key",
        severity: .warning,
        summary: "An object repeats a key; only the last value is used.",
        rationale: """
            JSON readers, the app's and the portal's included, keep the last value of a repeated key and \
            silently drop the others. A map edited by hand or merged from two versions can end up with two \
            `popupInfo` or two `visibility` members: the one the author edited may be the one the app ignores.
            """,
        fix: "Keep one occurrence of the key (merge what you need into it) and delete the others.",
        triggeringExamples: [
            .document("""
                {
                  "operationalLayers": [],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []},
                  "version": "2.28",
                  "version": "2.30"
                }
                """),
        ],
        nonTriggeringExamples: [
            .document("""
                {
                  "operationalLayers": [],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []},
                  "version": "2.30"
                }
                """),
        ])

    public static func check(_ context: LintContext) {
        guard let parsed = context.parsed else { return }
        for duplicate in parsed.duplicateKeys {
            var message = "The key \"\(duplicate.key)\" appears more than once in this object"
            if let first = firstOccurrence(of: duplicate, in: parsed.root) {
                let position = context.source.position(ofOffset: first)
                message += " (first at line \(position.line), column \(position.column))"
            }
            message += "; the last value is used and the earlier ones are ignored. Keep one \"\(duplicate.key)\" and delete the others."
            context.report(self, pointer: duplicate.pointer, offset: duplicate.offset, message: message,
                           layer: context.document?.enclosingLayer(of: duplicate.pointer))
        }
    }

    /// Offset of the first occurrence of the repeated key in its object.
    private static func firstOccurrence(of duplicate: DuplicateKey, in root: JSONNode) -> Int? {
        let parent = JSONPointer(Array(duplicate.pointer.tokens.dropLast()))
        return parent.resolve(in: root)?.object?.members.first { $0.key == duplicate.key }?.keyOffset
    }
}
