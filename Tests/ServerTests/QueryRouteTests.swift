import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

@Suite struct QueryRouteTests {
    static let trees = "/arcgis/rest/services/TreesOfPortland/FeatureServer/0"

    @Test func getQueryAnswersEveryTree() async throws {
        try await Fixtures.app().test(.router) { client in
            let set = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("outFields", "*"), ("f", "json")])
            #expect(set["features"]?.array?.count == 24)
            #expect(set["objectIdFieldName"]?.string == "OBJECTID")
            #expect(set["exceededTransferLimit"] == nil)
            let first = set["features"]?[0]?["attributes"]?.objectMembers?.map(\.0) ?? []
            let fields = set["fields"]?.array?.compactMap { $0["name"]?.string } ?? []
            #expect(first == fields, "attributes come in field order")
        }
    }

    @Test func formBodyAndCaseInsensitiveNames() async throws {
        try await Fixtures.app().test(.router) { client in
            let count = try await client.post("\(Self.trees)/query", [("WHERE", "Condition = 'Good'"), ("ReturnCountOnly", "TRUE"), ("F", "json")])
            let good = try await client.get("\(Self.trees)/query", [("where", "Condition = 'Good'"), ("returnIdsOnly", "true")])
            #expect(count["count"]?.int == good["objectIds"]?.array?.count)
            #expect((count["count"]?.int ?? 0) > 0)
            let ignored = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("returnCountOnly", "true"), ("noSuchParameter", "x")])
            #expect(ignored["count"]?.int == 24)
        }
    }

    @Test func multipartBodyIsRead() async throws {
        try await Fixtures.app().test(.router) { client in
            let (headers, body) = Form.multipart([("where", "OBJECTID <= 5"), ("returnCountOnly", "true"), ("f", "json")])
            let response = try await client.execute(uri: "\(Self.trees)/query", method: .post, headers: headers, body: body)
            #expect(try response.json["count"]?.int == 5)
        }
    }

    /// Values that once trapped (stopping the server) or answered 500 are answered 400, or served: dates whose
    /// time is not a number, an empty multipart boundary, NaN geometries, statistics and order lists beyond
    /// SQLite's limits.
    @Test func hostileValuesAreRefusedNotTrappedOn() async throws {
        try await Fixtures.app().test(.router) { client in
            for date in ["2020-01-01 nan:00", "2020-01-01 1e300:00", "2020-01-01 99999999999999999999:00", "99999999999-01-01"] {
                let answer = try await client.get("\(Self.trees)/query", [("where", "Planted_Date = '\(date)'"), ("returnCountOnly", "true")])
                #expect(answer.errorCode == 400 || answer["count"]?.int == 0, "\(date): \(answer)")
            }
            var headers = Form.headers
            headers[.contentType] = "multipart/form-data; boundary="
            let empty = try await client.execute(uri: "\(Self.trees)/query", method: .post, headers: headers, body: ByteBuffer(string: "x"))
            #expect(try empty.json.errorCode == 400)
            let nan = try await client.get("\(Self.trees)/query", [("geometry", "nan,nan,nan,nan"), ("geometryType", "esriGeometryEnvelope"), ("returnCountOnly", "true")])
            #expect(nan.errorCode == 400, "\(nan)")
            let repeated = Array(repeating: "DBH", count: 2_500).joined(separator: ",")
            let ordered = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("orderByFields", repeated), ("returnCountOnly", "false"), ("outFields", "OBJECTID")])
            #expect(ordered["features"]?.array?.count == 24, "\(ordered["error"] ?? .null)")
            let grouped = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("groupByFieldsForStatistics", Array(repeating: "Condition", count: 2_500).joined(separator: ",")),
                                                                       ("outStatistics", #"[{"statisticType":"count","onStatisticField":"OBJECTID","outStatisticFieldName":"n"}]"#)])
            #expect(grouped["features"]?.array?.isEmpty == false, "\(grouped["error"] ?? .null)")
            let many = "[" + Array(repeating: #"{"statisticType":"count","onStatisticField":"OBJECTID","outStatisticFieldName":"n"}"#, count: 2_100).joined(separator: ",") + "]"
            #expect(try await client.post("\(Self.trees)/query", [("where", "1=1"), ("outStatistics", many)]).errorCode == 400)
        }
    }

    @Test func pagingAndOrder() async throws {
        try await Fixtures.app().test(.router) { client in
            let page = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("orderByFields", "OBJECTID DESC"), ("resultOffset", "2"),
                                                                   ("resultRecordCount", "3"), ("returnGeometry", "false"), ("outFields", "OBJECTID")])
            let ids = page["features"]?.array?.compactMap { $0["attributes"]?["OBJECTID"]?.int } ?? []
            #expect(ids == [22, 21, 20])
            #expect(page["exceededTransferLimit"]?.bool == true)
            #expect(page["features"]?[0]?["geometry"] == nil)
        }
    }

    @Test func whereErrorsNameTheOffsetAndInjectionNeverRuns() async throws {
        try await Fixtures.app().test(.router) { client in
            let bad = try await client.get("\(Self.trees)/query", [("where", "DBH > 1; DROP TABLE row --")])
            #expect(bad.errorCode == 400)
            let details = bad["error"]?["details"]?.array?.compactMap(\.string).joined() ?? ""
            #expect(details.contains("character"), "details: \(details)")
            #expect(try await client.get("\(Self.trees)/query", [("where", "1=1"), ("orderByFields", "OBJECTID; DELETE FROM row")]).errorCode == 400)
            #expect(try await client.get("\(Self.trees)/query", [("where", "1=1"), ("outFields", "OBJECTID,(SELECT 1)")]).errorCode == 400)
            #expect(try await client.get("\(Self.trees)/query", [("objectIds", "1,2 OR 1=1")]).errorCode == 400)
            #expect(try await client.get("\(Self.trees)/query", [("where", "1=1"), ("returnCountOnly", "maybe")]).errorCode == 400)
            // Nothing was harmed.
            #expect(try await client.get("\(Self.trees)/query", [("where", "1=1"), ("returnCountOnly", "true")])["count"]?.int == 24)
        }
    }

    @Test func geoJSONOutputIsAFeatureCollectionInWGS84() async throws {
        try await Fixtures.app().test(.router) { client in
            let response = try await client.execute(uri: "\(Self.trees)/query?where=1%3D1&outFields=*&f=geojson", method: .get)
            #expect(response.headers[.contentType]?.contains("geo+json") == true)
            let collection = try response.json
            #expect(collection["type"]?.string == "FeatureCollection")
            let point = collection["features"]?[0]?["geometry"]?["coordinates"]?.array?.compactMap(\.double) ?? []
            #expect(point.count == 2 && abs(point[0]) <= 180 && abs(point[1]) <= 90)
        }
    }

    @Test func spatialAndStatisticsParameters() async throws {
        try await Fixtures.app().test(.router) { client in
            let everywhere = try await client.get("\(Self.trees)/query", [("geometry", "-180,-90,180,90"), ("geometryType", "esriGeometryEnvelope"),
                                                                         ("inSR", "4326"), ("spatialRel", "esriSpatialRelIntersects"),
                                                                         ("returnCountOnly", "true")])
            #expect(everywhere["count"]?.int == 24)
            let stats = try await client.get("\(Self.trees)/query", [("where", "1=1"),
                                                                    ("outStatistics", #"[{"statisticType":"count","onStatisticField":"OBJECTID","outStatisticFieldName":"n"}]"#)])
            #expect(stats["features"]?[0]?["attributes"]?["n"]?.int == 24)
            #expect(try await client.get("\(Self.trees)/query", [("geometry", "1,2,3"), ("geometryType", "esriGeometryEnvelope")]).errorCode == 400)
            #expect(try await client.get("\(Self.trees)/query", [("where", "1=1"), ("spatialRel", "esriSpatialRelTouches"), ("geometry", "0,0")]).errorCode == 400)
        }
    }

    @Test func queryRelatedRecords() async throws {
        try await Fixtures.app().test(.router) { client in
            let related = try await client.get("\(Self.trees)/queryRelatedRecords", [("objectIds", "1,2"), ("relationshipId", "0"), ("outFields", "*")])
            let groups = related["relatedRecordGroups"]?.array ?? []
            #expect(groups.count == 2, "\(related)")
            #expect(groups.allSatisfy { ($0["relatedRecords"]?.array?.count ?? 0) == 1 })
            #expect(try await client.get("\(Self.trees)/queryRelatedRecords", [("objectIds", "1")]).errorCode == 400)
        }
    }

    @Test func oneFeatureByObjectId() async throws {
        try await Fixtures.app().test(.router) { client in
            let one = try await client.get("\(Self.trees)/3")
            #expect(one["feature"]?["attributes"]?["OBJECTID"]?.int == 3)
            #expect(one["feature"]?["geometry"]?["x"] != nil)
            #expect(try await client.get("\(Self.trees)/99999").errorCode == 404)
        }
    }
}
