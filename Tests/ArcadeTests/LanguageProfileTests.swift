import Arcade
import Testing

/// Profile variables and what each profile must return (arcade.md, "Profile variables").
@Suite struct LanguageProfileTests {
    let schema = ArcadeLayerSchema(fields: [
        .init(name: "Status", type: "esriFieldTypeString"),
        .init(name: "Inspector", type: "esriFieldTypeString"),
        .init(name: "DBH", type: "esriFieldTypeDouble"),
    ])

    @Test func featureFieldsReadWithoutRegardToCase() throws {
        let context = CoreTest.context([("DBH", .number(25)), ("Status", .text("Damaged"))])
        #expect(try CoreTest.number("$feature.DBH", context) == 25)
        #expect(try CoreTest.number("$feature.dbh", context) == 25)
        #expect(try CoreTest.number(#"$feature["dbh"]"#, context) == 25)
        #expect(try CoreTest.text("$FEATURE['status']", context) == "Damaged")
        #expect(try CoreTest.text("IIf($feature.DBH > 20, \"big\", \"small\")", context) == "big")
        #expect(try CoreTest.text("TypeOf($feature)", context) == "Feature")
        #expect(try CoreTest.number("var f = $feature; f.DBH", context) == 25)
    }

    @Test func missingFieldsAreRunErrorsUnlessTheLayerHasThem() throws {
        let withSchema = ArcadeEvaluationContext(feature: CoreTest.feature([("Status", .text("ok"))], schema: schema))
        #expect(try CoreTest.isNull("$feature.Inspector", withSchema))
        let error = try #require(CoreTest.error("\n$feature.Nope", withSchema))
        #expect(error.ruleId == "arcade/runtime-error" && error.line == 2 && error.message.contains("Nope"))
        #expect(CoreTest.error("$feature.Nope", CoreTest.context([("A", .number(1))]))?.ruleId == "arcade/runtime-error")
    }

    @Test func theConstraintOfTheBenchmark() throws {
        let program = try ArcadeProgram("$feature.Status == 'Damaged' && !IsEmpty($feature.Inspector)")
        let feature = CoreTest.feature([("Status", .text("Damaged")), ("Inspector", .text("Ana"))], schema: schema)
        let context = ArcadeEvaluationContext(profile: .formConstraint, feature: feature)
        guard case .boolean(true) = try program.evaluate(context) else { Issue.record("expected true"); return }
        feature.attributes["Inspector"] = .null
        guard case .boolean(false) = try program.evaluate(context) else { Issue.record("expected false"); return }
        feature.attributes["Status"] = .text("Fine")
        guard case .boolean(false) = try program.evaluate(context) else { Issue.record("expected false"); return }
    }

    @Test func formProfilesCheckTheirResult() throws {
        let constraint = ArcadeEvaluationContext(profile: .formConstraint, feature: CoreTest.feature([("A", .number(1))]))
        #expect(try CoreTest.boolean("$feature.A == 1", constraint) == true)
        let notBoolean = try #require(CoreTest.error("$feature.A", constraint))
        #expect(notBoolean.ruleId == "arcade/runtime-error" && notBoolean.message.contains("Boolean"))
        let calculation = ArcadeEvaluationContext(profile: .formCalculation, feature: CoreTest.feature([("A", .number(1))]))
        #expect(try CoreTest.number("$feature.A + 1", calculation) == 2)
        #expect(try CoreTest.isNull("null", calculation))
        #expect(CoreTest.error("[1, 2]", calculation)?.message.contains("Number, Text, Date or null") == true)
    }

    @Test func originalFeatureAndEditContext() throws {
        var context = ArcadeEvaluationContext(profile: .formConstraint, feature: CoreTest.feature([("A", .number(2))]),
                                              originalFeature: CoreTest.feature([("A", .number(1))]), editType: "UPDATE")
        #expect(try CoreTest.boolean("$feature.A != $originalFeature.A && $editcontext.editType == 'UPDATE'", context) == true)
        context.originalFeature = nil
        context.editType = "INSERT"
        #expect(try CoreTest.boolean("IsEmpty($originalFeature.A) && $editContext.editType == 'INSERT'", context) == true)
        context.editType = nil
        #expect(try CoreTest.boolean("$editcontext.editType == 'NA'", context) == true)
    }

    @Test func theHostsFeaturesAreReadOnly() throws {
        let feature = CoreTest.feature([("A", .number(1))])
        let context = ArcadeEvaluationContext(feature: feature)
        let error = try #require(CoreTest.error("$feature.A = 2", context))
        #expect(error.ruleId == "arcade/runtime-error" && error.message.contains("cannot be changed"))
        #expect(CoreTest.error("var f = $feature; f['A'] += 1", context)?.ruleId == "arcade/runtime-error")
        #expect(feature.attributes["A"].map { if case .number(1) = $0 { return true } else { return false } } == true)
    }

    @Test func variablesOutsideTheirProfileAreErrors() throws {
        let popup = CoreTest.context([("A", .number(1))])
        let error = try #require(CoreTest.error("$originalFeature.A", popup))
        #expect(error.ruleId == "arcade/runtime-error" && error.message.contains("popup"))
        let constraint = ArcadeEvaluationContext(profile: .formConstraint, feature: CoreTest.feature([]))
        #expect(CoreTest.error("TypeOf($map) == 'x'", constraint)?.message.contains("form-constraint") == true)
        #expect(CoreTest.error("$map")?.message.contains("data access") == true)
        #expect(CoreTest.error("$feature.A")?.message.contains("no feature") == true)
        #expect(CoreTest.error("$nonsense")?.ruleId == "arcade/runtime-error")
    }
}
