import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

@Suite struct AuthRouteTests {
    static let trees = "/arcgis/rest/services/TreesOfPortland/FeatureServer/0"

    @Test func generateTokenAtBothAddresses() async throws {
        try await Fixtures.app().test(.router) { client in
            for path in ["/arcgis/tokens/generateToken", "/arcgis/sharing/rest/generateToken"] {
                let answer = try await client.post(path, [("username", "editor01"), ("password", "sample-editor01"),
                                                          ("expiration", "5"), ("client", "requestip"), ("f", "json")])
                #expect(answer["token"]?.string?.count ?? 0 >= 32)
                let expires = Int64(answer["expires"]?.int ?? 0)
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                #expect(expires > now && expires <= now + 5 * 60_000 + 1000)
                #expect(answer["ssl"]?.bool == false)
            }
        }
    }

    @Test func generateTokenRefusals() async throws {
        try await Fixtures.app().test(.router) { client in
            let wrong = try await client.post("/arcgis/sharing/rest/generateToken", [("username", "editor01"), ("password", "nope")])
            #expect(wrong.errorCode == 400)
            let unknown = try await client.post("/arcgis/sharing/rest/generateToken", [("username", "nobody"), ("password", "nope")])
            #expect(unknown["error"]?["message"] == wrong["error"]?["message"], "the same answer for an unknown user and a wrong password")
            let viaGet = try await client.get("/arcgis/sharing/rest/generateToken", [("username", "editor01"), ("password", "sample-editor01")])
            #expect(viaGet.errorCode == 400 && viaGet["token"] == nil, "a password in a URL is refused")
        }
    }

    @Test func editsNeedATokenReadsDoNot() async throws {
        try await Fixtures.app().test(.router) { client in
            let anonymousEdit = try await client.post("\(Self.trees)/applyEdits", [("updates", #"[{"attributes":{"OBJECTID":1,"DBH":9}}]"#)])
            #expect(anonymousEdit.errorCode == 499)
            #expect(anonymousEdit["error"]?["message"]?.string == "Token Required")
            let anonymousRead = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("returnCountOnly", "true")])
            #expect(anonymousRead["count"]?.int == 24)
            let version = try await client.post("/arcgis/rest/services/DamageAssessment/VersionManagementServer/create", [("versionName", "x")])
            #expect(version["error"]?["code"]?.int == 499)
        }
    }

    @Test func badTokenIs498OnReadsToo() async throws {
        try await Fixtures.app().test(.router) { client in
            let viaParameter = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("token", "not-a-token")])
            #expect(viaParameter.errorCode == 498)
            #expect(viaParameter["error"]?["message"]?.string == "Invalid token.")
            let viaEsriHeader = try await client.get("\(Self.trees)", headers: [HTTPField.Name("X-Esri-Authorization")!: "Bearer not-a-token"])
            #expect(viaEsriHeader.errorCode == 498)
            let viaAuthorization = try await client.get("/arcgis/rest/services", headers: [.authorization: "Bearer not-a-token"])
            #expect(viaAuthorization.errorCode == 498)
            // Signing in still works with a stale token around.
            let signIn = try await client.post("/arcgis/sharing/rest/generateToken", [("username", "editor01"), ("password", "sample-editor01")],
                                               headers: [.authorization: "Bearer stale"])
            #expect(signIn["token"] != nil)
        }
    }

    @Test func aTokenIsAcceptedInEachPlace() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let edit = #"[{"attributes":{"OBJECTID":1,"Notes":"checked"}}]"#
            let viaParameter = try await client.post("\(Self.trees)/applyEdits", [("updates", edit), ("token", token)])
            #expect(viaParameter["updateResults"]?[0]?["success"]?.bool == true)
            let viaEsriHeader = try await client.post("\(Self.trees)/applyEdits", [("updates", edit)],
                                                      headers: [HTTPField.Name("X-Esri-Authorization")!: "Bearer \(token)"])
            #expect(viaEsriHeader["updateResults"]?[0]?["success"]?.bool == true)
            let viaAuthorization = try await client.post("\(Self.trees)/applyEdits", [("updates", edit)], headers: [.authorization: "Bearer \(token)"])
            #expect(viaAuthorization["updateResults"]?[0]?["success"]?.bool == true)
        }
    }

    @Test func theRequestLogNamesTheUserAndNeverATokenOrPassword() async throws {
        let log = CapturedLog()
        try await Fixtures.app(logger: log.logger).test(.router) { client in
            let token = try await client.token()
            _ = try await client.get("\(Self.trees)/query", [("where", "1=1"), ("token", token)])
            let lines = log.lines
            #expect(lines.contains { $0.hasPrefix("GET \(Self.trees)/query 200 ") && $0.hasSuffix("user=editor01") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("POST /arcgis/sharing/rest/generateToken 200 ") })
            #expect(!lines.contains { $0.contains(token) || $0.contains("sample-editor01") })
        }
    }

    @Test func noUsersFileMeansAnonymousFullAccess() async throws {
        try await Fixtures.app(users: false).test(.router) { client in
            let edit = try await client.post("\(Self.trees)/applyEdits", [("updates", #"[{"attributes":{"OBJECTID":1,"DBH":9}}]"#)])
            #expect(edit["updateResults"]?[0]?["success"]?.bool == true)
            let info = try await client.get("/arcgis/rest/info")
            #expect(info["authInfo"]?["isTokenBasedSecurity"]?.bool == false)
        }
    }
}
