import WebMap

/// `json/too-deep`: nesting deeper than 512 levels.
public enum JSONTooDeepRule: DocumentRule {
    public static let description = RuleDescription(
        id: "json/too-deep",
        severity: .error,
        summary: "Arrays and objects are nested deeper than 512 levels.",
        rationale: """
            No web map needs more than a few dozen levels of nesting. A document nested hundreds of levels deep \
            was produced by a faulty tool or crafted to exhaust a reader's stack; JSON readers, the app's \
            included, may crash or refuse it. MapRules stops reading at level 513, so no other rule runs.
            """,
        fix: "Regenerate the file with a working tool; remove the runaway nesting.",
        triggeringExamples: [
            .document(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)),
            .document(#"{"operationalLayers": [], "baseMap": {"title": "Deep", "x": "#
                      + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}}"),
        ],
        nonTriggeringExamples: [
            .document(#"{"operationalLayers": [], "baseMap": {"title": "Shallow", "x": "#
                      + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}"),
        ])

    public static func check(_ context: LintContext) {
        guard let error = context.parseError else { return }
        let failure = ParseFailure.classify(error, in: context.source)
        guard failure.kind == .tooDeep else { return }
        context.report(self, pointer: .root, offset: failure.offset, message: failure.message)
    }
}
