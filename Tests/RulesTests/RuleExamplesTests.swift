import Testing
import Rules
import WebMap

/// Every rule's own examples: the triggering ones must fire it, the non-triggering ones must not.
@Suite struct RuleExamplesTests {
    static let ruleIds = RuleCatalog.allIds

    @Test(arguments: ruleIds)
    func triggeringExamplesFire(id: String) throws {
        let rule = try #require(RuleCatalog.rule(id: id))
        #expect(!rule.description.triggeringExamples.isEmpty, "\(id) has no triggering example")
        for example in rule.description.triggeringExamples {
            let found = ExampleRunner.diagnostics(for: example)
            #expect(found.contains { $0.ruleId == id }, "\(id) did not fire on:\n\(example.displayText)\nfound: \(found.map(\.ruleId))")
        }
    }

    @Test(arguments: ruleIds)
    func nonTriggeringExamplesDoNotFire(id: String) throws {
        let rule = try #require(RuleCatalog.rule(id: id))
        #expect(!rule.description.nonTriggeringExamples.isEmpty, "\(id) has no non-triggering example")
        for example in rule.description.nonTriggeringExamples {
            let found = ExampleRunner.diagnostics(for: example).filter { $0.ruleId == id }
            #expect(found.isEmpty, "\(id) fired on its non-triggering example:\n\(example.displayText)\n\(found.map(\.message))")
        }
    }

    @Test func idsAreUniqueAndWellFormed() {
        #expect(Set(Self.ruleIds).count == Self.ruleIds.count)
        for id in Self.ruleIds { #expect(id.split(separator: "/").count == 2, "\(id)") }
    }
}
