import Arcade
import WebMap

/// `arcade/unknown-layer`: `FeatureSetByName($map, "X")` where no layer or table of the map is titled X.
public enum ArcadeUnknownLayerRule: MapRule {
    public static let description = RuleDescription(
        id: "arcade/unknown-layer",
        severity: .error,
        summary: "A pop-up or form Arcade expression asks `$map` for a layer or table that the map does not have.",
        rationale: """
            `FeatureSetByName($map, "X")` finds the layer or table of the map whose title is X, exactly as \
            written (Arcade compares titles case-sensitively). When the map has none, the call fails and the \
            app shows nothing for the expression. It usually comes from a layer renamed in the map, removed \
            from it, or a typing mistake. A title built at run time (`'Tr' + 'ees'`, a variable) is not checked.
            """,
        fix: "Write the title of a layer or table of the map (the finding lists the closest), or add the layer to the map.",
        triggeringExamples: [
            .document(ArcadeExamples.map(expression: "return Count(FeatureSetByName($map, 'Inspections'))"), services: Examples.treesSnapshot),
            .document(ArcadeExamples.map(expression: "return Count(FeatureSetByName($map, \"trees\"))"), services: Examples.treesSnapshot),
            // In a form's value expression (the way Field Maps authors copy a value from a containing polygon).
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "expr/ward"}"#,
                                       expressions: FormExamples.expression("expr/ward", "First(Intersects(FeatureSetByName($map, 'Wards'), $feature)).NAME", returnType: "string")),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(ArcadeExamples.map(expression: """
                var nearby = Intersects(FeatureSetByName($map, 'Trees', ['Address'], false), Buffer($feature, 10, 'meters'))
                return Count(nearby) + Count(FeatureSetByName($map, 'Tr' + 'ees'))
                """), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        let titles = context.behavior.layers.compactMap(\.layer.title)
        // Made when first needed, once per map: a map of many layers asks each about many names.
        var known: Set<String>?
        var candidates: EditDistance.Candidates?
        var list: String?
        var memo = SuggestionMemo()
        // Titles compared so far for suggestions: each unknown name is compared with every title, so a map of
        // 100,000 layers with 20,000 unknown names took eight minutes. Past the budget (about a second), the
        // remaining findings list the titles instead of suggesting one.
        var compared = 0
        for expression in ArcadeExpression.all(in: context) {
            for reference in expression.layerNames where reference.source?.lowercased() == "$map" {
                if known == nil { known = Set(titles) }
                if known!.contains(reference.name) { continue }
                let closest = memo.closest(to: reference.name) { name in
                    guard compared < suggestionBudget else { return nil }
                    compared += titles.count
                    if candidates == nil { candidates = EditDistance.Candidates(titles) }
                    return EditDistance.closest(to: name, in: candidates!)
                }
                if closest == nil, list == nil { list = listing(titles) }
                context.report(self, in: expression, at: reference.range.start, about: reference.name, message:
                    "Arcade expression \(expression.displayName) in \(expression.place) asks $map for '\(reference.name)', which is the title of no layer or "
                    + "table of the map: the call fails and the app shows nothing for the expression."
                    + (closest.map { " Did you mean '\($0)'?" } ?? " Its layers and tables: " + list! + "."))
            }
        }
    }

    /// At most the first `listedTitles` titles, quoted, then how many more: every finding's message names the map's
    /// layers, and a map of 100,000 layers with 20,000 such findings made messages of 1.5 MB each (30 GB in all).
    static func listing(_ titles: [String]) -> String {
        let listed = titles.prefix(listedTitles).map { "'\($0)'" }.joined(separator: ", ")
        let more = titles.count - listedTitles
        return more > 0 ? listed + " and \(more) more" : listed
    }

    static let listedTitles = 20

    /// Titles a map's findings may be compared with, in all, for their suggestions (see `check`).
    static let suggestionBudget = 2_000_000
}
