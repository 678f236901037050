import Foundation
import Testing
import Arcade

/// FeatureSet functions over an in-memory source (`DataMemorySource`), following the examples of
/// https://developers.arcgis.com/arcade/function-reference/featureset_functions/ (formerly in
/// https://developers.arcgis.com/arcade/function-reference/data_functions/) and the FeatureSet forms of
/// https://developers.arcgis.com/arcade/function-reference/math_functions/. `FeatureSetByName($map, ...)` needs the
/// `$map` value, which only the evaluator makes: it is tested with whole expressions.
@Suite struct FeatureSetFunctionTests {
    static func layer(_ source: DataMemorySource = DataSamples.counties()) -> ArcadeValue {
        .featureSet(ArcadeFeatureSet(source: source))
    }

    static func query(_ value: ArcadeValue) -> ArcadeFeatureQuery? {
        if case .featureSet(let set) = value { return set.query }
        return nil
    }

    static func names(_ value: ArcadeValue, _ context: DataTestContext = DataTestContext()) throws -> [String] {
        guard case .featureSet(let set) = value else { return [] }
        return try set.source.features(matching: set.query).map { $0.attributes["NAME"]?.textValue ?? "?" }
    }

    @Test func relatedRecordsAndTheirSum() throws {
        // var results = FeatureSetByRelationshipName($feature, 'Election_Results', ['*'], false)
        // Sum(results, 'democrat + republican + other')
        let access = DataMemoryAccess()
        access.related["Election_Results"] = DataSamples.electionResults()
        let context = DataTestContext(dataAccess: access)
        let precinct = ArcadeValue.feature(ArcadeFeature(attributes: ArcadeDictionary([("ID", .number(1))])))
        let results = try callData("FeatureSetByRelationshipName", precinct, DV.t("Election_Results"), DV.texts("*"), DV.b(false),
                                   context: context)
        #expect(Self.query(results)?.fields == nil)
        #expect(Self.query(results)?.includeGeometry == false)
        #expect(try callData("Sum", results, DV.t("democrat + republican + other"), context: context).dataNumber == 365)
        #expect(throws: ArcadeFunctionError.self) {
            try callData("FeatureSetByRelationshipName", precinct, DV.t("Inspections"), context: context)
        }
    }

    @Test func withoutDataAccessAClearRunError() {
        let precinct = ArcadeValue.feature(ArcadeFeature(attributes: ArcadeDictionary()))
        do {
            _ = try callData("FeatureSetByRelationshipName", precinct, DV.t("Election_Results"))
            Issue.record("no error")
        } catch let error as ArcadeFunctionError {
            #expect(error.message.contains("FeatureSets are not available here"))
        } catch { Issue.record("\(error)") }
    }

    @Test func filterWithSQLAndVariables() throws {
        // var result = Filter($layer, 'POPULATION > 10000')
        let big = try callData("Filter", Self.layer(), DV.t("POPULATION > 10000"))
        #expect(Self.query(big)?.whereClauses == ["POPULATION > 10000"])
        #expect(try callData("Count", big).dataNumber == 3)
        // var averageValue = Average($layer, 'POPULATION'); Filter($layer, 'POPULATION > @averageValue')
        let context = DataTestContext()
        let average = try callData("Average", Self.layer(), DV.t("POPULATION"), context: context)
        #expect(dataRounded(average, 2) == 256666.67) // the null population is left out
        context.variables["averageValue"] = average
        let aboveAverage = try callData("Filter", Self.layer(), DV.t("POPULATION > @averageValue"), context: context)
        #expect(try Self.names(aboveAverage) == ["Ada"])
    }

    @Test func variablesBecomeSQLLiterals() throws {
        let context = DataTestContext()
        context.variables["status"] = DV.t("O'Neil")
        context.variables["codes"] = DV.texts("Open", "Closed")
        context.variables["flag"] = DV.b(true)
        context.variables["day"] = .date(ArcadeDate(epochMilliseconds: 1_555_804_800_000)) // 2019-04-21T00:00:00Z
        let clause = try callData("Filter", Self.layer(), DV.t("Status = @status AND Status IN @codes AND F = @flag AND D < @day AND N = '@status'"),
                                  context: context)
        #expect(Self.query(clause)?.whereClauses
            == ["Status = 'O''Neil' AND Status IN ('Open', 'Closed') AND F = 1 AND D < timestamp '2019-04-21 00:00:00' AND N = '@status'"])
        let oneil = try callData("Filter", Self.layer(), DV.t("Status = @status"), context: context)
        #expect(try Self.names(oneil) == ["Custer"])
        let listed = try callData("Filter", Self.layer(), DV.t("Status IN @codes"), context: context)
        #expect(try callData("Count", listed).dataNumber == 3)
        #expect(throws: ArcadeFunctionError.self) { try callData("Filter", Self.layer(), DV.t("Status = @missing"), context: context) }
        context.variables["nan"] = DV.n(.nan)
        #expect(throws: ArcadeFunctionError.self) { try callData("Filter", Self.layer(), DV.t("POPULATION > @nan"), context: context) }
    }

    @Test func orderByTopFirst() throws {
        // Top( OrderBy($layer, 'POPULATION DESC'), 5 ), here 2
        let ordered = try callData("OrderBy", Self.layer(), DV.t("POPULATION DESC"))
        #expect(Self.query(ordered)?.orderBy == "POPULATION DESC")
        let top = try callData("Top", ordered, DV.n(2))
        #expect(Self.query(top)?.limit == 2)
        #expect(try Self.names(top) == ["Ada", "Canyon"])
        guard case .feature(let first) = try callData("First", try callData("OrderBy", Self.layer(), DV.t("NAME DESC"))) else {
            Issue.record(); return
        }
        #expect(first.attributes["NAME"]?.textValue == "Custer")
        #expect(Self.query(try callData("Top", top, DV.n(3)))?.limit == 2) // the smallest applies
        #expect(try callData("First", try callData("Filter", Self.layer(), DV.t("POPULATION > 1000000000")))
            .isNull) // "Returns null if the FeatureSet is empty."
    }

    @Test func statisticsOverAFeatureSet() throws {
        #expect(try callData("Max", Self.layer(), DV.t("population")).dataNumber == 500_000)
        #expect(try callData("Min", Self.layer(), DV.t("POPULATION")).dataNumber == 40_000)
        #expect(try callData("Max", Self.layer(), DV.t("population / area")).dataNumber == 500)
        #expect(try callData("Sum", Self.layer(), DV.t("(POPULATION - 40000) * 2")).dataNumber == 1_300_000)
        #expect(try callData("Mean", Self.layer(), DV.t("AREA")).dataNumber == 2125)
        #expect(try callData("Variance", Self.layer(), DV.t("AREA")).dataNumber == 3_046_875) // population variance of 1000, 2000, 500, 5000
        #expect(try callData("Count", Self.layer()).dataNumber == 4)
        let empty = try callData("Filter", Self.layer(), DV.t("AREA < 0"))
        #expect(try callData("Mean", empty, DV.t("AREA")).isNull)
        #expect(try callData("Sum", empty, DV.t("AREA")).dataNumber == 0)
        #expect(throws: ArcadeFunctionError.self) { try callData("Sum", Self.layer(), DV.t("POPULATION +")) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Sum", Self.layer(), DV.t("NO_SUCH_FIELD")) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Sum", Self.layer(), DV.t(String(repeating: "(", count: 10_000))) }
    }

    @Test func intersectsPutsTheGeometryInTheQuery() throws {
        let area = try callData("Extent", DV.d(("xmin", DV.n(0)), ("ymin", DV.n(0)), ("xmax", DV.n(10)), ("ymax", DV.n(10))))
        let near = try callData("Intersects", Self.layer(), area)
        guard case .extent(let xmin, _, let xmax, _, _)? = Self.query(near)?.intersecting else { Issue.record(); return }
        #expect((xmin, xmax) == (0, 10))
        #expect(throws: ArcadeFunctionError.self) { try callData("Contains", Self.layer(), area) } // not a signature
        #expect(try callData("Count", try callData("Contains", area, Self.layer())).dataNumber == 0) // no geometries
    }

    @Test func schemaAndDomainOfAFeatureSet() throws {
        let schema = ArcadeLayerSchema(fields: [.init(name: "Status", type: "esriFieldTypeString",
                                                      codedValues: [(DV.t("O"), "Open"), (DV.t("C"), "Closed")])],
                                       objectIdField: "OBJECTID")
        let layer = Self.layer(DataMemorySource([[("Status", DV.t("O"))]], schema: schema))
        guard case .dictionary(let described) = try callData("Schema", layer) else { Issue.record(); return }
        #expect(described["objectIdField"]?.textValue == "OBJECTID")
        #expect(try callData("DomainName", layer, DV.t("Status"), DV.t("C")).textValue == "Closed")
        #expect(throws: ArcadeFunctionError.self) { try callData("Schema", Self.layer()) } // fields unknown
    }

    @Test func likeOnAHugeTextIsBounded() throws {
        let big = String(repeating: "ab", count: 5_000_000)
        let definition = DV.d(("fields", DV.a(DV.d(("name", DV.t("NOTE")), ("type", DV.t("esriFieldTypeString"))))),
                              ("features", DV.a(DV.d(("attributes", DV.d(("NOTE", DV.t(big))))))))
        let set = try callData("FeatureSet", definition)
        let start = Date()
        #expect(try callData("Count", try callData("Filter", set, DV.t("NOTE LIKE '%b'"))).dataNumber == 1)
        #expect(throws: ArcadeFunctionError.self) {
            try callData("Count", try callData("Filter", set, DV.t("NOTE LIKE '" + String(repeating: "_%", count: 20) + "'")))
        }
        #expect(try callData("Count", try callData("Filter", set, DV.t("NOTE LIKE 'ab%ba%b' AND NOTE NOT LIKE '%c%'"))).dataNumber == 1)
        #expect(Date().timeIntervalSince(start) < 2, "debug build")
    }

    @Test func getFeatureSetIsTheCurrentLayer() throws {
        let access = DataMemoryAccess()
        access.current = DataSamples.counties()
        let feature = ArcadeValue.feature(ArcadeFeature(attributes: ArcadeDictionary()))
        let set = try callData("GetFeatureSet", feature, context: DataTestContext(dataAccess: access))
        #expect(try callData("Count", set).dataNumber == 4)
    }
}
