import Report
import Rules
import Testing

/// The rules page (`maprules rules --format markdown`, kept as docs/rules.md) from rule descriptions.
struct RulesPageTests {
    static func rule(id: String, summary: String = "A summary.", triggering: [RuleExample] = [],
                     nonTriggering: [RuleExample] = []) -> RuleDescription {
        RuleDescription(id: id, severity: .warning, summary: summary, rationale: "Why it matters.", fix: "How to fix.",
                        triggeringExamples: triggering, nonTriggeringExamples: nonTriggering)
    }

    @Test func everyRuleHasAnIndexRowLinkingToItsSectionUnderItsFamily() {
        let page = RulesPage.markdown(rules: [Self.rule(id: "popup/a-rule"), Self.rule(id: "zeta/b-rule")])
        #expect(page.contains("| [`popup/a-rule`](#popupa-rule) | warning | A summary. |"))
        #expect(page.contains("\n## popup/: pop-ups\n"))
        #expect(page.contains("\n## zeta/\n"), "a family with no title gets its bare name")
        let popup = page.range(of: "\n### popup/a-rule\n")
        let zeta = page.range(of: "\n### zeta/b-rule\n")
        #expect(popup != nil && zeta != nil && popup!.lowerBound < zeta!.lowerBound)
        #expect(page.contains("**Why it matters.** Why it matters."))
        #expect(page.contains("**How to fix.** How to fix."))
    }

    @Test func aTableCellKeepsItsColumnsWhateverTheSummarySays() {
        let page = RulesPage.markdown(rules: [Self.rule(id: "map/x", summary: "A | B\nC")])
        #expect(page.contains("| [`map/x`](#mapx) | warning | A \\| B C |"))
    }

    @Test func anExampleHoldingBackticksGetsALongerFence() {
        let example = RuleExample.document("{\"expression\": \"```x```\"}")
        let page = RulesPage.markdown(rules: [Self.rule(id: "arcade/x", nonTriggering: [example])])
        #expect(page.contains("````json\n{\"expression\": \"```x```\"}\n````\n"))
    }

    @Test func theTriggeringExampleShowsTheDiagnosticItGives() {
        let rule = RuleCatalog.rule(id: "json/syntax")!.description
        let page = RulesPage.markdown(rules: [rule])
        let section = page[page.range(of: "### json/syntax")!.lowerBound...]
        #expect(section.contains("which reports:"))
        #expect(section.contains("error  "))
        #expect(section.contains("json/syntax\n```"))
        #expect(section.contains("Does not trigger on:"))
    }
}
