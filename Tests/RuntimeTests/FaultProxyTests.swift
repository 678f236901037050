import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

/// The geodatabase over HTTP through a proxy in front of `maprules serve` that breaks `applyEdits` on demand:
/// HTTP 500, no answer within the timeout (the request never reaches the service), an expired token. Each time
/// the runtime reports the error, keeps every local edit, and a retry lands them exactly once.
@Suite struct FaultProxyTests {
    enum Fault: Sendable { case none, error500, silence, expiredToken, loseAnswer }

    final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var fault = Fault.none
        private(set) var applyCalls = 0
        func set(_ fault: Fault) { lock.withLock { self.fault = fault } }
        /// The fault for this applyEdits request; a fault fires once.
        func next() -> Fault { lock.withLock { applyCalls += 1; defer { fault = .none }; return fault } }
    }

    /// Forwards every request to `target` (the real server), except applyEdits when a fault is set.
    static func proxy(to target: Int, faults: Switch, client: HTTPClient) -> Router<BasicRequestContext> {
        let router = Router()
        for method in [HTTPRequest.Method.get, .post] {
            router.on("**", method: method) { request, _ in
                let path = request.uri.description
                if path.contains("/applyEdits") {
                    switch faults.next() {
                    case .none: break
                    case .error500:
                        return Response(status: .internalServerError, headers: [.contentType: "text/html"],
                                        body: ResponseBody(byteBuffer: ByteBuffer(string: "<html><body>Proxy error</body></html>")))
                    case .silence:
                        // The request never reaches the service (and is not sent later either).
                        try await Task.sleep(for: .seconds(30))
                        return Response(status: .gatewayTimeout)
                    case .loseAnswer:
                        // The request reaches the service and lands; its answer never comes back.
                        _ = try await forward(request, to: target, path: path, client: client)
                        try await Task.sleep(for: .seconds(30))
                        return Response(status: .gatewayTimeout)
                    case .expiredToken:
                        return Response(status: .ok, headers: [.contentType: "application/json"],
                                        body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"error":{"code":498,"message":"Invalid token.","details":[]}}"#)))
                    }
                }
                return try await forward(request, to: target, path: path, client: client)
            }
        }
        return router
    }

    /// Sends `request` to the real server and answers what it answered.
    static func forward(_ request: Request, to target: Int, path: String, client: HTTPClient) async throws -> Response {
                var outgoing = HTTPClientRequest(url: "http://127.0.0.1:\(target)\(path)")
                outgoing.method = .init(rawValue: request.method.rawValue)
                for field in request.headers where ["content-type", "authorization", "x-esri-authorization", "referer"].contains(field.name.canonicalName) {
                    outgoing.headers.add(name: field.name.rawName, value: field.value)
                }
                outgoing.body = .bytes(try await request.body.collect(upTo: 64 << 20))
                let answer = try await client.execute(outgoing, timeout: .seconds(30))
                let body = try await answer.body.collect(upTo: 64 << 20)
                var headers = HTTPFields()
                if let type = answer.headers.first(name: "content-type") { headers[.contentType] = type }
                return Response(status: .init(code: Int(answer.status.code)), headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// A core with the samples behind `maprules serve`'s HTTP face, and the fault proxy in front of it; `body`
    /// gets the proxied TreesOfPortland URL, the fault switch and the core (to check what landed).
    private func withFaultProxy(_ body: (String, Switch, ServiceCore) async throws -> Void) async throws {
        try await offThePool {
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let faults = Switch()
                let core = try await ServiceCore.open(.init(database: ":memory:", sampleFolders: Samples.folders, usersFile: Samples.usersFile))
                let real = try await HTTPFailureTests.RunningServer(core: core, port: 0)
                try await withLoopbackServer({ onRunning in
                    Application(router: Self.proxy(to: real.port, faults: faults, client: client),
                                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) }, logger: quietLogger)
                }) { port in
                    try await body("http://127.0.0.1:\(port)/arcgis/rest/services/TreesOfPortland/FeatureServer", faults, core)
                }
                await real.stop()
                try await client.shutdown()
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    /// The apply reaches the service and lands, but its answer is lost (the server stopped mid-answer, the
    /// network dropped): the runtime reports `runtime/unreachable` and keeps the edits; the next applyEdits
    /// finds that they landed and sends nothing twice (no duplicate global ids, no lost edit).
    @Test func anApplyWhoseAnswerWasLostLandsOnceWhenRepeated() async throws {
        try await withFaultProxy { url, faults, core in
            let service = try RemoteFeatureService(url: url, credential: Runtimes.editor01, timeout: .seconds(10))
            let geodatabase = ServiceGeodatabase(service: service)
            try await geodatabase.load()
            let trees = try await geodatabase.table(layerID: 0)
            let added = try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string("7 Lost Answer St"), "Site_Type": .string("YD")]),
                                                                      geometry: point(-122.65, 45.525), spatialReference: .wgs84))
            var tree = try await trees.feature(objectId: 9)
            tree["Notes"] = .string("answer lost")
            try await trees.update(tree)
            try await trees.delete(try await trees.feature(objectId: 10))
            faults.set(.loseAnswer)
            let error = await runtimeError { try await geodatabase.applyEdits() }
            #expect(error?.identifier == RuntimeError.Identifier.unreachable)
            #expect(await geodatabase.localEditCount == 3)
            try await geodatabase.applyEdits()
            #expect(await geodatabase.hasLocalEdits == false)
            #expect(faults.applyCalls == 1, "nothing was sent twice")
            let count = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(where: "Address = '7 Lost Answer St'", returnCountOnly: true), as: .anonymous)
            #expect(count.count == 1)
            // The temporary id resolves to the service's feature.
            #expect(try await trees.feature(objectId: try #require(added.objectId))["Address"] == .string("7 Lost Answer St"))
            let nine = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: [9]), as: .anonymous)
            #expect(nine.featureSet?.features.first?.attributes["Notes"] == .string("answer lost"))
            try await service.shutdown()
        }
    }

    @Test func faultsDuringApplyKeepTheLocalEditsAndARetryLandsThemOnce() async throws {
        try await withFaultProxy { url, faults, core in
            let service = try RemoteFeatureService(url: url, credential: Runtimes.editor01, timeout: .seconds(6))
            let geodatabase = ServiceGeodatabase(service: service)
            try await geodatabase.load()
            let trees = try await geodatabase.table(layerID: 0)
            for (index, fault) in [Fault.error500, .silence, .expiredToken].enumerated() {
                let address = "\(10 + index) Fault St"
                try await trees.add(await trees.createFeature(attributes: attrs(["Address": .string(address), "Site_Type": .string("YD")]),
                                                              geometry: point(-122.65, 45.525), spatialReference: .wgs84))
                var tree = try await trees.feature(objectId: Int64(5 + index))
                tree["Notes"] = .string("after \(fault)")
                try await trees.update(tree)
                faults.set(fault)
                if fault == .expiredToken {
                    // One refresh of the token and one repeat: the apply lands at the first call.
                    try await geodatabase.applyEdits()
                } else {
                    let error = await runtimeError { try await geodatabase.applyEdits() }
                    #expect(error?.identifier == (fault == .error500 ? RuntimeError.Identifier.serviceError : RuntimeError.Identifier.unreachable), "\(fault)")
                    #expect(await geodatabase.localEditCount == 2, "\(fault)")
                    try await geodatabase.applyEdits()
                }
                #expect(await geodatabase.hasLocalEdits == false)
                let count = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(where: "Address = '\(address)'", returnCountOnly: true), as: .anonymous)
                #expect(count.count == 1, "\(fault): the add landed once")
                let notes = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: [Int64(5 + index)]), as: .anonymous)
                #expect(notes.featureSet?.features.first?.attributes["Notes"] == .string("after \(fault)"))
            }
            try await service.shutdown()
        }
    }
}
