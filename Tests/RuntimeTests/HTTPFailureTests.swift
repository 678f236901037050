import Foundation
import Hummingbird
import Runtime
import Server
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

/// Failures over HTTP at the level of the geodatabase: the error is reported, the local edits are kept, and a
/// retry succeeds once the service answers again.
@Suite struct HTTPFailureTests {
    /// A `maprules serve` application over `core` on `port` (0: the system picks), running until `stop()`.
    final class RunningServer: @unchecked Sendable {
        let server: TestServerRun
        let port: Int

        /// Starts the server. A given port may stay held for a while after the first server stopped: by the old
        /// server's side of a connection the client has not closed yet (FIN_WAIT2 lasts up to the system's 60 s
        /// `tcp_fin_timeout`), or by another test's outgoing connection. Seen in CI with the whole suite running:
        /// "Address already in use" for over 10 s. Binding is retried for up to 90 s.
        init(core: ServiceCore, port: Int) async throws {
            var lastError = "no attempt"
            for attempt in 0..<(port == 0 ? 1 : 360) {
                if attempt > 0 { try await Task.sleep(nanoseconds: 250_000_000) }
                let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
                let app = try MapRulesServer.application(core: core, options: .init(host: "127.0.0.1", port: port), logger: quietLogger) { running in
                    continuation.yield(running.port)
                }
                let server = TestServerRun(app) { continuation.finish() }
                var iterator = ports.makeAsyncIterator()
                if let bound = await iterator.next() {
                    self.server = server
                    self.port = bound
                    return
                }
                lastError = (await server.result).failureDescription
            }
            throw RuntimeError(RuntimeError.Identifier.unreachable, "the test server did not start on port \(port): \(lastError)")
        }

        func stop() async {
            await server.stop()
        }
    }

    @Test func aStoppedServerKeepsTheLocalEditsAndARetrySucceeds() async throws {
        try await offThePool { try await stoppedServer() }
    }

    private func stoppedServer() async throws {
        let core = try await ServiceCore.open(.init(database: ":memory:", sampleFolders: Samples.folders, usersFile: Samples.usersFile))
        let first = try await RunningServer(core: core, port: 0)
        let url = "http://127.0.0.1:\(first.port)/arcgis/rest/services/TreesOfPortland/FeatureServer"
        let service = try RemoteFeatureService(url: url, credential: Runtimes.editor01, timeout: .seconds(3))
        let geodatabase = ServiceGeodatabase(service: service)
        try await geodatabase.load()
        let trees = try await geodatabase.table(layerID: 0)
        var tree = try await trees.feature(objectId: 4)
        tree["Notes"] = .string("kept through the outage")
        try await trees.update(tree)
        try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string("6 Test St"), "Site_Type": .string("PK")]),
                                                      geometry: point(-122.65, 45.525), spatialReference: .wgs84))
        await first.stop()

        let error = await runtimeError { try await geodatabase.applyEdits() }
        #expect(error?.identifier == RuntimeError.Identifier.unreachable)
        #expect(await geodatabase.localEditCount == 2)

        // The service comes back on the same port; the same apply lands, once.
        let second = try await RunningServer(core: core, port: first.port)
        try await geodatabase.applyEdits()
        #expect(await geodatabase.hasLocalEdits == false)
        let anonymous = Caller.anonymous
        let notes = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(where: "OBJECTID = 4"), as: anonymous).featureSet
        #expect(notes?.features.first?.attributes["Notes"] == .string("kept through the outage"))
        let added = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(where: "Address = '6 Test St'", returnCountOnly: true), as: anonymous)
        #expect(added.count == 1)
        try? await service.shutdown()
        await second.stop()
    }
}

extension Result {
    /// The error's description, or "it ended without an error".
    var failureDescription: String {
        if case .failure(let error) = self { return "\(error)" }
        return "it ended without an error"
    }
}
