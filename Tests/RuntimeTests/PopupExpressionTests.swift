import FeatureServiceModel
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

    /// FeatureSet functions read the geodatabase: the map's layers by title, related records, local edits.
    @Test func featureSetsReadTheServiceAndTheLocalEdits() async throws {
        let (trees, session) = try await treesSession(expressions: """
            {"name": "hood", "expression": "var hoods = Intersects(FeatureSetByName($map, 'Neighborhoods', ['NAME'], true), Geometry($feature)); var h = First(hoods); if (IsEmpty(h)) { return 'outside' } return h.NAME"},
            {"name": "inspections", "expression": "Count(FeatureSetByRelationshipName($feature, 'Inspections'))"},
            {"name": "good", "expression": "var c = 'Good'; Count(Filter(FeatureSetByName($map, 'Trees'), 'Condition = @c'))"},
            {"name": "nomap", "expression": "FeatureSetByName($map, 'No such layer')"}
            """, title: "{Address} in {expression/hood}")
        let address = try #require(session.original["Address"]?.string)
        #expect(try await session.evaluatedTitle() == "\(address) in Kerns")
        // Without data access (the synchronous title) the FeatureSet expression shows nothing.
        #expect(session.title == "\(address) in ")
        let hood = try #require(try await session.evaluateExpression(named: "hood"))
        #expect(hood.text == "Kerns" && hood.type == "Text", "\(hood)")
        let inspections = try #require(try await session.evaluateExpression(named: "inspections"))
        #expect(inspections.type == "Number" && (Int(inspections.text) ?? 0) >= 1, "\(inspections)")
        let good = try #require(try await session.evaluateExpression(named: "good"))
        #expect(good.type == "Number" && (Int(good.text) ?? 0) >= 1, "\(good)")
        let missing = try #require(try await session.evaluateExpression(named: "nomap"))
        #expect(missing.error?.ruleId == "arcade/runtime-error", "\(missing)")

        // A local edit, not yet applied, is what the next evaluation sees: the tree moved far away.
        var moved = try await trees.feature(objectId: 1)
        moved.geometry = .point(Point(x: 0, y: 0))
        try await trees.update(moved)
        let after = PopupEditSession(feature: try await trees.feature(objectId: 1), table: trees)
        let afterHood = try await after.evaluateExpression(named: "hood")
        #expect(afterHood?.text == "outside", "\(String(describing: afterHood)) \(String(describing: after.original.geometry))")
    }
}
