import Foundation
import Testing
@testable import Service

/// The JSON the HTTP face will send is the core's values encoded with JSONEncoder: check their shapes.
@Suite struct EncodingTests {
    static func encode(_ value: some Encodable) throws -> JSON {
        try OrderedJSONEncoder().encode(value)
    }

    /// Encoding is linear in the size of the answer. `returnIdsOnly` on a layer of 44,000 features took
    /// 11 s (debug build) in the reliability script, because every element appended to an array copied
    /// the elements before it.
    @Test func largeArraysEncodeInLinearTime() throws {
        let ids = ObjectIdSet(objectIdFieldName: "OBJECTID", objectIds: (1...100_000).map(Int64.init))
        var json: JSON = .null
        let took = try ContinuousClock().measure { json = try Self.encode(ids) }
        #expect(json["objectIds"]?.array?.count == 100_000)
        #expect(json["objectIds"]?.array?.last?.int == 100_000)
        #expect(took < .seconds(10), "encoding 100,000 object ids took \(took)")

        // Objects with many members too (appending a member must not copy the members before it).
        let wide = Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("field\($0)", $0) })
        let wideTook = try ContinuousClock().measure { json = try Self.encode(wide) }
        #expect(json.objectMembers?.count == 2_000)
        #expect(wideTook < .seconds(10), "encoding 2,000 members took \(wideTook)")
    }

    @Test func featureSetIsEsriJSON() async throws {
        let core = try await Fixtures.core()
        let response = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: [1, 2], outFields: ["Address", "DBH"], resultRecordCount: 1), as: .anonymous)
        let json = try Self.encode(response)
        #expect(json["objectIdFieldName"]?.string == "OBJECTID")
        #expect(json["geometryType"]?.string == "esriGeometryPoint")
        #expect(json["spatialReference"]?["wkid"]?.int == 102100)
        #expect(json["exceededTransferLimit"]?.bool == true)
        #expect(json["fields"]?.array?.compactMap { $0["name"]?.string } == ["OBJECTID", "Address", "DBH"])
        let feature = try #require(json["features"]?.array?.first)
        #expect(feature["attributes"]?.objectMembers?.map(\.0) == ["OBJECTID", "Address", "DBH"])
        #expect(feature["geometry"]?["x"]?.double != nil)

        let count = try Self.encode(try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(returnCountOnly: true), as: .anonymous))
        #expect(count["count"]?.int ?? 0 >= 20)
        let ids = try Self.encode(try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(returnIdsOnly: true), as: .anonymous))
        #expect(ids["objectIdFieldName"]?.string == "OBJECTID" && (ids["objectIds"]?.array?.count ?? 0) >= 20)

        let geo = try #require(try await core.query(service: "TreesOfPortland", layer: 1, QueryParameters(outSR: .wgs84), as: .anonymous).featureSet).geoJSON()
        #expect(geo["type"]?.string == "FeatureCollection")
        #expect(geo["features"]?.array?.first?["geometry"]?["type"]?.string == "Polygon")
    }

    @Test func editResultsAndErrors() throws {
        let result = LayerEditResults(id: 0, addResults: [EditResult(objectId: 7, globalId: "{A}", success: true)],
                                      updateResults: [EditResult(objectId: 8, globalId: nil, success: false, error: .notNullable("Address"))],
                                      deleteResults: [], attachments: nil, editMoment: nil)
        let json = try Self.encode(result)
        #expect(json["addResults"]?.array?.first?["objectId"]?.int == 7)
        #expect(json["updateResults"]?.array?.first?["error"]?["code"]?.int == 1001)
        #expect(json["updateResults"]?.array?.first?["error"]?["description"]?.string?.contains("Address") == true)
        #expect(json["editMoment"] == nil)
        let error = try Self.encode(ServiceError.tokenRequired)
        #expect(error["code"]?.int == 499 && error["details"]?.array != nil)
    }

    @Test func jsonRoundTrips() throws {
        let text = #"{"b":1,"a":[true,null,2.5,"x\n"],"c":{"d":-3}}"#
        let value = try JSON.parse(text)
        #expect(value.text == text)
        let decoded = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
        #expect(decoded["a"] == value["a"])
    }
}

@Suite struct StoredAttributeTests {
    @Test func readsStoredAttributeObjects() throws {
        let text = #"{"a":1,"b":-2.5e3,"c":"x\"y\\z\n\u00e9\ud83d\ude00","d":null,"e":true,"f":"plain é"}"#
        let parsed = try AttributeValue.members(ofStoredObject: text)
        #expect(parsed.map(\.0) == ["a", "b", "c", "d", "e", "f"])
        #expect(parsed[0].1 == .int(1))
        #expect(parsed[1].1 == .double(-2500))
        #expect(parsed[2].1 == .string("x\"y\\z\né😀"))
        #expect(parsed[3].1 == .null)
        #expect(parsed[4].1 == .int(1))
        #expect(parsed[5].1 == .string("plain é"))
        // Nested values are not attribute values; malformed text is refused.
        #expect(try AttributeValue.members(ofStoredObject: #"{"a":{"nested":1}}"#).first?.1 == .null)
        #expect(throws: ServiceError.self) { try AttributeValue.members(ofStoredObject: #"{"a":1"#) }
        #expect(try AttributeValue.members(ofStoredObject: "{}").isEmpty)
        // Round trip with the writer.
        let attributes = Attributes([("s", .string("tab\there \"q\" \u{1}")), ("n", .double(0.1)), ("i", .int(-7))])
        #expect(try RowStore.decodeAttributes(attributes.json.text) == attributes)
    }
}
