import Foundation
import Testing
import Arcade

/// The FeatureSet examples of https://developers.arcgis.com/arcade/function-reference/featureset_functions/ and
/// the FeatureSet forms of https://developers.arcgis.com/arcade/function-reference/math_functions/, as whole
/// expressions over the in-memory data access of `FeatureSetTestSource.swift` ($map titles, $layer).
@Suite struct FeatureSetExpressionTests {
    static func access() -> DataMemoryAccess {
        let access = DataMemoryAccess()
        let counties = DataSamples.counties()
        access.byTitle["Bike routes"] = counties
        access.byLayerName["DemoLayerWM_1117"] = counties
        access.current = counties
        access.related["Election_Results"] = DataSamples.electionResults()
        return access
    }

    static func evaluate(_ source: String, population: Double = 230_000) throws -> ArcadeValue {
        let feature = ArcadeFeature(attributes: ArcadeDictionary([("NAME", .text("Canyon")), ("population", .number(population))]))
        return try ArcadeEvaluator.evaluate(source, context: ArcadeEvaluationContext(feature: feature, dataAccess: access()))
    }

    @Test(arguments: [
        ("var features = FeatureSetByName($map,'Bike routes', ['*'], true);\nCount(features);", "4"),
        ("var features = FeatureSetById($map,'DemoLayerWM_1117', ['*'], true);\nCount( features );", "4"),
        ("Count($layer)", "4"),
        ("var results = FeatureSetByRelationshipName($feature, 'Election_Results', ['*'], false)\nSum(results, 'democrat + republican + other')", "365"),
        ("var result = Filter($layer, 'POPULATION > 10000');\nCount(result)", "3"),
        ("var averageValue = Average($layer, 'POPULATION')\nvar result = Filter($layer, 'POPULATION > @averageValue');\nFirst(result).NAME", "\"Ada\""),
        ("var top = Top( OrderBy($layer, 'POPULATION DESC'), 2 )\nvar names = []\nfor (var f in top) { Push(names, f.NAME) }\nnames", #"["Ada","Canyon"]"#),
        ("Max($layer, 'population')", "500000"),
        ("Min($layer, 'population / area')", "20"),
        ("( $feature.population / Sum($layer, 'population') ) * 100", "29.87012987012987"),
        ("Round($feature.population - Mean($layer, 'population'), 2)", "-26666.67"),
        ("var status = \"O'Neil\"\nCount(Filter($layer, 'Status = @status'))", "1"),
        ("Count(Distinct($layer, 'Status'))", "3"),
        ("var g = GroupBy($layer, 'Status', { name: 'Total', expression: 'POPULATION', statistic: 'SUM' })\nFirst(Filter(g, \"Status = 'Open'\")).Total", "730000"),
    ])
    func examples(source: String, expected: String) throws {
        #expect(try Self.evaluate(source).dataJSON == expected, "\(source)")
    }

    @Test func unknownLayerAndMissingDataAccess() throws {
        #expect(throws: ArcadeError.self) { try Self.evaluate("FeatureSetByName($map, 'Nope')") }
        do {
            _ = try ArcadeEvaluator.evaluate("Count(FeatureSetByRelationshipName($feature, 'Election_Results'))",
                                             context: ArcadeEvaluationContext(feature: ArcadeFeature(attributes: ArcadeDictionary())))
            Issue.record("no error")
        } catch let error as ArcadeError {
            #expect(error.ruleId == "arcade/runtime-error")
            #expect(error.message.contains("FeatureSets are not available here"))
        }
    }
}
