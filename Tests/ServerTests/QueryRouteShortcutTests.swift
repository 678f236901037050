import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
import Server
import Service
import FeatureServiceModel
import WebMap

/// `MapRulesServer.application` answers a layer's `query` in the usual path form without the router's trie
/// (`QueryRouteShortcut`), and must answer it exactly as the router does: the same query through a path only the router
/// takes (a trailing slash, which the router's trie ignores) answers the same status, type and bytes.
@Suite struct QueryRouteShortcutTests {
    static let layer = "/arcgis/rest/services/TreesOfPortland/FeatureServer/0"

    @Test func shortcutAnswersAsTheRouter() async throws {
        let core = try await Fixtures.core()
        let app = try MapRulesServer.application(core: core, options: .init(host: "127.0.0.1", port: 0, portalFolders: Fixtures.folders),
                                                 logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let queries = ["resultOffset=0&resultRecordCount=3&f=geojson", "resultOffset=20&resultRecordCount=5&f=json", "f=pjson&resultRecordCount=1",
                       "orderByFields=OBJECTID%20DESC&resultRecordCount=2&f=geojson", "returnCountOnly=true&f=json", "f=pbf",
                       "resultOffset=x&f=json", "where=nonsense%20%3D%3D&f=json", "token=not-a-token&f=json"]
        let shortcut = [Self.layer + "/query", Self.layer + "/QUERY", "/ARCGIS/Rest/Services/TreesOfPortland/featureserver/0/Query",
                        "/arcgis/rest/services/TreesOfPortland/FeatureServer/9/query", "/arcgis/rest/services/Nowhere/FeatureServer/0/query"]
        try await app.test(.live) { client in
            for path in shortcut {
                for query in queries {
                    for method in [HTTPRequest.Method.get, .post] {
                        let viaShortcut = try await client.execute(uri: "\(path)?\(query)", method: method)
                        let viaRouter = try await client.execute(uri: "\(path)/?\(query)", method: method)
                        #expect(viaShortcut.status == viaRouter.status, "\(method) \(path)?\(query)")
                        #expect(viaShortcut.headers[.contentType] == viaRouter.headers[.contentType], "\(method) \(path)?\(query)")
                        #expect(viaShortcut.text == viaRouter.text, "\(method) \(path)?\(query)")
                    }
                }
            }
            // The layer really was queried through the shortcut: three features.
            let page = try await client.get(Self.layer + "/query", [("resultRecordCount", "3"), ("f", "geojson")])
            #expect(page["features"]?.array?.count == 3)
            // HEAD is no route of the query (the router answers 404, as for any HEAD).
            let head = try await client.execute(uri: Self.layer + "/query?f=json", method: .head)
            #expect(head.status == .notFound)
        }
    }

    /// Paths of other forms are the router's: a layer that is not digits, an escaped layer, a doubled slash.
    @Test func otherFormsGoToTheRouter() async throws {
        let core = try await Fixtures.core()
        let app = try MapRulesServer.application(core: core, options: .init(host: "127.0.0.1", port: 0, portalFolders: Fixtures.folders),
                                                 logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await app.test(.live) { client in
            let escaped = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/%30/query", [("resultRecordCount", "2"), ("f", "json")])
            #expect(escaped["features"]?.array?.count == 2)
            let doubled = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/0//query", [("resultRecordCount", "2"), ("f", "json")])
            #expect(doubled["features"]?.array?.count == 2)
            let named = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/layers/query", [("f", "json")])
            #expect(named["error"] != nil)
        }
    }

    /// The shortcut runs the route's whole middleware chain: one log line a request, with the path and the user.
    @Test func shortcutRequestsAreLogged() async throws {
        let core = try await Fixtures.core()
        let log = CapturedLog()
        let app = try MapRulesServer.application(core: core, options: .init(host: "127.0.0.1", port: 0, portalFolders: Fixtures.folders),
                                                 logger: log.logger)
        try await app.test(.live) { client in
            _ = try await client.get(Self.layer + "/query", [("resultRecordCount", "1"), ("f", "geojson")])
        }
        let lines = log.lines.filter { $0.contains("/query") }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("GET \(Self.layer)/query 200 ") == true)
        #expect(lines.first?.hasSuffix("user=anonymous") == true)
    }
}
