import Foundation
import Testing
import Rules
import WebMap

/// A large map's layers resolved, and its distinct expression texts read and analysed, on every core
/// (`LintOptions.concurrencyMinimumCount`) give exactly the findings of a serial run, in the same order: on a map
/// of many layers and tables, with duplicate ids, relationships, expressions that name other layers, distinct
/// and repeated texts, and on every shipped sample.
@Suite struct ConcurrentLintTests {
    /// `count` layers and `count / 8` tables. Layer `k`: a duplicate id every tenth layer, an expression whose text
    /// is one of six kinds, its own (ending with its index) for two layers in three, naming the next layer (or a
    /// layer that does not exist) with FeatureSetByName, a schema violation every seventh layer.
    static func map(layers count: Int) -> String {
        let kinds = LargeMapLintTests.texts + [
            #"Count(FeatureSetByName($map, 'Trees NEXT')) + $feature.DBH"#,
            #"Count(FeatureSetByName($map, 'Missing NEXT'))"#,
        ]
        let layers = (0..<count).map { k in
            let id = k % 10 == 9 ? "Trees_\(k - 1)" : "Trees_\(k)"
            let visibility = k % 7 == 3 ? #""yes""# : "true"
            var text = kinds[k % kinds.count].replacingOccurrences(of: "NEXT", with: String(k + 1))
            if k % 3 != 0 { text += " // \(k)" }
            let expression = text.replacingOccurrences(of: "\"", with: "\\\"")
            return #"{"id": "\#(id)", "title": "Trees \#(k)", "layerType": "ArcGISFeatureLayer", "url": "\#(Examples.treesURL)", "visibility": \#(visibility), "popupInfo": {"title": "{Address}", "fieldInfos": [{"fieldName": "expression/e", "label": "E", "visible": true}, {"fieldName": "Adress", "label": "A", "visible": true, "isEditable": true}, {"fieldName": "Address", "label": "Address", "visible": true, "isEditable": true}, {"fieldName": "Address", "label": "Again", "visible": true}], "expressionInfos": [{"name": "e", "title": "E", "expression": "\#(expression)"}], "popupElements": [{"type": "fields"}]}}"#
        }
        let tables = (0..<(count / 8)).map { k in
            let popup = k % 2 == 0 ? #", "popupInfo": {"title": "{Notes}", "fieldInfos": [{"fieldName": "Notes", "label": "Notes", "visible": true, "isEditable": true}, {"fieldName": "Note", "label": "N", "visible": true}]}"# : ""
            return #"{"id": "Inspections_\#(k % 5)", "title": "Inspections \#(k)", "url": "\#(AddFeatureRulesTests.inspectionsURL)"\#(popup)}"#
        }
        return "{\"operationalLayers\": [\n" + layers.joined(separator: ",\n") + "\n], \"tables\": [\n" + tables.joined(separator: ",\n")
            + "\n], \"baseMap\": {\"title\": \"Topographic\", \"baseMapLayers\": []}, \"version\": \"2.28\"}\n"
    }

    static let services = Examples.snapshot([
        Examples.treesURL: Examples.treesLayer(),
        AddFeatureRulesTests.inspectionsURL: AddFeatureRulesTests.inspectionsMetadata,
    ])

    /// Nothing spread over the cores, and everything that can be (whatever the size of the map).
    static let serial: LintOptions = {
        var options = LintOptions()
        options.workAsideMinimumSize = .max
        options.concurrencyMinimumCount = .max
        return options
    }()
    static let concurrent: LintOptions = {
        var options = LintOptions()
        options.workAsideMinimumSize = 0
        options.concurrencyMinimumCount = 2
        return options
    }()

    /// The findings for `text` linted serially, and with everything that can be spread over the cores spread.
    static func serialAndConcurrent(_ text: String, services: String?) throws -> (serial: [Diagnostic], concurrent: [Diagnostic]) {
        let found = try LargeMapLintTests.lint(text, services: services, with: [serial, concurrent])
        return (found[0], found[1])
    }

    @Test func manyLayersGiveTheSerialFindingsInTheSameOrder() throws {
        // The threshold is 2 here: every item of work is spread, whatever the size of the map.
        let (serial, concurrent) = try Self.serialAndConcurrent(Self.map(layers: 480), services: Self.services)
        #expect(concurrent.count == serial.count)
        #expect(concurrent == serial)
        let rules = Set(serial.map(\.ruleId))
        for rule in ["schema/invalid", "map/duplicate-layer-id", "arcade/unknown-field", "arcade/unknown-function", "arcade/syntax",
                     "arcade/unknown-layer", "popup/unknown-field", "popup/duplicate-field"] {
            #expect(rules.contains(rule), "no \(rule) finding: \(rules.sorted())")
        }
    }

    /// The rules that walk every layer (URLs, visibility, scales, pop-ups) checked in chunks give the serial
    /// findings, and each finding names its own layer, also inside group layers (whose children come after the
    /// group in the map's order): layer `k` of 600 names its service over http:// when `k % 3 == 0`, carries a
    /// token when `k % 5 == 0`, is hidden when `k % 4 == 0`, and never drawn when `k % 6 == 1`; every tenth layer
    /// is a group holding two such layers.
    @Test func layerRulesInChunksNameTheirOwnLayers() throws {
        func layer(_ id: String, _ k: Int) -> String {
            var url = Examples.treesURL
            if k % 3 == 0 { url = url.replacingOccurrences(of: "https://", with: "http://") }
            if k % 5 == 0 { url += "?token=abc\(k)" }
            let scales = k % 6 == 1 ? #", "layerDefinition": {"minScale": 1000, "maxScale": 5000}"# : ""
            return #"{"id": "\#(id)", "title": "Trees \#(id)", "layerType": "ArcGISFeatureLayer", "url": "\#(url)", "visibility": \#(k % 4 != 0)\#(scales), "popupInfo": {"title": "", "fieldInfos": [{"fieldName": "Address", "visible": true}]}}"#
        }
        let layers = (0..<600).map { k in
            guard k % 10 == 0 else { return layer("L\(k)", k) }
            return #"{"id": "G\#(k)", "title": "Group \#(k)", "layerType": "GroupLayer", "layers": [\#(layer("L\(k)a", k)), \#(layer("L\(k)b", k + 3))]}"#
        }
        let text = "{\"operationalLayers\": [\n" + layers.joined(separator: ",\n") + "\n], \"version\": \"2.28\"}\n"
        let services = Examples.snapshot([Examples.treesURL: Examples.treesLayer(),
                                          Examples.treesURL.replacingOccurrences(of: "https://", with: "http://"): Examples.treesLayer()])
        let (serial, concurrent) = try Self.serialAndConcurrent(text, services: services)
        #expect(concurrent == serial)
        let root = try JSONParser.parse(text).root
        var checked = 0
        for diagnostic in concurrent where ["map/insecure-url", "map/token-in-url", "layer/hidden", "popup/empty-title"].contains(diagnostic.ruleId) {
            // The layer object the finding points into, and the id it names.
            let tokens = try #require(JSONPointer(parsing: diagnostic.pointer)).tokens
            let layerTokens = tokens.prefix(tokens.count >= 4 && tokens[2] == "layers" ? 4 : 2)
            let node = try #require(JSONPointer(Array(layerTokens)).resolve(in: root))
            #expect(diagnostic.layer?.id == node["id"]?.string, "\(diagnostic.ruleId) at \(diagnostic.pointer) names \(String(describing: diagnostic.layer))")
            checked += 1
        }
        #expect(checked > 600)
        for rule in ["map/insecure-url", "map/token-in-url", "layer/hidden", "layer/never-visible", "popup/empty-title"] {
            #expect(serial.contains { $0.ruleId == rule }, "no \(rule) finding")
        }
    }

    /// The default threshold spreads the work too: a map above it gives what the serial run gives.
    @Test func theDefaultThresholdGivesTheSerialFindings() throws {
        // Every FeatureSetByName names a layer of the map: an unknown one's message lists all 2,100 titles.
        let text = Self.map(layers: 2_100).replacingOccurrences(of: "'Missing ", with: "'Trees ")
        let found = try LargeMapLintTests.lint(text, services: Self.services, with: [Self.serial, LintOptions()])
        let (serial, byDefault) = (found[0], found[1])
        #expect(byDefault == serial)
    }

    /// Every shipped sample (small maps: each item of work on its own chunk) gives its serial findings.
    @Test func everySampleGivesItsSerialFindings() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples")
        let files = try #require(FileManager.default.enumerator(atPath: samples.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix("services.json") && !$0.hasSuffix(".maprules.json") }.sorted()
        #expect(files.count >= 5)
        for file in files {
            let path = samples.appendingPathComponent(file).path
            let one = try Linter(options: Self.serial).lint(path: path, isExplicit: true)?.diagnostics
            let other = try Linter(options: Self.concurrent).lint(path: path, isExplicit: true)?.diagnostics
            #expect(one == other, "\(file)")
        }
    }
}
