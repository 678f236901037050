import Foundation
import Testing

/// Forms from the command line: `inspect` of the two samples' forms (text and the JSON shape of forms.md), and
/// the samples clean under the form/ rules.
@Suite(.serialized) struct FormCommandTests {
    static func form(of map: String, layer title: String) throws -> [String: Any] {
        let result = try CLI.run(["inspect", map, "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try #require(CLI.json(result.stdout) as? [String: Any])
        let layers = try #require(json["layers"] as? [[String: Any]])
        let layer = try #require(layers.first { $0["title"] as? String == title })
        return try #require(layer["form"] as? [String: Any])
    }

    @Test func inspectGivesTheDamageAssessmentFormForANewFeature() throws {
        let form = try Self.form(of: "Samples/DamageAssessment/DamageAssessment.json", layer: "Damage Assessment")
        let elements = try #require(form["elements"] as? [[String: Any]])
        for element in elements where element["type"] as? String == "field" {
            for key in ["type", "fieldName", "label", "inputType", "visible", "editable", "required", "calculated", "value"] {
                #expect(element.keys.contains(key), "\(element["fieldName"] ?? "?") lacks \(key)")
            }
        }
        func element(_ name: String) throws -> [String: Any] { try #require(elements.first { $0["fieldName"] as? String == name }) }
        #expect(try element("typdamage")["inputType"] as? String == "radio-buttons")
        #expect(try element("typdamage")["value"] as? String == "Default")
        // The Damage group is hidden for a building with the default damage type, and its fields with it.
        #expect(elements.first { $0["type"] as? String == "group" && $0["label"] as? String == "Damage" }?["visible"] as? Bool == false)
        #expect(try element("estloss")["visible"] as? Bool == false)
        #expect(try element("incidentid")["calculated"] as? Bool == true)
        #expect(try element("incidentid")["editable"] as? Bool == false)
        #expect((form["problems"] as? [Any])?.isEmpty == true)
    }

    @Test func inspectGivesTheTreesFormAndSaysTheNeighborhoodNeedsTheMap() throws {
        let form = try Self.form(of: "Samples/TreesOfPortland/TreesOfPortland.json", layer: "Trees")
        let elements = try #require(form["elements"] as? [[String: Any]])
        let neighborhood = try #require(elements.first { $0["fieldName"] as? String == "Neighborhood" })
        #expect(neighborhood["calculated"] as? Bool == true)
        #expect(elements.first { $0["fieldName"] as? String == "Irrigated" }?["inputType"] as? String == "switch")
        #expect(elements.first { $0["fieldName"] as? String == "Address" }?["required"] as? Bool == true)
        #expect(elements.contains { $0["type"] as? String == "attachment" })
        // inspect has no data access: the FeatureSet read is a problem, not a value.
        let problems = try #require(form["problems"] as? [[String: Any]])
        #expect(problems.contains { $0["expression"] as? String == "expr/neighborhood" })
        let text = try CLI.run(["inspect", "Samples/TreesOfPortland/TreesOfPortland.json"])
        #expect(text.stdout.contains("form: 'Tree'"), "\(text.stdout)")
        #expect(text.stdout.contains("Irrigated (Irrigated): switch, editable"), "\(text.stdout)")
    }

    @Test func theCleanSamplesHaveNoFormFindings() throws {
        let result = try CLI.run(["lint", "Samples/TreesOfPortland", "Samples/DamageAssessment", "Samples/Offline", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\"form/") == false)
    }
}
