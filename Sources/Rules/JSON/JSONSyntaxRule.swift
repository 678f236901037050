import WebMap

/// `json/syntax`: the file is not valid JSON.
public enum JSONSyntaxRule: DocumentRule {
    public static let description = RuleDescription(
        id: "json/syntax",
        severity: .error,
        summary: "The file is not valid JSON.",
        rationale: """
            The app downloads the web map as JSON and refuses the whole map when it cannot be parsed: the user \
            sees an error instead of a map, and nothing in it can be viewed or edited. Hand-edited maps break \
            this way most often: a trailing comma, a missing quote or bracket, a comment. The diagnostic is at \
            the position where parsing stopped; an empty or blank file is reported at line 1, column 1.
            """,
        fix: "Correct the JSON at the reported position (the mistake is usually just before it), or restore the file from the portal.",
        triggeringExamples: [
            .document("""
                {
                  "operationalLayers": [],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []},
                }
                """),
            .document(""),
            .document("{\"operationalLayers\": [{\"id\": \"Trees_1234\"]}"),
        ],
        nonTriggeringExamples: [
            .document("""
                {
                  "operationalLayers": [],
                  "baseMap": {"title": "Topographic", "baseMapLayers": []}
                }
                """),
        ])

    public static func check(_ context: LintContext) {
        guard let error = context.parseError else { return }
        let failure = ParseFailure.classify(error, in: context.source)
        guard failure.kind == .syntax else { return }
        context.report(self, pointer: .root, offset: failure.offset, message: failure.message)
    }
}
