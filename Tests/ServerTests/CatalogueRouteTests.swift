import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

@Suite struct CatalogueRouteTests {
    @Test func restInfoAdvertisesTokenSecurity() async throws {
        try await Fixtures.app().test(.router) { client in
            let info = try await client.get("/arcgis/rest/info", [("f", "json")])
            #expect(info["authInfo"]?["isTokenBasedSecurity"]?.bool == true)
            #expect(info["authInfo"]?["tokenServicesUrl"]?.string?.hasSuffix("/arcgis/sharing/rest/generateToken") == true)
            #expect(info["currentVersion"]?.double == 11.1)
        }
    }

    @Test func servicesDirectoryListsBothSamplesAndTheVersionManagementServer() async throws {
        try await Fixtures.app().test(.router) { client in
            let services = try await client.get("/arcgis/rest/services", [("f", "json")])["services"]?.array ?? []
            let entries = services.compactMap { entry -> String? in
                guard let name = entry["name"]?.string, let type = entry["type"]?.string else { return nil }
                return "\(name)/\(type)"
            }
            #expect(entries.contains("TreesOfPortland/FeatureServer"))
            #expect(entries.contains("DamageAssessment/FeatureServer"))
            #expect(entries.contains("DamageAssessment/VersionManagementServer"))
            #expect(!entries.contains("TreesOfPortland/VersionManagementServer"))
        }
    }

    @Test func featureServerRootAndLayerJSON() async throws {
        try await Fixtures.app().test(.router) { client in
            let root = try await client.get("/arcgis/rest/services/DamageAssessment/FeatureServer", [("f", "json")])
            for key in ["currentVersion", "capabilities", "layers", "tables", "hasVersionedData", "syncEnabled",
                        "supportsApplyEditsWithGlobalIds", "maxRecordCount", "spatialReference"] {
                #expect(root[key] != nil, "FeatureServer root lacks \(key)")
            }
            #expect(root["hasVersionedData"]?.bool == true)

            let layer = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/0", [("f", "json")])
            #expect(layer["name"]?.string == "Trees")
            #expect(layer["advancedQueryCapabilities"]?["supportsPagination"]?.bool == true)
            #expect(layer["advancedQueryCapabilities"]?["supportsOrderBy"]?.bool == true)
            #expect(layer["advancedQueryCapabilities"]?["supportsStatistics"]?.bool == true)
            #expect(layer["isDataBranchVersioned"]?.bool == false)
            #expect(layer["supportedQueryFormats"]?.string?.contains("geoJSON") == true)

            let table = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/2")
            #expect(table["type"]?.string == "Table")
            let all = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/layers")
            #expect(all["layers"]?.array?.count == 2 && all["tables"]?.array?.count == 2)
        }
    }

    @Test func pathsAreCaseInsensitiveAndPostAnswersLikeGet() async throws {
        try await Fixtures.app().test(.router) { client in
            let viaGet = try await client.get("/arcgis/rest/services/treesofportland/featureserver/0")
            let viaPost = try await client.post("/ARCGIS/rest/services/TreesOfPortland/FeatureServer/0", [("f", "json")])
            #expect(viaGet["name"]?.string == "Trees")
            #expect(viaGet == viaPost)
        }
    }

    @Test func pjsonIsIndentedAndSameDocument() async throws {
        try await Fixtures.app().test(.router) { client in
            let pretty = try await client.execute(uri: "/arcgis/rest/services/TreesOfPortland/FeatureServer/1?f=pjson", method: .get)
            #expect(pretty.text.contains("\n  \""))
            let compact = try await client.execute(uri: "/arcgis/rest/services/TreesOfPortland/FeatureServer/1?f=json", method: .get)
            #expect(!compact.text.contains("\n"))
            #expect(try pretty.json == compact.json)
        }
    }

    @Test func unknownServiceLayerAndRouteAreErrorsInArcGISStyle() async throws {
        try await Fixtures.app().test(.router) { client in
            let service = try await client.execute(uri: "/arcgis/rest/services/Nope/FeatureServer", method: .get)
            #expect(service.status == .ok)
            #expect(try service.json.errorCode == 404)
            #expect(try service.json["error"]?["details"]?.array?.isEmpty == false)
            #expect(try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/9").errorCode == 404)
            #expect(try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/abc").errorCode == 400)
            let route = try await client.execute(uri: "/arcgis/rest/nothing/here", method: .get)
            #expect(route.status == .notFound)
            #expect(try route.json.errorCode == 404)
        }
    }

    @Test func healthAnswersWithoutAuthentication() async throws {
        try await Fixtures.app().test(.router) { client in
            let health = try await client.get("/health", headers: [.authorization: "Bearer stale"])
            #expect(health["status"]?.string == "ok")
        }
    }
}
