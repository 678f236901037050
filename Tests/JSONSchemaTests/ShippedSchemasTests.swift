import Foundation
import JSONSchema
import Testing
import WebMap

/// The shipped schemas as the binary carries them: the embedded copy (Sources/JSONSchema/ShippedSchemas.swift,
/// written by Schemas/embed.sh) must equal Schemas/*.schema.json, and every one must compile.
@Suite struct ShippedSchemasTests {
    static let schemas = ConformanceTests.packageRoot.appendingPathComponent("Schemas")

    @Test func theEmbeddedCopyIsCurrent() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.schemas.path).filter { $0.hasSuffix(".schema.json") }
        let names = Set(files.map { String($0.dropLast(".schema.json".count)) })
        #expect(names == Set(ShippedSchemas.texts.keys), "run Schemas/embed.sh: the embedded schemas are not those in Schemas/")
        for name in names {
            let file = try String(contentsOf: Self.schemas.appendingPathComponent("\(name).schema.json"), encoding: .utf8)
            #expect(ShippedSchemas.texts[name] == file, "Schemas/\(name).schema.json changed: run Schemas/embed.sh")
        }
    }

    @Test func everyShippedSchemaCompiles() throws {
        #expect(Set(ShippedSchemas.names) == Set(ShippedSchemas.texts.keys))
        for name in ShippedSchemas.names {
            #expect(throws: Never.self, "\(name)") { _ = try ShippedSchemas.schema(named: name) }
        }
        #expect(throws: SchemaError.self) { _ = try ShippedSchemas.schema(named: "webmaps") }
    }

    @Test func theSamplesAreValid() throws {
        let samples = ConformanceTests.packageRoot.appendingPathComponent("Samples")
        for (name, file) in [("webmap", "TreesOfPortland/TreesOfPortland.json"), ("webmap", "DamageAssessment/DamageAssessment.json"),
                             ("services-snapshot", "TreesOfPortland/TreesOfPortland.services.json"),
                             ("services-snapshot", "DamageAssessment/DamageAssessment.services.json")] {
            let text = SourceText(bytes: [UInt8](try Data(contentsOf: samples.appendingPathComponent(file))))
            let found = try ShippedSchemas.schema(named: name).validate(JSONParser.parse(text))
            #expect(found.isEmpty, "\(file): \(found)")
        }
    }

    /// The corpus of real web maps validates, except where the map really breaks the specification (the list in
    /// Schemas/README.md, which Schemas/check_schemas.py checks with python-jsonschema: the two validators agree).
    @Test func theCorpusWebMapsValidateExceptTheDocumentedOne() throws {
        let folder = ConformanceTests.fixtures.appendingPathComponent("corpus/webmaps")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count > 10)
        let schema = try ShippedSchemas.schema(named: "webmap")
        for file in files {
            let text = SourceText(bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(file))))
            let found = schema.validate(try JSONParser.parse(text)).map { "\($0.instancePointer) \($0.keyword)" }
            let expected: [String] = switch file {
            case "015-arcrest-csv-layers.json": ["/operationalLayers/0/layerDefinition/extent type"]
            // Real maps without the spatialReference (or version) the web map specification requires.
            case "003-landscape-modeler-imageservice.json", "016-devsupport-basemap-only-v1.9.json",
                 "024-storymap-maptour-v2.1.0-map1-cb530d.json", "030-storymap-swipe-v1.1-map1-60a6d8.json",
                 "031-storymap-swipe-v1.1-map2.1-8ea34b.json", "043-solutionjs-mock-empty-popupinfo-table.json": [" required"]
            default: []
            }
            #expect(found == expected, "\(file)")
        }
    }

    /// Issue 31, item 12: `{}` was a valid web map. The specification requires operationalLayers, baseMap,
    /// spatialReference and version, and so does the shipped schema (inside the item wrapper too).
    @Test func theWebMapSchemaRequiresWhatTheSpecificationRequires() throws {
        let schema = try ShippedSchemas.schema(named: "webmap")
        let empty = schema.validate(try JSONParser.parse("{}"))
        #expect(empty.map(\.keyword) == ["required", "required", "required", "required"])
        #expect(empty.map(\.message) == ["operationalLayers", "baseMap", "spatialReference", "version"].map {
            "The document is missing required property '\($0)'."
        }, "\(empty.map(\.message))")
        let wrapped = schema.validate(try JSONParser.parse(#"{"item": {"id": "x"}, "itemData": {"operationalLayers": [], "baseMap": {}, "version": "2.1"}}"#))
        #expect(wrapped.map { "\($0.instancePointer) \($0.keyword)" } == ["/itemData required"])
        let complete = #"{"operationalLayers": [], "baseMap": {"baseMapLayers": [], "title": "Topo"}, "spatialReference": {"wkid": 102100}, "version": "2.28"}"#
        #expect(schema.validate(try JSONParser.parse(complete)).isEmpty)
    }

    @Test func theWebMapSchemaNamesAMisspelledLayerType() throws {
        let samples = ConformanceTests.packageRoot.appendingPathComponent("Samples/Broken/schema--invalid.json")
        let text = SourceText(bytes: [UInt8](try Data(contentsOf: samples)))
        let found = try ShippedSchemas.schema(named: "webmap").validate(JSONParser.parse(text))
        let layerType = try #require(found.first { $0.instancePointer.description == "/operationalLayers/0/layerType" })
        #expect(layerType.keyword == "enum")
        #expect(layerType.message.hasSuffix("found 'ArcGISFeaturelayer'. Did you mean 'ArcGISFeatureLayer'?"))
        #expect(text.position(ofOffset: layerType.instanceOffset) == SourcePosition(line: 6, column: 20))
    }
}
