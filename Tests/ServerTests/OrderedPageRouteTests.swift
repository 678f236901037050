import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// `orderByFields=OBJECTID [ASC|DESC]` over HTTP, as GDAL pages a layer: walked page by page, as Esri JSON and as
/// GeoJSON, the pages hold the full ordered result (every id once, in order) and say `exceededTransferLimit` on
/// every page but the last; another order's ties are broken by the object id.
@Suite struct OrderedPageRouteTests {
    static let trees = "/arcgis/rest/services/TreesOfPortland/FeatureServer/0"

    @Test(arguments: ["OBJECTID", "OBJECTID ASC", "OBJECTID DESC", "objectid desc"])
    func pagesWalkTheFullOrderedResult(order: String) async throws {
        try await Fixtures.app().test(.router) { client in
            let all = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("returnIdsOnly", "true")])["objectIds"]?.array?.compactMap(\.int) ?? []
            #expect(all.count == 24)
            let expected = order.lowercased().hasSuffix("desc") ? all.sorted(by: >) : all.sorted()
            for format in ["json", "geojson"] {
                var walked: [Int] = []
                var offset = 0
                while offset <= expected.count {
                    let page = try await client.get("\(Self.trees)/query", [("orderByFields", order), ("resultOffset", String(offset)),
                                                                           ("resultRecordCount", "5"), ("outFields", "OBJECTID"), ("f", format)])
                    let features = page["features"]?.array ?? []
                    let ids = format == "json" ? features.compactMap { $0["attributes"]?["OBJECTID"]?.int } : features.compactMap { $0["id"]?.int }
                    #expect(ids == Array(expected.dropFirst(offset).prefix(5)), "\(order) as \(format): offset \(offset)")
                    #expect((page["exceededTransferLimit"]?.bool ?? false) == (offset + 5 < expected.count), "\(order) as \(format): offset \(offset)")
                    walked += ids
                    offset += 5
                }
                #expect(walked == expected, "\(order) as \(format)")
            }
        }
    }

    @Test func anotherOrderBreaksTiesByObjectId() async throws {
        try await Fixtures.app().test(.router) { client in
            let page = try await client.get("\(Self.trees)/query", [("orderByFields", "Condition DESC"), ("outFields", "OBJECTID,Condition"),
                                                                   ("returnGeometry", "false"), ("f", "json")])
            let rows = (page["features"]?.array ?? []).compactMap { feature -> (String, Int)? in
                guard let id = feature["attributes"]?["OBJECTID"]?.int else { return nil }
                return (feature["attributes"]?["Condition"]?.string ?? "", id)
            }
            #expect(rows.count == 24)
            let sorted = rows.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
            #expect(rows.map(\.1) == sorted.map(\.1))
            #expect(Set(rows.map(\.0)).count < rows.count, "the sample has ties to break")
        }
    }
}
