import Foundation
import Runtime
import Rules
import Testing

/// Pop-up sessions evaluate `{expression/NAME}` (popupInfo.expressionInfos) as the app does.
@Suite struct PopupExpressionTests {
    private func treesSession(expressions: String, title: String) async throws -> (FeatureTable, PopupEditSession) {
        var text = try String(contentsOfFile: Samples.folder + "/TreesOfPortland/TreesOfPortland.json", encoding: .utf8)
        // The Trees pop-up: its title, and its (empty) expressionInfos, the first after the title.
        let titleRange = try #require(text.range(of: "\"title\": \"{Address}\""))
        let infos = try #require(text.range(of: "\"expressionInfos\": []", range: titleRange.upperBound..<text.endIndex))
        text.replaceSubrange(infos, with: "\"expressionInfos\": [\(expressions)]")
        text.replaceSubrange(titleRange, with: "\"title\": \"\(title)\"")
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland", map: try Runtimes.webMap(text: text))
        let trees = try await geodatabase.table(layerID: 0)
        return (trees, PopupEditSession(feature: try await trees.feature(objectId: 1), table: trees))
    }

    @Test func titlesAndExpressionFieldsAreEvaluatedOnTheFeature() async throws {
        let (_, session) = try await treesSession(expressions: """
            {"name": "label", "expression": "Upper($feature.Address) + ' (' + TypeOf($feature.DBH) + ')'"},
            {"name": "planted", "expression": "TypeOf($feature.Planted_Date)"},
            {"name": "broken", "expression": "Left($feature.Address"},
            {"name": "missing", "expression": "$feature.NoSuchField"}
            """, title: "Tree: {expression/label}")
        let address = try #require(session.original["Address"]?.string)
        let label = try #require(session.expressionValue(named: "LABEL"))
        #expect(label.text == address.uppercased() + " (Number)" || label.text == address.uppercased() + " (Null)", "\(label)")
        #expect(label.error == nil && label.type == "Text")
        #expect(session.title == "Tree: " + label.text)
        let planted = try #require(session.expressionValue(named: "planted"))
        #expect(planted.text == "Date" || planted.text == "Null", "\(planted)")
        let broken = try #require(session.expressionValue(named: "broken"))
        #expect(broken.text.isEmpty && broken.error?.ruleId == "arcade/syntax" && broken.error?.line == 1, "\(broken)")
        let missing = try #require(session.expressionValue(named: "missing"))
        #expect(missing.error?.ruleId == "arcade/runtime-error", "\(missing)")
        #expect(session.expressionValue(named: "nope") == nil)
        #expect(session.expressionValues.map(\.name) == ["label", "planted", "broken", "missing"])
    }

    @Test func aFailingTitleExpressionShowsNothing() async throws {
        let (_, session) = try await treesSession(expressions: #"{"name": "bad", "expression": "[1][5]"}"#,
                                                  title: "Tree{expression/bad}")
        #expect(session.title == "Tree")
    }
}
