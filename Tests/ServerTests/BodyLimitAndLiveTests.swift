import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import Server
@testable import Service

@Suite struct BodyLimitTests {
    @Test func declaredOversizedBodyIsRefused() async throws {
        try await Fixtures.app(bodyLimit: 1024).test(.router) { client in
            let body = ByteBuffer(string: "where=" + String(repeating: "x", count: 4000))
            let response = try await client.execute(uri: "/arcgis/rest/services/TreesOfPortland/FeatureServer/0/query", method: .post,
                                                    headers: [.contentType: "application/x-www-form-urlencoded", .contentLength: "\(body.readableBytes)"],
                                                    body: body)
            #expect(response.status == .contentTooLarge)
            #expect(try response.json.errorCode == 413)
        }
    }

    @Test func streamedOversizedBodyIsRefusedAndSmallOnesPass() async throws {
        try await Fixtures.app(bodyLimit: 1024).test(.live) { client in
            let big = ByteBuffer(string: "where=1%3D1&x=" + String(repeating: "y", count: 100_000))
            let refused = try await client.execute(uri: "/arcgis/rest/services/TreesOfPortland/FeatureServer/0/query", method: .post,
                                                   headers: [.contentType: "application/x-www-form-urlencoded"], body: big)
            #expect(refused.status == .contentTooLarge)
        }
        try await Fixtures.app(bodyLimit: 1024).test(.router) { client in
            let small = try await client.post("/arcgis/rest/services/TreesOfPortland/FeatureServer/0/query", [("where", "1=1"), ("returnCountOnly", "true")])
            #expect(small["count"]?.int == 24)
        }
    }
}

@Suite struct LiveServerTests {
    /// The whole server on a loopback port the system picks: sign in, query, edit, over real sockets.
    @Test func liveServerOnAnOSChosenPort() async throws {
        try await Fixtures.app().test(.live) { client in
            #expect((client.port ?? 0) > 0)
            let health = try await client.get("/health")
            #expect(health["status"]?.string == "ok")
            let token = try await client.token()
            let count = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/0/query", [("where", "1=1"), ("returnCountOnly", "true"), ("token", token)])
            #expect(count["count"]?.int == 24)
            let edit = try await client.post("/arcgis/rest/services/TreesOfPortland/FeatureServer/0/applyEdits",
                                             [("updates", #"[{"attributes":{"OBJECTID":2,"Notes":"live"}}]"#)],
                                             headers: [.authorization: "Bearer \(token)"])
            #expect(edit["updateResults"]?[0]?["success"]?.bool == true)
        }
    }

    /// `MapRulesServer.application` with `--tls`: HTTPS with the generated certificate.
    @Test func tlsApplicationServesHTTPS() async throws {
        let core = try await Fixtures.core()
        let app = try MapRulesServer.application(core: core, options: .init(host: "127.0.0.1", port: 0, tls: true, portalFolders: Fixtures.folders),
                                                 logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await app.test(.ahc(.https)) { client in
            let info = try await client.get("/arcgis/rest/info")
            #expect(info["authInfo"]?["tokenServicesUrl"]?.string?.hasPrefix("https://") == true)
            let token = try await client.post("/arcgis/sharing/rest/generateToken", [("username", "editor01"), ("password", "sample-editor01")])
            #expect(token["ssl"]?.bool == true)
        }
    }

    @Test func selfSignedCertificateNamesLoopback() throws {
        let certificate = try SelfSignedCertificate.make(host: "127.0.0.1")
        #expect(certificate.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(certificate.privateKeyPEM.contains("PRIVATE KEY"))
        #expect(certificate.fingerprint.split(separator: ":").count == 32)
    }
}

@Suite struct ArgumentDecodingTests {
    @Test func formDecoding() {
        let arguments = RequestArguments.formURLEncoded("Where=a+b%3D1&outFields=%2A&empty=&bad=%zz&%C3%A9=%C3%A9")
        #expect(arguments.string("WHERE") == "a b=1")
        #expect(arguments.string("outfields") == "*")
        #expect(arguments.string("empty") == nil)
        #expect(arguments.string("bad") == "%zz")
        #expect(arguments.string("é") == "é")
        // Raw (not percent-encoded) UTF-8 in a body is split on the same bytes.
        let raw = RequestArguments.formURLEncoded("title=Café 😀&where=name='Zoë'&x\r\n=1")
        #expect(raw.string("title") == "Café 😀")
        #expect(raw.string("where") == "name='Zoë'")
        #expect(raw.string("x\r\n") == "1")
    }

    @Test func contentDispositionAttributes() {
        let attributes = RequestArguments.headerAttributes(#"form-data; name="attachment"; filename="a \"b\".jpg""#)
        #expect(attributes["name"] == "attachment")
        #expect(attributes["filename"] == #"a "b".jpg"#)
        #expect(RequestArguments.boundary(ofContentType: "multipart/form-data; boundary=----abc") == "----abc")
    }

    @Test func portalSearchSyntax() {
        let search = PortalSearch(#"trees AND (type:"web map" NOT type:"web mapping application") accountid:ABC"#)
        #expect(search.matches(id: "1", title: "TreesOfPortland", type: "Web Map", owner: "admin", tags: [], orgId: "abc"))
        #expect(!search.matches(id: "1", title: "Damage", type: "Web Map", owner: "admin", tags: [], orgId: "abc"))
        #expect(!PortalSearch("type:\"Feature Service\"").matches(id: "1", title: "x", type: "Web Map", owner: "a", tags: [], orgId: "o"))
        #expect(PortalSearch("id:abc").matches(id: "ABC", title: "x", type: "Web Map", owner: "a", tags: [], orgId: "o"))
    }
}

@Suite struct EncodingTests {
    @Test func byteWriterMatchesTheCoreText() throws {
        let samples: [JSON] = [
            .object([("a", .int(1)), ("b", .double(2.5)), ("c", .double(3)), ("d", .string("q\"uote\\ \n\t\u{1}é✓")),
                     ("e", .array([.null, .bool(true), .bool(false), .double(.infinity)])), ("f", .object([]))]),
            try JSON.parse(#"{"x":-13653000.123,"y":5705000,"s":"plain","n":[1e20,0.1]}"#),
        ]
        for value in samples {
            #expect(String(buffer: JSONBytes.buffer(value)) == value.text)
        }
    }

    @Test func featureSetWriterMatchesTheOrderedEncoder() async throws {
        let core = try await Fixtures.core()
        for (layer, parameters) in [(0, QueryParameters(where: "1=1")), (3, QueryParameters(where: "1=1", outSR: .wgs84)),
                                    (0, QueryParameters(where: "1=1", returnGeometry: false, resultRecordCount: 2)),
                                    (1, QueryParameters(outSR: .wgs84))] {
            let answer = try await core.query(service: "TreesOfPortland", layer: layer, parameters, as: .anonymous)
            let set = try #require(answer.featureSet)
            #expect(String(buffer: FeatureSetBytes.buffer(set)) == (try OrderedJSONEncoder().encodeText(set)))
        }
    }

    /// The query fast path (stored attribute text written as it is, `QueryParameters.encodedAttributes`)
    /// gives byte for byte the answer of the decoding path.
    @Test func storedAttributeTextFastPathMatchesTheDecodingPath() async throws {
        let core = try await Fixtures.core()
        let cases: [(String, Int, QueryParameters)] = [
            ("TreesOfPortland", 0, QueryParameters(where: "1=1")),
            ("TreesOfPortland", 0, QueryParameters(outFields: ["*"], resultOffset: 3, resultRecordCount: 5)),
            ("TreesOfPortland", 0, QueryParameters(outFields: ["Condition", "objectid"], returnGeometry: false)),
            ("TreesOfPortland", 3, QueryParameters(where: "1=1", outSR: .wgs84)),
            ("TreesOfPortland", 1, QueryParameters(outSR: .wgs84)),
            ("DamageAssessment", 0, QueryParameters()),
            ("DamageAssessment", 0, QueryParameters(outFields: ["*"], orderByFields: "OBJECTID DESC", resultRecordCount: 4)),
        ]
        var taken = 0
        for (service, layer, parameters) in cases {
            var fastParameters = parameters
            fastParameters.encodedAttributes = true
            let slow = try #require(try await core.query(service: service, layer: layer, parameters, as: .anonymous).featureSet)
            let fast = try #require(try await core.query(service: service, layer: layer, fastParameters, as: .anonymous).featureSet)
            #expect(slow.features.allSatisfy { $0.encodedAttributes == nil })
            taken += fast.features.filter { $0.encodedAttributes != nil }.count
            let expected = try OrderedJSONEncoder().encodeText(slow)
            #expect(String(buffer: FeatureSetBytes.buffer(fast)) == expected, "\(service) \(layer) \(parameters)")
            #expect(String(buffer: FeatureSetBytes.buffer(slow)) == expected)
        }
        #expect(taken > 24, "the fast path is taken for the samples' stored rows")
    }

    @Test func applyEditsAnswerMatchesTheOrderedEncoder() throws {
        let results = LayerEditResults(
            id: 0,
            addResults: [EditResult(objectId: 7, globalId: "{6F1C2B44-0F3A-4C38-9C5D-2D2E3C1A0B11}", success: true),
                         EditResult(objectId: nil, globalId: nil, success: false, error: .notNullable("NAME"))],
            updateResults: [EditResult(objectId: 3, globalId: nil, success: false, error: .rolledBack)],
            deleteResults: [], attachments: nil, editMoment: 1_732_000_000_123)
        for answer in [LayerApplyEditsAnswer(results), LayerApplyEditsAnswer(LayerEditResults(id: 1, addResults: [], updateResults: [],
                                                                                               deleteResults: [], attachments: nil, editMoment: nil))] {
            let document = try #require(answer.document)
            #expect(document.text == (try OrderedJSONEncoder().encodeText(answer)))
        }
    }
}
