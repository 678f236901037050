import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOPosix
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// The server as `maprules serve` runs it (`MapRulesServer.application`): each connection's requests answered on its
/// event loop (`EventLoopConnections`), and the one-line request log.
@Suite struct EventLoopConnectionsTests {
    /// A task preferring an `EventLoopTaskExecutor` runs on that loop's thread, also after it waited for other work.
    @Test func tasksPreferringTheExecutorRunOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let executor = EventLoopTaskExecutor(loop)
        #expect(!loop.inEventLoop)
        let (before, after) = await withTaskExecutorPreference(executor) { () async -> (Bool, Bool) in
            let before = loop.inEventLoop
            try? await Task.sleep(for: .milliseconds(5))
            return (before, loop.inEventLoop)
        }
        #expect(before && after)
        try await group.shutdownGracefully()
    }

    /// A server built as `maprules serve`'s is (`http1OnEventLoops` on `ServerEventLoops`) runs its handlers on one of
    /// the server's own loops: not on the concurrency pool, nor on NIO's shared loops.
    @Test func handlersRunOnTheServersOwnLoops() async throws {
        let router = Router()
        router.get("where") { _, _ -> String in
            if ServerEventLoops.group.makeIterator().contains(where: { $0.inEventLoop }) { return "server loop" }
            return MultiThreadedEventLoopGroup.singleton.makeIterator().contains(where: { $0.inEventLoop }) ? "shared loop" : "elsewhere"
        }
        let app = Application(router: router, server: .http1OnEventLoops(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              eventLoopGroupProvider: .shared(ServerEventLoops.group))
        try await app.test(.live) { client in
            for _ in 0..<3 {
                let response = try await client.execute(uri: "/where", method: .get)
                #expect(String(buffer: response.body) == "server loop")
            }
        }
    }

    /// Pages over a real socket, one keep-alive connection, as `maprules serve` answers them: GeoJSON and Esri JSON
    /// pages give the same features in turn, and an error still answers.
    @Test func servedApplicationAnswersPagesOnOneConnection() async throws {
        let core = try await Fixtures.core()
        let app = try MapRulesServer.application(core: core, options: .init(host: "127.0.0.1", port: 0, portalFolders: Fixtures.folders),
                                                 logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await app.test(.live) { client in
            let path = "/arcgis/rest/services/TreesOfPortland/FeatureServer/0/query"
            for offset in [0, 5, 20, 23] {
                let pairs = [("resultOffset", "\(offset)"), ("resultRecordCount", "3")]
                let geo = try await client.get(path, pairs + [("f", "geojson")])
                let esri = try await client.get(path, pairs + [("f", "json"), ("outSR", "4326")])
                let ids = geo["features"]?.array?.compactMap { $0["id"]?.int }
                #expect(ids == esri["features"]?.array?.compactMap { $0["attributes"]?["OBJECTID"]?.int })
                #expect(ids?.count == min(3, 24 - offset))
            }
            let missing = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/9/query", [("f", "geojson")])
            #expect(missing["error"] != nil)
        }
    }

    /// The log line's time is what `Date().ISO8601Format()` writes.
    @Test func logTimestampsMatchFoundation() {
        for seconds in [0, 1, 951_782_400, 1_721_499_180, 1_798_761_599, 4_102_444_800, Int(Date().timeIntervalSince1970)] {
            var line: [UInt8] = []
            ServeLogHandler.appendTimestamp(time_t(seconds), to: &line)
            #expect(String(decoding: line, as: UTF8.self) == Date(timeIntervalSince1970: TimeInterval(seconds)).ISO8601Format(), "\(seconds)")
        }
    }
}
