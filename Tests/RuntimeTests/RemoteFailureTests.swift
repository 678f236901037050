import Foundation
import Hummingbird

@testable import Runtime
import Service
import Testing
import FeatureServiceModel
@testable import LocalFeatureService
import WebMap

/// `RemoteFeatureService` against a throw-away ArcGIS look-alike that misbehaves on purpose (HTTP 500, HTML,
/// junk, a token that expires once, answers in real ArcGIS's sparser style), against a port that never
/// answers and against a closed port.
@Suite struct RemoteFailureTests {
    /// How often each path was asked for.
    final class Hits: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        @discardableResult func add(_ key: String) -> Int { lock.withLock { counts[key, default: 0] += 1; return counts[key]! } }
        func count(_ key: String) -> Int { lock.withLock { counts[key, default: 0] } }
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static let featureSet = #"{"objectIdFieldName":"OBJECTID","fields":[{"name":"OBJECTID","type":"esriFieldTypeOID"}],"features":[{"attributes":{"OBJECTID":7}}]}"#
    static let invalidToken = #"{"error":{"code":498,"message":"Invalid token.","details":[]}}"#

    /// The token a request carried (header or form parameter).
    static func token(_ request: inout Request) async -> String? {
        for field in request.headers where field.name.canonicalName == "x-esri-authorization" {
            return String(field.value.dropFirst("Bearer ".count))
        }
        if let body = try? await request.body.collect(upTo: 1 << 20) {
            for pair in String(buffer: body).split(separator: "&") where pair.hasPrefix("token=") { return String(pair.dropFirst(6)) }
        }
        return nil
    }

    /// True for tokens `token-1`, `token-3`...: the first one of each sign-in and renewal pair.
    static func isFirst(_ token: String?) -> Bool {
        guard let number = token.flatMap({ Int($0.dropFirst("token-".count)) }) else { return false }
        return number % 2 == 1
    }

    /// The look-alike's routes; `hits` counts them.
    static func router(_ hits: Hits) -> Router<BasicRequestContext> {
        let router = Router()
        func route(_ path: String, _ handler: @escaping @Sendable (inout Request) async throws -> Response) {
            for method in [HTTPRequest.Method.get, .post] {
                router.on(RouterPath(path), method: method) { request, _ in
                    hits.add(path)
                    var request = request
                    return try await handler(&request)
                }
            }
        }
        let services = "arcgis/rest/services"
        route("arcgis/rest/info") { request in
            json(#"{"currentVersion":11.1,"authInfo":{"isTokenBasedSecurity":true,"tokenServicesUrl":"http://\#(request.head.authority ?? "")/custom/generateToken"}}"#)
        }
        route("custom/generateToken") { request in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            if body.contains("password=wrong") {
                return json(#"{"error":{"code":400,"message":"Unable to generate token.","details":["Invalid username or password."]}}"#)
            }
            let expires = Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000
            return json(#"{"token":"token-\#(hits.count("custom/generateToken"))","expires":\#(expires),"ssl":false}"#)
        }
        // 498 for a first token (tokens 1, 3, 5...), a feature set for its renewal (2, 4, 6...): as a JSON error
        // (HTTP 200) and as an HTTP status.
        route("\(services)/Expiring/FeatureServer/0/query") { request in
            isFirst(await token(&request)) ? json(invalidToken) : json(featureSet)
        }
        route("\(services)/ExpiringStatus/FeatureServer/0/query") { request in
            isFirst(await token(&request)) ? html("", status: .init(code: 498, reasonPhrase: "Invalid Token")) : json(featureSet)
        }
        route("\(services)/AlwaysInvalid/FeatureServer/0/query") { _ in json(invalidToken) }
        // How a request came: count 1 for a GET, 2 for a POST, plus 10 when a token is in the URL.
        route("\(services)/Methods/FeatureServer/0/query") { request in
            json(#"{"count":\#((request.method == .post ? 2 : 1) + ((request.uri.query ?? "").contains("token=") ? 10 : 0))}"#)
        }
        // A server that reads the token parameter only, not the header.
        route("\(services)/HeaderBlind/FeatureServer/0/query") { request in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            return body.contains("token=token-") ? json(#"{"count":5}"#) : json(#"{"error":{"code":499,"message":"Token Required"}}"#)
        }
        route("\(services)/Broken/FeatureServer") { _ in html("<html><body><h1>500 Internal Server Error</h1></body></html>", status: .internalServerError) }
        route("\(services)/Broken/FeatureServer/applyEdits") { _ in html("<html>down</html>", status: .badGateway) }
        route("\(services)/Flaky/FeatureServer/0/query") { _ in
            hits.count("\(services)/Flaky/FeatureServer/0/query") == 1 ? html("busy", status: .serviceUnavailable) : json(#"{"count":3}"#)
        }
        route("\(services)/Junk/FeatureServer") { _ in html("<!DOCTYPE html><html><head><title>Sign in</title></head></html>") }
        route("\(services)/Junk/FeatureServer/0/query") { _ in json("{not json at all") }
        route("\(services)/Junk/FeatureServer/1/query") { _ in json(#"{"something":"else"}"#) }
        route("\(services)/Junk/FeatureServer/0/1/attachments/1") { _ in json(#"{"error":{"code":404,"message":"Attachment not found."}}"#) }
        route("\(services)/Refusing/FeatureServer") { _ in json(#"{"error":{"code":403,"message":"You do not have permissions to access this resource or perform this operation."}}"#) }
        route("\(services)/Refusing/FeatureServer/0/query") { _ in html("Unauthorized", status: .unauthorized) }
        route("\(services)/Refusing/FeatureServer/1/query") { _ in json(#"{"error":{"code":"1003","message":"Operation rolled back.","details":"one string"}}"#) }
        // Real ArcGIS's sparser answers: no `layers` resource, old spellings, nulls, members left out.
        route("\(services)/Sparse/FeatureServer") { _ in json(#"{"currentVersion":10.91,"layers":[{"id":0,"name":"Points"}],"tables":[{"id":5,"name":"Notes"}]}"#) }
        route("\(services)/Sparse/FeatureServer/0") { _ in json(#"{"id":0,"name":"Points","type":"Feature Layer"}"#) }
        route("\(services)/Sparse/FeatureServer/5") { _ in json(#"{"id":5,"name":"Notes","type":"Table"}"#) }
        route("\(services)/Sparse/FeatureServer/0/query") { request in
            let text = String(buffer: try await request.body.collect(upTo: 1 << 20)) + (request.uri.query ?? "")
            if text.contains("returnIdsOnly=true") { return json(#"{"objectIdFieldName":"OBJECTID","objectIds":null}"#) }
            return json(#"{"objectIdField":"FID","features":[{"attributes":{"FID":3,"Name":"x","Flag":true},"geometry":{"x":"NaN","y":"NaN"}},{"attributes":{"FID":4},"geometry":null}]}"#)
        }
        route("\(services)/Sparse/FeatureServer/applyEdits") { _ in
            json(#"[{"id":0,"addResults":[{"objectId":9,"success":true}],"deleteResults":[{"objectId":2,"success":false,"error":{"code":1011,"description":"Object is missing."}}]}]"#)
        }
        route("\(services)/Sparse/FeatureServer/0/1/attachments") { _ in
            json(#"{"attachmentInfos":[{"id":1,"name":"a.jpg","contentType":"image/jpeg","size":10}]}"#)
        }
        route("\(services)/Sparse/VersionManagementServer") { _ in json(#"{"defaultVersionName":"sde.DEFAULT","currentVersion":"11.1"}"#) }
        route("\(services)/Sparse/VersionManagementServer/versionInfos") { _ in
            json(#"{"versions":[{"versionName":"sde.DEFAULT","versionGuid":"{BD3F4817-9A00-41AC-B0CC-58F78DBAE0A1}","description":null,"access":"esriVersionAccessPublic","creationDate":1,"modifiedDate":2,"reconcileDate":null,"commonAncestorDate":null}],"success":true}"#)
        }
        route("\(services)/Sparse/VersionManagementServer/versions/:guid") { _ in
            json(#"{"success":false,"error":{"extendedCode":-2147217146,"message":"Version not found","details":[]}}"#)
        }
        return router
    }

    /// Runs `body` with the look-alike; it gets the site URL (`http://127.0.0.1:<port>/arcgis`) and the hit counts.
    func withLookAlike(_ body: (String, Hits) async throws -> Void) async throws {
        let hits = Hits()
        try await withLoopbackServer({ onRunning in
            Application(router: Self.router(hits), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) }, logger: remoteTestLogger)
        }) { port in try await body("http://127.0.0.1:\(port)/arcgis", hits) }
    }

    static func service(_ site: String, _ name: String) -> String { "\(site)/rest/services/\(name)/FeatureServer" }
    static let password = Credential.password(user: "crew", password: "secret")

    @Test func anInvalidTokenIsRenewedOnceThenTheRequestSucceeds() async throws {
        try await withLookAlike { site, hits in
            for name in ["Expiring", "ExpiringStatus"] {
                try await withRemote(Self.service(site, name), credential: Self.password) { service in
                    let before = hits.count("custom/generateToken")
                    let set = try await service.queryFeatures(layer: 0, QueryParameters())
                    #expect(set.objectIds == [7], "\(name)")
                    #expect(hits.count("custom/generateToken") - before == 2, "\(name): sign in, then one renewal")
                    #expect(hits.count("arcgis/rest/services/\(name)/FeatureServer/0/query") == 2, "\(name)")
                    // The token service came from rest/info's authInfo.tokenServicesUrl.
                    #expect(hits.count("arcgis/rest/info") >= 1)
                }
            }
        }
    }

    @Test func aServerThatIgnoresTheTokenHeaderGetsTheTokenInAPOSTBody() async throws {
        try await withLookAlike { site, hits in
            try await withRemote(Self.service(site, "HeaderBlind"), credential: Self.password) { service in
                let count = try await service.queryCount(layer: 0, QueryParameters())
                #expect(count == 5)
                #expect(hits.count("arcgis/rest/services/HeaderBlind/FeatureServer/0/query") == 2)
            }
            // Anonymous: 499 is an authentication error at once.
            try await withRemote(Self.service(site, "HeaderBlind")) { service in
                let error = await remoteError { try await service.queryCount(layer: 0, QueryParameters()) }
                #expect(error?.identifier == RuntimeError.Identifier.authentication)
                #expect(error?.serviceCode == 499)
                #expect(hits.count("arcgis/rest/services/HeaderBlind/FeatureServer/0/query") == 3)
            }
        }
    }

    @Test func concurrentRequestsShareOneSignInAndOneRenewal() async throws {
        try await withLookAlike { site, hits in
            try await withRemote(Self.service(site, "Expiring"), credential: Self.password) { service in
                let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<6 { group.addTask { try await service.queryFeatures(layer: 0, QueryParameters()).features.count } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(counts == Array(repeating: 1, count: 6))
                #expect(hits.count("custom/generateToken") == 2, "one sign-in, one renewal")
            }
        }
    }

    @Test func readsAreGETUnlessLongAndTheTokenNeverGoesInAURL() async throws {
        try await withLookAlike { site, _ in
            try await withRemote(Self.service(site, "Methods"), credential: Self.password) { service in
                let short = try await service.queryCount(layer: 0, QueryParameters(where: "a = 1"))
                #expect(short == 1)
                let long = try await service.queryCount(layer: 0, QueryParameters(where: "a IN (\((1...400).map(String.init).joined(separator: ",")))"))
                #expect(long == 2)
            }
        }
    }

    @Test func aTokenRefusedAfterItsRenewalIsAnAuthenticationError() async throws {
        try await withLookAlike { site, hits in
            try await withRemote(Self.service(site, "AlwaysInvalid"), credential: Self.password) { service in
                let error = await remoteError { try await service.queryCount(layer: 0, QueryParameters()) }
                #expect(error?.identifier == RuntimeError.Identifier.authentication)
                #expect(error?.serviceCode == 498)
                #expect(hits.count("arcgis/rest/services/AlwaysInvalid/FeatureServer/0/query") == 2)
                #expect(hits.count("custom/generateToken") == 2)
            }
            // A token credential cannot be renewed: no sign-in is attempted.
            try await withRemote(Self.service(site, "Expiring"), credential: .token("token-1")) { service in
                let error = await remoteError { try await service.queryFeatures(layer: 0, QueryParameters()) }
                #expect(error?.identifier == RuntimeError.Identifier.authentication)
                #expect(hits.count("arcgis/rest/services/Expiring/FeatureServer/0/query") == 1)
                #expect(hits.count("custom/generateToken") == 2)
            }
            // Bad credentials at the token service.
            try await withRemote(Self.service(site, "Expiring")) { service in
                let error = await remoteError { try await service.signIn(.password(user: "crew", password: "wrong")) }
                #expect(error?.identifier == RuntimeError.Identifier.authentication)
                #expect(error?.serviceCode == 400)
                #expect(error?.message.contains("Invalid username or password") == true)
            }
        }
    }

    @Test func http5xxIsRetriedForReadsButNeverForEdits() async throws {
        try await withLookAlike { site, hits in
            try await withRemote(Self.service(site, "Broken")) { service in
                let read = await remoteError { try await service.describe() }
                #expect(read?.identifier == RuntimeError.Identifier.serviceError)
                #expect(read?.serviceCode == 500)
                #expect(read?.message.contains("500 Internal Server Error") == true)
                #expect(hits.count("arcgis/rest/services/Broken/FeatureServer") == 3)

                let write = await remoteError { try await service.applyEdits([LayerEdits(id: 0, deletes: [1])], options: EditOptions()) }
                #expect(write?.identifier == RuntimeError.Identifier.serviceError)
                #expect(write?.serviceCode == 502)
                #expect(hits.count("arcgis/rest/services/Broken/FeatureServer/applyEdits") == 1)
            }
            try await withRemote(Self.service(site, "Flaky")) { service in
                let count = try await service.queryCount(layer: 0, QueryParameters())
                #expect(count == 3)
                #expect(hits.count("arcgis/rest/services/Flaky/FeatureServer/0/query") == 2)
            }
        }
    }

    @Test func answersThatAreNotJSONOrRefuseAreServiceErrors() async throws {
        try await withLookAlike { site, _ in
            try await withRemote(Self.service(site, "Junk")) { service in
                let page = await remoteError { try await service.describe() }
                #expect(page?.identifier == RuntimeError.Identifier.serviceError)
                #expect(page?.message.contains("not JSON") == true)
                #expect(page?.message.contains("<!DOCTYPE html>") == true)
                let junk = await remoteError { try await service.queryCount(layer: 0, QueryParameters()) }
                #expect(junk?.identifier == RuntimeError.Identifier.serviceError)
                let shape = await remoteError { try await service.queryFeatures(layer: 1, QueryParameters()) }
                #expect(shape?.identifier == RuntimeError.Identifier.serviceError)
                #expect(shape?.message.contains("not a feature set") == true && shape?.message.contains("/Junk/FeatureServer/1/query") == true,
                        "\(shape?.message ?? "")")
                let attachment = await remoteError { try await service.attachmentData(layer: 0, objectId: 1, attachmentId: 1, gdbVersion: nil) }
                #expect(attachment?.serviceCode == 404)
            }
            try await withRemote(Self.service(site, "Refusing")) { service in
                let forbidden = await remoteError { try await service.describe() }
                #expect(forbidden?.identifier == RuntimeError.Identifier.authentication)
                #expect(forbidden?.serviceCode == 403)
                let unauthorized = await remoteError { try await service.queryCount(layer: 0, QueryParameters()) }
                #expect(unauthorized?.identifier == RuntimeError.Identifier.authentication)
                #expect(unauthorized?.serviceCode == 401)
                let coded = await remoteError { try await service.queryCount(layer: 1, QueryParameters()) }
                #expect(coded?.identifier == RuntimeError.Identifier.serviceError)
                #expect(coded?.serviceCode == 1003)
                #expect(coded?.message.contains("one string") == true)
            }
        }
    }

    @Test func sparseArcGISAnswersAreReadLeniently() async throws {
        try await withLookAlike { site, hits in
            try await withRemote(Self.service(site, "Sparse")) { service in
                let description = try await service.describe()
                #expect(description.layers.map(\.id) == [0, 5])
                #expect(description.layers[1].metadata["type"]?.string == "Table")
                #expect(hits.count("arcgis/rest/services/Sparse/FeatureServer/0") == 1)

                let set = try await service.queryFeatures(layer: 0, QueryParameters())
                #expect(set.objectIdFieldName == "FID")
                #expect(set.objectIds == [3, 4])
                #expect(set.features.allSatisfy { $0.geometry == nil })
                #expect(set.features[0].attributes["Flag"] == .int(1))
                #expect(try await service.queryObjectIds(layer: 0, QueryParameters()) == [])

                let results = try await service.applyEdits([LayerEdits(id: 0, deletes: [2])], options: EditOptions())
                #expect(results.first?.addResults.first?.objectId == 9)
                #expect(results.first?.updateResults == [])
                #expect(results.first?.deleteResults.first?.error?.code == 1011)

                let attachments = try await service.attachments(layer: 0, objectId: 1, gdbVersion: nil)
                #expect(attachments.first?.name == "a.jpg" && attachments.first?.globalId == "")

                let management = try await service.versionManagementInfo()
                #expect(management.name == "Sparse" && management.currentVersion == 11.1)
                let versions = try await service.versions()
                #expect(versions.first?.versionName == "sde.DEFAULT" && versions.first?.description == "")
                let missing = await remoteError { try await service.version(named: "{BD3F4817-9A00-41AC-B0CC-58F78DBAE0A2}") }
                #expect(missing?.identifier == RuntimeError.Identifier.versionNotFound)
            }
        }
    }

    /// The wall-clock bounds below leave room for a loaded machine (the whole `swift test` shares 2 cores with
    /// other builds: a 1 s deadline was seen to end after 8.4 s while every suite started at once); they catch a
    /// request that waits for ever, and what proves the behaviour is the error: the deadline's (`within 1 s`), the refusal's,
    /// the cancellation, and how many times a request was tried.
    @Test func noAnswerWithinTheTimeoutIsUnreachable() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let url = "http://127.0.0.1:\(listener.port)/arcgis/rest/services/Silent/FeatureServer"
        try await withRemote(url, timeout: .seconds(1)) { service in
            let read = await measured { try await service.describe() }
            #expect(read.seconds >= 0.9 && read.seconds < 45, "a read waited \(read.seconds) s")
            guard case .failure(let error as RuntimeError) = read.result else {
                Issue.record("expected a RuntimeError, got \(read.result)")
                return
            }
            #expect(error.identifier == RuntimeError.Identifier.unreachable)
            #expect(error.message.contains(url) && error.message.contains("within 1 s"), "\(error.message)")
            #expect(!error.message.contains("tried"), "a read that timed out is not repeated: \(error.message)")

            let write = await measured { try await service.applyEdits([LayerEdits(id: 0, deletes: [1])], options: EditOptions()) }
            #expect(write.seconds >= 0.9 && write.seconds < 45, "a write waited \(write.seconds) s")
            if case .failure(let error as RuntimeError) = write.result {
                #expect(error.identifier == RuntimeError.Identifier.unreachable)
                #expect(error.message.contains("within 1 s"), "\(error.message)")
            } else {
                Issue.record("expected a RuntimeError, got \(write.result)")
            }
        }
    }

    @Test func cancellingARequestEndsItAtOnce() async throws {
        // All of it off the concurrency pool: the 200 ms sleep too (CLI tests block the pool's two threads).
        try await offThePool { try await cancelling() }
    }

    private func cancelling() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        try await withRemote("http://127.0.0.1:\(listener.port)/arcgis/rest/services/Silent/FeatureServer", timeout: .seconds(60)) { service in
            let request = offThePoolTask { try await service.queryCount(layer: 0, QueryParameters()) }
            try await Task.sleep(for: .milliseconds(200))
            // The pool held while the cancellation travels: it must not need a pool thread (AsyncHTTPClient's
            // `async` API cancels through a pool task, and under a full test run that took the whole timeout).
            let outcome = try await withConcurrencyPoolHeld {
                await measured {
                    request.cancel()
                    return try await request.value
                }
            }
            #expect(outcome.seconds < 20, "cancelling took \(outcome.seconds) s (the timeout is 60 s)")
            guard case .failure(let error) = outcome.result else {
                Issue.record("expected a failure, got \(outcome.result)")
                return
            }
            #expect(error is CancellationError, "\(error)")
        }
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = try SilentListener.closedPort()
        let url = "http://127.0.0.1:\(port)/arcgis/rest/services/Gone/FeatureServer"
        try await withRemote(url, timeout: .seconds(60)) { service in
            let read = await measured { try await service.queryCount(layer: 0, QueryParameters()) }
            #expect(read.seconds < 30, "took \(read.seconds) s (the timeout is 60 s): \(read.result)")
            guard case .failure(let error as RuntimeError) = read.result else {
                Issue.record("expected a RuntimeError, got \(read.result)")
                return
            }
            #expect(error.identifier == RuntimeError.Identifier.unreachable)
            #expect(error.message.contains("127.0.0.1:\(port)") && error.message.contains("connection refused"), "\(error.message)")
            #expect(error.message.contains("tried 3 times"), "a read is tried 3 times: \(error.message)")

            let write = await remoteError { try await service.applyEdits([LayerEdits(id: 0, deletes: [1])], options: EditOptions()) }
            #expect(write?.identifier == RuntimeError.Identifier.unreachable)
            #expect(write?.message.contains("tried") == false, "a write is tried once: \(write?.message ?? "")")
        }
        try await withRemote(url, credential: Self.password, timeout: .seconds(60)) { service in
            let signIn = await remoteError { try await service.queryCount(layer: 0, QueryParameters()) }
            #expect(signIn?.identifier == RuntimeError.Identifier.unreachable)
            #expect(signIn?.message.contains("Sign-in as 'crew'") == true, "\(signIn?.message ?? "")")
        }
    }

    @Test func tlsAndNameFailuresAreUnreachable() async throws {
        // HTTPS to a server that speaks plain HTTP: the TLS handshake fails.
        try await withLookAlike { site, _ in
            let https = Self.service(site, "Sparse").replacingOccurrences(of: "http://", with: "https://")
            try await withRemote(https, timeout: .seconds(30)) { service in
                let error = await remoteError { try await service.describe() }
                #expect(error?.identifier == RuntimeError.Identifier.unreachable)
                #expect(error?.message.contains(https) == true && error?.message.contains("TLS") == true, "\(error?.message ?? "")")
            }
        }
        // A name that no resolver knows (`.invalid` is reserved for this).
        let unknown = "http://maprules-no-such-host.invalid/arcgis/rest/services/A/FeatureServer"
        try await withRemote(unknown, timeout: .seconds(10)) { service in
            let error = await remoteError { try await service.describe() }
            #expect(error?.identifier == RuntimeError.Identifier.unreachable)
            #expect(error?.message.contains(unknown) == true, "\(error?.message ?? "")")
        }
    }

    @Test func aServiceThatWasShutDownRefusesRequests() async throws {
        let service = try RemoteFeatureService(url: "http://127.0.0.1:9/arcgis/rest/services/A/FeatureServer")
        try await service.shutdown()
        try await service.shutdown()
        let error = await remoteError { try await service.describe() }
        #expect(error?.identifier == RuntimeError.Identifier.unreachable)
        #expect(error?.message.contains("shut down") == true)
    }
}
