import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// The `f` values a query answers in: what the metadata advertises is what is served (issue 31, items 13 and 14).
@Suite struct QueryFormatTests {
    static let services = ["TreesOfPortland", "DamageAssessment"]
    static let trees = "/arcgis/rest/services/TreesOfPortland/FeatureServer/0"

    /// The samples' stored metadata lists PBF; the server does not speak it, so neither the roots nor the layers
    /// may claim it.
    @Test func noRootOrLayerAdvertisesPBF() async throws {
        try await Fixtures.app().test(.router) { client in
            for service in Self.services {
                let base = "/arcgis/rest/services/\(service)/FeatureServer"
                let root = try await client.get(base, [("f", "json")])
                #expect(root["supportedQueryFormats"]?.string == "JSON, geoJSON", "\(service): \(root["supportedQueryFormats"] ?? .null)")
                let all = try await client.get("\(base)/layers", [("f", "json")])
                let layers = (all["layers"]?.array ?? []) + (all["tables"]?.array ?? [])
                #expect(!layers.isEmpty)
                for layer in layers {
                    let formats = layer["supportedQueryFormats"]?.string ?? ""
                    #expect(!formats.lowercased().contains("pbf"), "\(service) layer \(layer["id"] ?? .null): \(formats)")
                }
                let first = try await client.get("\(base)/0", [("f", "json")])
                #expect(first["supportedQueryFormats"]?.string == "JSON, geoJSON")
            }
        }
    }

    /// `f=pbf` used to answer Esri JSON, which a protocol buffer decoder cannot read: now a 400 in the REST error
    /// shape that says which formats are served, on every query route.
    @Test func pbfIsRefusedWithAClearError() async throws {
        try await Fixtures.app().test(.router) { client in
            let requests: [(String, [(String, String)])] = [
                ("\(Self.trees)/query", [("where", "1=1"), ("f", "pbf")]),
                ("\(Self.trees)/query", [("where", "1=1"), ("returnCountOnly", "true"), ("F", "PBF")]),
                ("\(Self.trees)/queryRelatedRecords", [("objectIds", "1"), ("relationshipId", "0"), ("f", "pbf")]),
                ("\(Self.trees)/1", [("f", "pbf")]),
            ]
            for (uri, pairs) in requests {
                let answer = try await client.get(uri, pairs)
                #expect(answer.errorCode == 400, "\(uri) \(pairs): \(answer)")
                let details = answer["error"]?["details"]?.array?.compactMap(\.string) ?? []
                #expect(details.contains { $0.contains("f=pbf is not supported") && $0.contains("geojson") }, "\(details)")
                #expect(answer["features"] == nil && answer["count"] == nil)
            }
            // The other formats still answer.
            #expect(try await client.get("\(Self.trees)/query", [("where", "1=1"), ("returnCountOnly", "true"), ("f", "pjson")])["count"]?.int == 24)
        }
    }

    /// GDAL's ESRIJSON reader asks `returnExtentOnly=true&f=geojson`, looks for `"bbox"` then `:[` and reads four
    /// numbers; without them it pages through every feature to learn the extent. ArcGIS answers an empty
    /// FeatureCollection with a `bbox`; so does this server, in WGS84, equal to the Esri JSON extent.
    @Test func extentOnlyAsGeoJSONCarriesTheBBoxGDALReads() async throws {
        try await Fixtures.app().test(.router) { client in
            let response = try await client.execute(uri: "\(Self.trees)/query?where=1%3D1&returnExtentOnly=true&f=geojson", method: .get)
            #expect(response.headers[.contentType]?.contains("geo+json") == true)
            let text = response.text
            let numbers = Self.gdalBBox(text)
            #expect(numbers.count == 4, "no bbox GDAL can read in \(text)")
            let collection = try response.json
            #expect(collection["type"]?.string == "FeatureCollection")
            #expect(collection["features"]?.array?.isEmpty == true)
            #expect(collection["count"]?.int == 24)

            let esri = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("returnExtentOnly", "true"), ("outSR", "4326"), ("f", "json")])
            let extent = esri["extent"]
            let expected = ["xmin", "ymin", "xmax", "ymax"].compactMap { extent?[$0]?.double }
            #expect(expected.count == 4)
            if numbers.count == 4 && expected.count == 4 {
                for (got, want) in zip(numbers, expected) { #expect(abs(got - want) < 1e-9, "\(numbers) vs \(expected)") }
                #expect(numbers[0] <= numbers[2] && numbers[1] <= numbers[3])
                #expect(abs(numbers[0]) <= 180 && abs(numbers[1]) <= 90, "bbox is in WGS84: \(numbers)")
            }

            // Nothing matches: no extent to give, so no bbox (and count 0).
            let none = try await client.get("\(Self.trees)/query", [("where", "OBJECTID < 0"), ("returnExtentOnly", "true"), ("f", "geojson")])
            #expect(none["bbox"] == nil && none["count"]?.int == 0 && none["type"]?.string == "FeatureCollection", "\(none)")
        }
    }

    /// What GDAL's OGRESRIFeatureServiceLayer::GetExtent does with the body: the text after the first `"bbox"`
    /// and its `:[`, split at commas, the first four read as numbers.
    static func gdalBBox(_ body: String) -> [Double] {
        guard let key = body.range(of: "\"bbox\""), let open = body.range(of: ":[", range: key.upperBound..<body.endIndex) else { return [] }
        let tokens = body[open.upperBound...].split(separator: ",", maxSplits: 4).prefix(4)
        let numbers = tokens.compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: " ]}"))) }
        return numbers.count == 4 ? numbers : []
    }
}
