import WebMap

/// `map/template-placeholder`: a `{{ name }}` placeholder that no variable resolves.
public enum MapTemplatePlaceholderRule: MapRule {
    public static let description = RuleDescription(
        id: "map/template-placeholder",
        severity: .info,
        summary: "A string holds a `{{ name }}` placeholder that no variable resolves.",
        rationale: """
            Solution templates and secret-injection build steps write `{{ name }}` placeholders into maps and \
            fill them in when they deploy. Linted before that step, the placeholder is not a real value: the \
            app would show or request the text literally (a layer URL holding one cannot load). MapRules \
            substitutes the values given with `--var NAME=VALUE` or the configuration's `variables` before \
            the rules run; a layer whose URL still holds a placeholder is not checked for its URL or metadata.
            """,
        fix: "Pass `--var NAME=VALUE`, add the name to `variables` in `.maprules.json`, or replace the placeholder with the real value.",
        triggeringExamples: [
            .document(Examples.map(url: "{{ portal }}/arcgis/rest/services/Trees/FeatureServer/0")),
            .document(Examples.map(title: "{{title}}"), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(url: "{{ portal }}/arcgis/rest/services/Trees/FeatureServer/0"),
                      services: Examples.treesSnapshot, variables: ["portal": "https://example.com"]),
            .document(Examples.map(title: "{Address}"), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        let placeholders = context.lint.placeholders
        var reported = Set<String>()
        for placeholder in placeholders where reported.insert(placeholder.name).inserted {
            let uses = placeholders.filter { $0.name == placeholder.name }.count
            context.lint.report(self, pointer: placeholder.pointer, offset: placeholder.offset, message: """
                '{{ \(placeholder.name) }}' is a template placeholder that no variable resolves\
                \(uses > 1 ? " (used \(uses) times in this file; this is the first)" : ""): the app would use the \
                text literally. Pass --var \(placeholder.name)=VALUE, add "\(placeholder.name)" to `variables` in \
                .maprules.json, or replace it with the real value.
                """, layer: context.document.enclosingLayer(of: placeholder.pointer))
        }
    }
}
