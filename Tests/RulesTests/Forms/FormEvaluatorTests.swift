import Arcade
import Foundation
import Rules
import Testing
import WebMap

/// The one form computation (forms.md, "Semantics"), through its public API, on the two samples' forms.
@Suite struct FormEvaluatorTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The behaviour of layer `layerId` of sample `name`, resolved with the sample's services snapshot.
    static func layer(_ name: String, _ layerId: String) throws -> LayerBehavior {
        let folder = packageRoot.appendingPathComponent("Samples/\(name)")
        let text = SourceText(bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(name).json"))))
        let document = try #require(WebMapDocument(root: try JSONParser.parse(text).root, source: text))
        let services = SourceText(bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(name).services.json"))))
        let snapshot = try ServicesSnapshot(path: "s.json", root: try JSONParser.parse(services).root)
        let behavior = MapBehavior(document: document) { MetadataResolver(snapshots: [snapshot]).resolve($0) }
        return try #require(behavior.layers.first { $0.layer.id == layerId })
    }

    static func damage() throws -> FormEvaluator {
        let layer = try layer("DamageAssessment", "DamageAssessment_4481")
        #expect(layer.isFormEnabled)
        return FormEvaluator(try #require(layer.form))
    }

    @Test func aNewDamageAssessmentHidesTheDamageGroupAndCalculatesNothingYet() throws {
        let evaluator = try Self.damage()
        let state = evaluator.evaluate(values: evaluator.form.newFeatureValues(), editType: .insert)
        #expect(state.problems.isEmpty, "\(state.problems)")
        #expect(state.values["typdamage"] == .string("Default"))
        for name in ["primcause", "estloss", "notes"] {
            let element = try #require(state.element(name))
            #expect(!element.isVisible, "\(name)")
            #expect(!element.isRequired, "\(name)")
        }
        let incident = try #require(state.element("incidentid"))
        #expect(incident.isCalculated && !incident.isEditable && incident.value == .null)
        #expect(try #require(state.element("typdamage")).isEditable)
    }

    @Test func majorDamageShowsTheGroupAndRequiresTheLossEstimate() throws {
        let evaluator = try Self.damage()
        let july15 = 1_721_001_600_000  // 2024-07-15T00:00:00Z
        let state = evaluator.evaluate(values: ["TYPDAMAGE": .string("Major"), "inspdate": .int(july15)], editType: .insert)
        #expect(state.problems.isEmpty, "\(state.problems)")
        let loss = try #require(state.element("estloss"))
        #expect(loss.isVisible && loss.isRequired && loss.isEditable)
        #expect(state.missingRequired.map(\.fieldName) == ["estloss"])
        #expect(state.element("incidentid")?.value == .string("NAP-SVR-2024-07-15"))
        // Minor damage: shown, not required.
        let minor = evaluator.evaluate(values: ["typdamage": .string("Minor")], editType: .insert)
        #expect(minor.element("estloss")?.isVisible == true && minor.element("estloss")?.isRequired == false)
        #expect(minor.missingRequired.isEmpty)
    }

    @Test func hiddenValuesAreClearedWhenSavedUnlessTheFieldCannotBeNull() throws {
        let evaluator = try Self.damage()
        let state = evaluator.evaluate(values: ["typdamage": .string("Inaccessible"), "notes": .string("Road closed"),
                                               "placename": .string("Mill Street Tap")], editType: .update)
        #expect(state.element("notes")?.isVisible == false)
        #expect(state.values["notes"] == .string("Road closed"))
        #expect(state.valuesToSave["notes"] == .null)
        #expect(state.valuesToSave["placename"] == .string("Mill Street Tap"))
    }

    /// A small layer whose form is given, on the Trees layer of the rules' examples.
    static func evaluator(elements: String, expressions: String, capabilities: String = "Create,Query,Update,Editing",
                         extraFields: String = "") throws -> FormEvaluator {
        let map = Examples.map(layerExtra: #""formInfo": {"expressionInfos": [\#(expressions)], "formElements": [\#(elements)]}"#)
        let text = SourceText(string: map)
        let document = try #require(WebMapDocument(root: try JSONParser.parse(text).root, source: text))
        let layerJSON = Examples.treesLayer(capabilities: capabilities, extraFields: extraFields)
        let metadata = LayerMetadata(try JSONParser.parse(layerJSON).root)
        let behavior = MapBehavior(document: document) { _ in ResolvedMetadata(metadata: metadata, source: .snapshot) }
        return FormEvaluator(try #require(behavior.layers[0].form))
    }

    @Test func valueExpressionsThatFeedEachOtherStopAfterSixteenRounds() throws {
        let evaluator = try Self.evaluator(
            elements: #"{"type": "field", "fieldName": "Height", "valueExpression": "a"}, {"type": "field", "fieldName": "Width", "valueExpression": "b"}"#,
            expressions: #"{"name": "a", "expression": "$feature.Width + 1", "returnType": "number"}, {"name": "b", "expression": "$feature.Height + 1", "returnType": "number"}"#,
            extraFields: #"{"name": "Height", "type": "esriFieldTypeDouble"}, {"name": "Width", "type": "esriFieldTypeDouble"}"#)
        let state = evaluator.evaluate(values: [:], editType: .insert)
        #expect(state.isCycle)
        #expect(state.problems.map(\.id) == ["runtime/form-calculation-cycle"])
    }

    @Test func chainedValueExpressionsSettleInElementOrderRounds() throws {
        // b depends on a, which comes after it: a second round carries a's value into b.
        let evaluator = try Self.evaluator(
            elements: #"{"type": "field", "fieldName": "Condition", "valueExpression": "b"}, {"type": "field", "fieldName": "Address", "valueExpression": "a"}"#,
            expressions: #"{"name": "a", "expression": "'12 Elm St'", "returnType": "string"}, {"name": "b", "expression": "IIf(IsEmpty($feature.Address), 'none', 'Good')", "returnType": "string"}"#)
        let state = evaluator.evaluate(values: [:], editType: .insert)
        #expect(!state.isCycle)
        #expect(state.values["Condition"] == .string("Good"))
        #expect(state.values["Address"] == .string("12 Elm St"))
    }

    @Test func editabilityFollowsTheServiceTheEditTypeAndTheExpressions() throws {
        let evaluator = try Self.evaluator(
            elements: """
                {"type": "field", "fieldName": "Address", "editableExpression": "is-new"},
                {"type": "field", "fieldName": "Condition", "editable": false},
                {"type": "field", "fieldName": "GlobalID"},
                {"type": "field", "fieldName": "Address", "requiredExpression": "is-new"}
                """,
            expressions: #"{"name": "is-new", "expression": "$editcontext.editType == 'INSERT' && IsEmpty($originalFeature.Address)"}"#,
            capabilities: "Create,Query")
        let insert = evaluator.evaluate(values: [:], editType: .insert)
        #expect(insert.problems.isEmpty, "\(insert.problems)")
        #expect(insert.elements.map(\.isEditable) == [true, false, false, true])
        #expect(insert.elements.map(\.isRequired) == [false, false, true, true])
        // The table cannot update: nothing is editable on an update.
        let update = evaluator.evaluate(values: [:], original: ["Address": .string("1 Oak St")], editType: .update)
        #expect(update.elements.map(\.isEditable) == [false, false, false, false])
        #expect(update.elements[3].isRequired == false)
    }

    @Test func aFailingExpressionIsAProblemAndItsDefaultApplies() throws {
        let evaluator = try Self.evaluator(
            elements: #"{"type": "field", "fieldName": "Address", "visibilityExpression": "broken"}, {"type": "field", "fieldName": "Condition", "visibilityExpression": "missing"}"#,
            expressions: #"{"name": "broken", "expression": "$feature.Nope == 1"}"#)
        let state = evaluator.evaluate(values: [:], editType: .insert)
        #expect(state.elements.map(\.isVisible) == [true, true])
        #expect(Set(state.problems.map(\.id)) == ["arcade/runtime-error", "form/unknown-expression"])
    }

    /// `$map` for the Trees form: Neighborhoods answers one polygon for any query that intersects a shape.
    final class Neighborhoods: ArcadeDataAccess, ArcadeFeatureSource {
        var schema: ArcadeLayerSchema? { ArcadeLayerSchema(fields: [.init(name: "NAME", type: "esriFieldTypeString")]) }
        private(set) var asked: [ArcadeFeatureQuery] = []
        func features(matching query: ArcadeFeatureQuery) throws -> [ArcadeFeature] {
            asked.append(query)
            guard query.intersecting != nil else { return [] }
            return [ArcadeFeature(attributes: ArcadeDictionary([("NAME", .text("Buckman"))]), schema: schema)]
        }
        func featureSource(titled title: String) throws -> ArcadeFeatureSource? { title == "Neighborhoods" ? self : nil }
        func featureSource(layerNamed name: String) throws -> ArcadeFeatureSource? { nil }
        func currentLayer() throws -> ArcadeFeatureSource? { nil }
        func relatedFeatures(of feature: ArcadeFeature, relationshipName name: String) throws -> ArcadeFeatureSource? { nil }
    }

    @Test func theTreesNeighborhoodIsCalculatedFromTheMapWithDataAccess() throws {
        let layer = try Self.layer("TreesOfPortland", "Trees_7125")
        let evaluator = FormEvaluator(try #require(layer.form))
        // Without data access the calculation fails with a problem and leaves no value.
        let offline = evaluator.evaluate(values: evaluator.form.newFeatureValues(), editType: .insert)
        #expect(offline.problems.first?.expression == "expr/neighborhood")
        #expect(offline.values["Neighborhood"] == nil)
        let data = Neighborhoods()
        let point = ArcadeGeometry.point(ArcadePoint(x: -122.65, y: 45.51, wkid: 4326))
        let state = evaluator.evaluate(values: ["Address": .string("1200 SE Morrison St")], geometry: point, editType: .insert, dataAccess: data)
        #expect(state.problems.isEmpty, "\(state.problems)")
        #expect(state.element("Neighborhood")?.value == .string("Buckman"))
        #expect(state.element("Neighborhood")?.isCalculated == true)
        #expect(data.asked.contains { $0.intersecting != nil })
        // The switch on the two-code field and the attachment element are in the form.
        #expect(layer.form?.fieldElements.first { $0.fieldName == "Irrigated" }?.element.inputType?.kind == .switchControl)
        #expect(layer.form?.form.allElements.contains { $0.kind == .attachment } == true)
    }
}

/// The value checks of a form (forms.md, "Runtime"): required, length, the element's own domain.
@Suite struct FormValidationTests {
    @Test func requiredLengthAndTheElementsOwnDomainAreCheckedOnVisibleElements() throws {
        let evaluator = try FormEvaluatorTests.evaluator(
            elements: """
                {"type": "field", "fieldName": "Address", "inputType": {"type": "text-box", "minLength": 5, "maxLength": 8}, "requiredExpression": "expr/system/true"},
                {"type": "field", "fieldName": "Condition", "domain": {"type": "codedValue", "name": "Short", "codedValues": [{"name": "Good", "code": "Good"}]}},
                {"type": "field", "fieldName": "Height", "domain": {"type": "range", "name": "H", "range": [0, 100]}},
                {"type": "field", "fieldName": "Width", "visibilityExpression": "expr/system/false", "requiredExpression": "expr/system/true"}
                """,
            expressions: "", extraFields: #"{"name": "Height", "type": "esriFieldTypeDouble"}, {"name": "Width", "type": "esriFieldTypeDouble"}"#)
        let empty = evaluator.evaluate(values: [:], editType: .insert)
        #expect(empty.validationErrors.map(\.id) == [FormValidation.required])
        #expect(empty.missingRequired.map(\.fieldName) == ["Address"])
        let bad = evaluator.evaluate(values: ["Address": .string("12 Oak Street"), "Condition": .string("Poor"), "Height": .int(120)], editType: .insert)
        #expect(bad.validationErrors.map(\.id) == [FormValidation.length, FormValidation.domain, FormValidation.domain])
        #expect(bad.validationErrors.map(\.fieldName) == ["Address", "Condition", "Height"])
        let good = evaluator.evaluate(values: ["Address": .string("12 Oak"), "Condition": .string("Good"), "Height": .double(99.5)], editType: .insert)
        #expect(good.validationErrors.isEmpty, "\(good.validationErrors)")
    }
}
