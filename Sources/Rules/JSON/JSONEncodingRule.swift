import WebMap

/// `json/encoding`: the file is not UTF-8.
public enum JSONEncodingRule: DocumentRule {
    public static let description = RuleDescription(
        id: "json/encoding",
        severity: .error,
        summary: "The file is not UTF-8.",
        rationale: """
            Web maps are UTF-8 JSON: the portal stores them so and the app reads them so. A map saved by an \
            editor in another encoding (Windows-1252, Latin-1, UTF-16) cannot be read at all, or shows \
            garbled titles, labels and coded values. It usually happens when a map with accented names is \
            edited by hand. A UTF-8 byte-order mark is accepted.
            """,
        fix: "Save the file as UTF-8 in your editor (re-encoding it, not just relabelling it), or export it again from the portal.",
        triggeringExamples: [
            // "Café" written in Latin-1: 0xE9 is not UTF-8.
            .bytes(Array(#"{"operationalLayers": [], "baseMap": {"title": "Caf"#.utf8) + [0xE9] + Array(#""}}"#.utf8)),
            // UTF-16 with a byte-order mark.
            .bytes([0xFF, 0xFE] + #"{"baseMap": {}}"#.utf8.flatMap { [$0, 0] }),
        ],
        nonTriggeringExamples: [
            .document(#"{"operationalLayers": [], "baseMap": {"title": "Café"}}"#),
            // UTF-8 with a byte-order mark is accepted.
            .bytes([0xEF, 0xBB, 0xBF] + Array(#"{"operationalLayers": [], "baseMap": {"title": "Café"}}"#.utf8)),
        ])

    public static func check(_ context: LintContext) {
        guard let error = context.parseError else { return }
        let failure = ParseFailure.classify(error, in: context.source)
        guard failure.kind == .encoding else { return }
        context.report(self, pointer: .root, offset: failure.offset, message: failure.message)
    }
}
