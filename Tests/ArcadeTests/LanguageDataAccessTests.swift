import Arcade
import Testing

/// `$layer`, `$map`, `$datastore` and for-in over a FeatureSet, over a small in-memory source.
@Suite struct LanguageDataAccessTests {
    final class TreesSource: ArcadeFeatureSource {
        let trees: [ArcadeFeature]
        var reads = 0
        init(_ heights: [Double]) {
            trees = heights.map { ArcadeFeature(attributes: ArcadeDictionary([("Height", .number($0))])) }
        }
        var schema: ArcadeLayerSchema? { ArcadeLayerSchema(fields: [.init(name: "Height", type: "esriFieldTypeDouble")]) }
        func features(matching query: ArcadeFeatureQuery) throws -> [ArcadeFeature] {
            reads += 1
            return trees
        }
    }

    final class MapAccess: ArcadeDataAccess {
        let layer: TreesSource
        init(_ layer: TreesSource) { self.layer = layer }
        func featureSource(titled title: String) throws -> ArcadeFeatureSource? { title == "Trees" ? layer : nil }
        func featureSource(layerNamed name: String) throws -> ArcadeFeatureSource? { nil }
        func currentLayer() throws -> ArcadeFeatureSource? { layer }
        func relatedFeatures(of feature: ArcadeFeature, relationshipName name: String) throws -> ArcadeFeatureSource? { nil }
    }

    @Test func forInOverTheLayersFeatures() throws {
        let source = TreesSource([3, 4, 5])
        let context = ArcadeEvaluationContext(feature: CoreTest.feature([("Height", .number(1))]), dataAccess: MapAccess(source))
        #expect(try CoreTest.number("var total = 0; for (var tree in $layer) { total += tree.Height } total", context) == 12)
        #expect(try CoreTest.text("TypeOf($layer)", context) == "FeatureSet")
        #expect(try CoreTest.text("TypeOf($map)", context) == "FeatureSetCollection")
        #expect(try CoreTest.number("var n = 0; for (var t in $layer) { if (t.Height > 3) { break } n++ } n", context) == 1)
        #expect(source.reads == 2)
    }

    @Test func dataAccessIsRefusedWhereItIsNotGiven() throws {
        let error = try #require(CoreTest.error("for (var t in $layer) { }", CoreTest.context([])))
        #expect(error.ruleId == "arcade/runtime-error" && error.message.contains("data access"))
        let constraint = ArcadeEvaluationContext(profile: .formConstraint, feature: CoreTest.feature([]),
                                                 dataAccess: MapAccess(TreesSource([1])))
        #expect(CoreTest.error("TypeOf($layer) == 'FeatureSet'", constraint)?.message.contains("form-constraint") == true)
    }

    @Test func libraryFunctionsReadVariablesAndCallFunctions() throws {
        // Library functions call user functions through ArcadeCallContext.invoke (Filter, Map, Reduce, Sort ...),
        // when the array category is built in; here a logical function is passed as a value and called.
        #expect(try CoreTest.boolean("function call(f, v) { return f(v) } call(IsEmpty, '')") == true)
        #expect(try CoreTest.text("var f = TypeOf; f(1)") == "Number")
    }
}
