import Foundation
import Testing

@Suite struct ConfigSchemaTests {
    let validator: MiniSchemaValidator

    init() throws {
        let url = ReportFixtures.packageRoot.appendingPathComponent("Schemas/config.schema.json")
        validator = MiniSchemaValidator(root: try JSONSerialization.jsonObject(with: Data(contentsOf: url)))
    }

    func errors(_ json: String) throws -> [String] {
        validator.errors(try ReportFixtures.jsonObject(json))
    }

    @Test func acceptsAFullConfiguration() throws {
        let config = """
        {
          "$schema": "https://maprules.dev/schemas/config.schema.json",
          "rules": {"*": "warning", "popup/*": "error", "map/title-too-long": "off"},
          "overrides": [
            {"files": ["Samples/Drafts/**"], "rules": {"add-feature/none-eligible": "info"}},
            {"layers": ["Trees_1234", "Trees"], "rules": {"popup/unknown-field": "warning"}},
            {}
          ],
          "variables": {"PORTAL": "https://example.org"}
        }
        """
        #expect(try errors(config) == [])
        #expect(try errors("{}") == [])
    }

    @Test(arguments: [
        #"{"rule": {}}"#,
        #"{"rules": {"popup/unknown-field": "fatal"}}"#,
        #"{"rules": {"Popup/Unknown": "off"}}"#,
        #"{"rules": {"popup": "off"}}"#,
        #"{"rules": {"popup/**": "off"}}"#,
        #"{"overrides": [{"files": "a.json"}]}"#,
        #"{"overrides": [{"paths": []}]}"#,
        #"{"variables": {"A": 1}}"#,
    ])
    func rejects(config: String) throws {
        #expect(try !errors(config).isEmpty)
    }
}
