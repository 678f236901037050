import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

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

    /// The writer's number text: `null` when not finite, an integer when integral below 1e15, else exactly
    /// `description` (which `appendDouble` writes through `write(to:)` without making a String).
    @Test func doublesAreWrittenAsTheirDescription() {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        var specials: [Double] = [0.1, -0.0, 1e15, 1e16, 123456789012345.6, -9823945.123456789, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                  .leastNormalMagnitude, 1e-7, 0.5, -88.249776, 41.701001, .nan, .infinity, -.infinity]
        for i in 0..<200_000 {
            specials.append(i % 2 == 0 ? Double(bitPattern: generator.next()) : Double.random(in: -2.1e7...2.1e7))
        }
        for d in specials {
            bytes.removeAll(keepingCapacity: true)
            bytes.append(UInt8(ascii: "["))
            JSON.appendDouble(d, to: &bytes)
            let expected: String
            if !d.isFinite { expected = "null" }
            else if d.rounded() == d && abs(d) < 1e15 { expected = String(Int(d)) }
            else { expected = d.description }
            #expect(String(decoding: bytes.dropFirst(), as: UTF8.self) == expected, "\(d.bitPattern)")
            #expect(bytes.first == UInt8(ascii: "["))
        }
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

    /// Points read from the envelope columns are the points parsing the stored text gives.
    @Test func storedPointsMatchTheParsedText() throws {
        for point in [Point(x: -122.6765, y: 45.5231), Point(x: 0, y: -0.0), Point(x: -88, y: 41.5), Point(x: 1e16, y: -1.25e-7),
                      Point(x: 123456789012345.5, y: 2)] {
            let geometry = Geometry.point(point)
            let text = geometry.json().text
            let e = try #require(geometry.envelope)
            let fast = try #require(RowStore.storedPoint(text, xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax))
            #expect(Geometry.point(fast) == (try RowStore.decodeGeometry(text)))
        }
        // Anything but the exact text of that point is parsed.
        #expect(RowStore.storedPoint(#"{"x":1,"y":2,"z":3}"#, xmin: 1, ymin: 2, xmax: 1, ymax: 2) == nil)
        #expect(RowStore.storedPoint(#"{"x":1.0,"y":2}"#, xmin: 1, ymin: 2, xmax: 1, ymax: 2) == nil)
        #expect(RowStore.storedPoint(#"{"x":1,"y":2}"#, xmin: 1, ymin: 2, xmax: 3, ymax: 2) == nil)
        #expect(RowStore.storedPoint(#"{"x":1,"y":2}"#, xmin: nil, ymin: 2, xmax: 1, ymax: 2) == nil)
    }

    @Test func textIsTheScalarByScalarText() throws {
        // The byte writer against the escaping rules: quote, backslash, control characters, the rest as is.
        let value = JSON.object([("k\"ey", .string("a\"b\\c\n\r\t\u{0}\u{1F}é😀\u{7F}")), ("d", .double(1e16)), ("n", .double(-0.0)),
                                 ("i", .int(Int.min)), ("b", .bool(true)), ("z", .null), ("x", .double(.nan))])
        #expect(value.text == #"{"k\"ey":"a\"b\\c\n\r\t\u0000\u001fé😀\#u{7F}","d":1e+16,"n":0,"i":-9223372036854775808,"b":true,"z":null,"x":null}"#)
    }

    @Test func madeGUIDsAreCanonicalVersion4() {
        var seen = Set<String>()
        for _ in 0..<200 {
            let guid = GUIDText.make()
            #expect(GUIDText.normalize(guid) == guid)
            #expect(guid.count == 38)
            let characters = Array(guid)
            #expect(characters[15] == "4")
            #expect("89AB".contains(characters[20]))
            seen.insert(guid)
        }
        #expect(seen.count == 200)
    }

    /// A protocol message keeps every row however large it is (the linter's parser sets large `features`
    /// arrays aside by default; a replica's data of 100,000 features is such a message).
    @Test func parsingKeepsEveryFeatureOfAMessageLargerThan16MB() throws {
        let feature = #"{"attributes":{"OBJECTID":1,"Name":"a name long enough to make the message large"}}"#
        let count = 17 * 1024 * 1024 / feature.utf8.count + 1
        let text = #"{"features":["# + Array(repeating: feature, count: count).joined(separator: ",") + "]}"
        #expect(text.utf8.count > 16 * 1024 * 1024)
        #expect(try JSON.parse(text)["features"]?.array?.count == count)
    }

    @Test func guidsAreAcceptedInAnyCaseBracedOrNotAndWrittenCanonically() {
        let canonical = "{1B6E2A34-0C5D-4F1E-9A2B-3C4D5E6F7A8B}"
        for given in [canonical, "1b6e2a34-0c5d-4f1e-9a2b-3c4d5e6f7a8b", "{1b6e2a34-0C5D-4f1e-9A2B-3c4d5e6f7a8b}", "  \(canonical)\t"] {
            #expect(GUIDText.normalize(given) == canonical, "\(given)")
        }
        for bad in ["", "{}", "1B6E2A34-0C5D-4F1E-9A2B-3C4D5E6F7A8", "{1B6E2A34-0C5D-4F1E-9A2B-3C4D5E6F7A8B", "1B6E2A34X0C5D-4F1E-9A2B-3C4D5E6F7A8B",
                    "{1B6E2A34-0C5D-4F1E-9A2B-3C4D5E6F7A8G}", "{1B6E2A34-0C5D-4F1E-9A2B-3C4D5E6F7A8B}}", "１B6E2A34-0C5D-4F1E-9A2B-3C4D5E6F7A8B"] {
            #expect(GUIDText.normalize(bad) == nil, "\(bad)")
        }
    }

    /// With and without repeated keys, conversion keeps the last member of a name, in its place.
    @Test func parsedObjectsKeepTheLastRepeatedMember() throws {
        #expect(try JSON.parse(#"{"a":1,"b":2,"a":3}"#) == .object([("b", .int(2)), ("a", .int(3))]))
        #expect(try JSON.parse(#"{"a":1,"b":{"c":1,"c":2}}"#) == .object([("a", .int(1)), ("b", .object([("c", .int(2))]))]))
        #expect(try JSON.parse(#"{"a":1,"b":[{"x":1}]}"#) == .object([("a", .int(1)), ("b", .array([.object([("x", .int(1))])]))]))
    }
}
