import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// `f=geojson` pages written from the stored text (`ServiceCore.queryGeoJSON`, `GeoJSONText`) against the decoded
/// path they replace (`query`, then `FeatureSet.geoJSON()` written): the same bytes for every page shape, value form,
/// geometry and layer kind. Runs on PostgreSQL too when the suite does.
@Suite struct GeoJSONPagesTests {
    /// The decoded path's bytes: what the route wrote before pages were written from the stored text.
    static func decoded(_ core: ServiceCore, _ service: String, _ layer: Int, _ parameters: QueryParameters) async throws -> [UInt8] {
        let set = try #require(try await core.query(service: service, layer: layer, parameters, as: .anonymous).featureSet)
        var bytes: [UInt8] = []
        set.geoJSON().write(to: &bytes)
        return bytes
    }

    static func written(_ core: ServiceCore, _ service: String, _ layer: Int, _ parameters: QueryParameters) async throws -> [UInt8] {
        guard case .bytes(let bytes) = try await core.queryGeoJSON(service: service, layer: layer, parameters, as: .anonymous) else {
            Issue.record("a feature page answered something else than bytes")
            return []
        }
        return bytes
    }

    /// Features whose values need care: escapes, non-ASCII, numbers whose text is not their shortest form, dates,
    /// nulls, no geometry. Answers their object ids.
    static func addAwkwardFeatures(_ core: ServiceCore) async throws -> [Int64] {
        let point = Geometry.point(Point(x: -88.15, y: 41.77))
        let values: [(String, AttributeValue, AttributeValue, Geometry?)] = [
            ("quote \" backslash \\ newline \n tab \t bell \u{7} slash /", .double(0.1), .int(1), point),
            ("é ✓ 😀 \u{7F} ünïcödé", .double(1e21), .int(3), nil),
            ("", .double(-0.0), .null, point),
            ("plain", .double(5e-324), .int(12), .point(Point(x: 0.1, y: -0.0))),
            ("big", .double(123456789012345.678), .int(60), .point(Point(x: 1e-7, y: 89.99999999999999))),
            ("integral double", .double(29000), .null, nil),
        ]
        var adds: [EditFeature] = []
        for (index, (notes, loss, stories, geometry)) in values.enumerated() {
            adds.append(EditFeature(attributes: Attributes([("notes", .string(notes)), ("estloss", loss), ("numstories", stories),
                                                             ("inspdate", index % 2 == 0 ? .int(1_721_499_180_000 + Int64(index)) : .null),
                                                             ("placename", index == 2 ? .null : .string("Place \(index) «»"))]),
                                    geometry: geometry, spatialReference: geometry == nil ? nil : .wgs84))
        }
        let result = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(adds: adds), as: .anonymous)
        #expect(result.succeeded, "\(result)")
        return result.addResults.compactMap(\.objectId)
    }

    @Test func pagesMatchTheDecodedPath() async throws {
        let core = try await Fixtures.core(users: false)
        let added = try await Self.addAwkwardFeatures(core)
        try #require(added.count == 6)
        let total = try await core.count("DamageAssessment", 0)
        let shapes: [QueryParameters] = [
            QueryParameters(outSR: .wgs84),
            QueryParameters(outSR: .wgs84, resultOffset: 0, resultRecordCount: 3),
            QueryParameters(outSR: .wgs84, resultOffset: total / 2, resultRecordCount: 5),
            QueryParameters(outSR: .wgs84, resultOffset: total - 7, resultRecordCount: 20),
            QueryParameters(outSR: .wgs84, resultOffset: total, resultRecordCount: 20),
            QueryParameters(outFields: ["notes", "estloss"], outSR: .wgs84, resultOffset: total - 7),
            QueryParameters(outFields: ["NOTES", "OBJECTID", "inspdate"], outSR: .wgs84),
            QueryParameters(outFields: ["*"], returnGeometry: false, outSR: .wgs84, resultOffset: total - 6),
            QueryParameters(outFields: ["placename"], returnGeometry: false, resultOffset: total - 6),
            QueryParameters(where: "estloss > 0", outSR: .wgs84, resultRecordCount: 4),
            QueryParameters(where: "1=1", outSR: .wgs84, orderByFields: "objectid DESC", resultRecordCount: 8),
            QueryParameters(outSR: .wgs84, orderByFields: "estloss DESC, objectid", resultRecordCount: 10),
            QueryParameters(objectIds: added, outSR: .webMercator),
        ]
        for parameters in shapes {
            let written = try await Self.written(core, "DamageAssessment", 0, parameters)
            let decoded = try await Self.decoded(core, "DamageAssessment", 0, parameters)
            #expect(written == decoded, "\(parameters): \(String(decoding: written, as: UTF8.self)) against \(String(decoding: decoded, as: UTF8.self))")
        }
        // The awkward features are really there, with an id and a null geometry where they have none.
        let page = String(decoding: try await Self.written(core, "DamageAssessment", 0, QueryParameters(objectIds: added, outSR: .wgs84)), as: UTF8.self)
        #expect(page.contains("\"id\":\(added[1]),\"geometry\":null,"))
        #expect(page.contains("1e+21") && page.contains("5e-324") && page.contains("\\\""))
    }

    /// Every layer of the samples: points, polygons, tables; in DEFAULT and in a version.
    @Test func everySampleLayerMatchesTheDecodedPath() async throws {
        let core = try await Fixtures.core(users: false)
        let version = try await core.createVersion(service: "DamageAssessment", versionName: "GeoJSONPages", as: .anonymous).versionInfo.versionName
        let cases: [(String, Int, String?)] = [("TreesOfPortland", 0, nil), ("TreesOfPortland", 1, nil), ("TreesOfPortland", 2, nil),
                                               ("TreesOfPortland", 3, nil), ("DamageAssessment", 0, nil), ("DamageAssessment", 0, version)]
        for (service, layer, gdbVersion) in cases {
            for parameters in [QueryParameters(outSR: .wgs84, gdbVersion: gdbVersion),
                               QueryParameters(outSR: .wgs84, resultOffset: 2, resultRecordCount: 2, gdbVersion: gdbVersion),
                               QueryParameters(returnGeometry: false, outSR: .wgs84, gdbVersion: gdbVersion)] {
                let written = try await Self.written(core, service, layer, parameters)
                let decoded = try await Self.decoded(core, service, layer, parameters)
                #expect(written == decoded, "\(service) \(layer) \(parameters)")
            }
        }
    }

    /// The `id` member: written from the stored object id's text exactly when decoding it gives an integer, for every
    /// value form the stored-text writer takes (and the object id missing, or in another case).
    @Test func objectIdValuesMatchTheDecodedPath() async throws {
        let core = try await Fixtures.core(users: false)
        let service = try core.service("DamageAssessment")
        let layer = try service.layer(0)
        let policy = AccessPolicy(core: core, service: service, caller: .anonymous)
        for outFields in [nil, ["notes"], ["OBJECTID", "notes"]] as [[String]?] {
            let plan = try QueryPlan(layer: layer, parameters: QueryParameters(outFields: outFields), policy: policy)
            let writer = try #require(StoredAttributesWriter(outFields: plan.outFields, objectIdField: layer.objectIdField))
            #expect(writer.objectIdPosition != nil)
            var taken = 0
            for (value, _) in StoredAttributesTests.values {
                for text in ["{\"objectid\":\(value),\"notes\":\"n\"}", "{\"notes\":\"n\",\"objectid\":\(value)}", "{\"notes\":\(value)}",
                             "{\"OBJECTID\":\(value),\"notes\":\"n\"}"] {
                    var properties: [UInt8] = [], scratch = StoredAttributesWriter.Scratch()
                    let bytes = Array(text.utf8)
                    let copied = bytes.withUnsafeBufferPointer { writer.encode(bytes: $0, into: &properties, scratch: &scratch) }
                    guard copied else { continue }
                    taken += 1
                    var fast: [UInt8] = []
                    properties.withUnsafeBufferPointer { written in
                        bytes.withUnsafeBufferPointer { stored in
                            GeoJSONText.appendFeature(properties: written, objectId: scratch.objectIdValue.map { UnsafeBufferPointer(rebasing: stored[$0]) },
                                                      geometry: .point(Point(x: 1.5, y: -2)), to: &fast)
                        }
                    }
                    var slow: [UInt8] = []
                    let feature = try plan.feature(attributes: text, geometry: nil, withGeometry: false)
                    Feature(attributes: feature.attributes, geometry: .point(Point(x: 1.5, y: -2))).geoJSON(objectIdFieldName: layer.objectIdField).write(to: &slow)
                    #expect(String(decoding: fast, as: UTF8.self) == String(decoding: slow, as: UTF8.self), "\(text)")
                }
            }
            #expect(taken > 40)
        }
    }

    /// Geometries of every kind as `GeoJSON.geometry` writes them.
    @Test func geometriesMatchTheTreeWriter() {
        let ring = [Point(x: 0, y: 0), Point(x: 1e21, y: 0.1), Point(x: -0.0, y: 5e-324), Point(x: 0, y: 0)]
        let geometries: [Geometry?] = [nil, .point(Point(x: -0.0, y: 1e21)), .point(Point(x: .nan, y: 0.30000000000000004)), .multipoint(ring),
                                       .polyline([ring]), .polyline([ring, ring]), .polygon([ring]),
                                       .envelope(Envelope(xmin: 1, ymin: 2, xmax: 3.5, ymax: 4))]
        for geometry in geometries {
            var fast: [UInt8] = [], slow: [UInt8] = []
            GeoJSONText.appendGeometry(geometry, to: &fast)
            (geometry.map(GeoJSON.geometry) ?? .null).write(to: &slow)
            #expect(fast == slow, "\(String(describing: geometry))")
        }
    }
}
