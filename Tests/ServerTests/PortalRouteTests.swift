import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

@Suite struct PortalRouteTests {
    @Test func rootSelfAndCommunity() async throws {
        try await Fixtures.app().test(.router) { client in
            #expect(try await client.get("/arcgis/sharing/rest", [("f", "json")])["currentVersion"]?.string == SiteInfo.portalVersion)
            let anonymous = try await client.get("/arcgis/sharing/rest/portals/self")
            #expect(anonymous["isPortal"]?.bool == true && anonymous["user"] == nil)
            let token = try await client.token("admin")
            let portal = try await client.get("/arcgis/sharing/rest/portals/self", [("token", token)])
            #expect(portal["user"]?["username"]?.string == "admin")
            let me = try await client.get("/arcgis/sharing/rest/community/self", [("token", token)])
            #expect(me["role"]?.string == "org_admin")
            #expect(try await client.get("/arcgis/sharing/rest/community/self").errorCode == 499)
        }
    }

    @Test func webMapItemsServeRewrittenURLs() async throws {
        try await Fixtures.app().test(.router) { client in
            let found = try await client.get("/arcgis/sharing/rest/search", [("q", #"TreesOfPortland AND (type:"web map" NOT type:"web mapping application")"#)])
            #expect(found["total"]?.int == 1, "\(found)")
            let id = found["results"]?[0]?["id"]?.string ?? ""
            #expect(id.count == 32)
            let item = try await client.get("/arcgis/sharing/rest/content/items/\(id)")
            #expect(item["type"]?.string == "Web Map" && item["title"]?.string == "TreesOfPortland")
            let data = try await client.get("/arcgis/sharing/rest/content/items/\(id)/data")
            let urls = data["operationalLayers"]?.array?.compactMap { $0["url"]?.string } ?? []
            #expect(!urls.isEmpty && urls.allSatisfy { $0.hasPrefix("http://localhost/arcgis/rest/services/TreesOfPortland/FeatureServer/") }, "\(urls)")
            let basemap = data["baseMap"]?["baseMapLayers"]?[0]?["url"]?.string
            #expect(basemap?.contains("arcgisonline.com") != false, "other services keep their URLs")
            #expect(try await client.get("/arcgis/sharing/rest/content/items/0000").errorCode == 400)
            let none = try await client.get("/arcgis/sharing/rest/search", [("q", #"type:"Feature Service""#)])
            #expect(none["total"]?.int == 0)
        }
    }

    @Test func oauthImplicitSignIn() async throws {
        try await Fixtures.app().test(.router) { client in
            let redirect = "https://localhost"
            let page = try await client.execute(uri: "/arcgis/sharing/rest/oauth2/authorize?" + Form.query([
                ("client_id", "pythonapi"), ("response_type", "token"), ("redirect_uri", redirect), ("state", "xyz"), ("expiration", "60")]), method: .get)
            let line = page.text.split(separator: "\n").first { $0.contains("{") }.map(String.init) ?? ""
            let info = try JSON.parse(String(line[line.firstIndex(of: "{")!...line.lastIndex(of: "}")!]))
            let oauthState = info["oauth_state"]?.string ?? ""
            #expect(!oauthState.isEmpty)

            let wrong = try await client.execute(uri: "/arcgis/sharing/oauth2/signin", method: .post, headers: Form.headers,
                                                 body: Form.body([("oauth_state", oauthState), ("username", "editor01"), ("password", "bad")]))
            #expect(wrong.status == .ok && wrong.text.contains("Invalid username or password"))

            let signedIn = try await client.execute(uri: "/arcgis/sharing/oauth2/signin", method: .post, headers: Form.headers,
                                                    body: Form.body([("oauth_state", oauthState), ("username", "editor01"), ("password", "sample-editor01")]))
            #expect(signedIn.status == .found)
            let location = signedIn.headers[.location] ?? ""
            #expect(location.hasPrefix(redirect + "#"))
            let fragment = RequestArguments.formURLEncoded(Substring(location.split(separator: "#").last ?? ""))
            #expect(fragment.string("state") == "xyz" && fragment.string("username") == "editor01")
            let token = fragment.string("access_token") ?? ""
            let me = try await client.get("/arcgis/sharing/rest/community/self", headers: [HTTPField.Name("X-Esri-Authorization")!: "Bearer \(token)"])
            #expect(me["username"]?.string == "editor01")

            let foreign = try await client.execute(uri: "/arcgis/sharing/rest/oauth2/authorize?" + Form.query([
                ("client_id", "pythonapi"), ("response_type", "token"), ("redirect_uri", "https://evil.example")]), method: .get)
            #expect(foreign.text.contains("Invalid redirect_uri"))
        }
    }

    @Test func oauthCodeFlowWithRefresh() async throws {
        try await Fixtures.app().test(.router) { client in
            let page = try await client.execute(uri: "/arcgis/sharing/rest/oauth2/authorize?" + Form.query([
                ("client_id", "pythonapi"), ("response_type", "code"), ("redirect_uri", "urn:ietf:wg:oauth:2.0:oob")]), method: .get)
            let oauthState = page.text.components(separatedBy: "\"oauth_state\":\"").dropFirst().first?.prefix { $0 != "\"" } ?? ""
            let success = try await client.execute(uri: "/arcgis/sharing/oauth2/signin", method: .post, headers: Form.headers,
                                                   body: Form.body([("oauth_state", String(oauthState)), ("username", "editor02"), ("password", "sample-editor02")]))
            let code = success.text.components(separatedBy: "<title>SUCCESS code=").dropFirst().first?.prefix { $0 != "<" } ?? ""
            #expect(!code.isEmpty, "\(success.text)")
            let tokens = try await client.post("/arcgis/sharing/rest/oauth2/token", [("grant_type", "authorization_code"), ("code", String(code)),
                                                                                   ("client_id", "pythonapi"), ("redirect_uri", "urn:ietf:wg:oauth:2.0:oob")])
            #expect(tokens["username"]?.string == "editor02" && tokens["access_token"]?.string != nil, "\(tokens)")
            let again = try await client.post("/arcgis/sharing/rest/oauth2/token", [("grant_type", "authorization_code"), ("code", String(code))])
            #expect(again["error"] != nil, "a code is used once")
            let refreshed = try await client.post("/arcgis/sharing/rest/oauth2/token", [("grant_type", "refresh_token"),
                                                                                      ("refresh_token", tokens["refresh_token"]?.string ?? "")])
            let token = refreshed["access_token"]?.string ?? ""
            #expect(try await client.get("/arcgis/sharing/rest/community/self", [("token", token)])["username"]?.string == "editor02")
        }
    }
}
