import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import Server
@testable import Service
@testable import FeatureServiceModel
import WebMap

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

    /// A later value of a name replaces an earlier one in any case, a body's values replace the query string's, and
    /// names are matched without regard to case, ASCII or not (`RequestArguments` keeps them in a list).
    @Test func laterValuesWinInAnyCase() {
        var arguments = RequestArguments.formURLEncoded("resultOffset=1&RESULTOFFSET=2&f=json&%C3%89T%C3%89=a&k=x")
        #expect(arguments.string("resultoffset") == "2")
        #expect(arguments.string("ResultOffset") == "2")
        #expect(arguments.string("resultOffse") == nil)
        #expect(arguments.string("été") == "a")
        #expect(arguments.string("ÉTÉ") == "a")
        #expect(arguments.string("\u{212A}") == "x", "the Kelvin sign lower-cases to k")
        arguments.merge(RequestArguments.formURLEncoded("F=geojson&resultOffset=&other=1"))
        #expect(arguments.string("f") == "geojson")
        #expect(arguments.string("resultOffset") == nil, "an empty later value counts as absent, as before")
        #expect(arguments.names == ["f", "k", "other", "resultoffset", "été"])
        var many = RequestArguments()
        for index in 0..<20_000 { many.set("p\(index)", "\(index)") }
        many.set("P7", "last")
        #expect(many.string("p7") == "last")
        #expect(many.string("p19999") == "19999")
        #expect(many.string("absent") == nil)
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
            #expect(String(decoding: FeatureSetText.bytes(set), as: UTF8.self) == (try OrderedJSONEncoder().encodeText(set)))
        }
    }

    /// `queryText` (the `f=json` answer written while the rows are read, stored attribute text copied as it is)
    /// gives byte for byte what encoding `query`'s answer gives.
    @Test func queryTextMatchesTheEncodedQueryAnswer() async throws {
        let core = try await Fixtures.core()
        let cases: [(String, Int, QueryParameters)] = [
            ("TreesOfPortland", 0, QueryParameters(where: "1=1")),
            ("TreesOfPortland", 0, QueryParameters(outFields: ["*"], resultOffset: 3, resultRecordCount: 5)),
            ("TreesOfPortland", 0, QueryParameters(outFields: ["Condition", "objectid"], returnGeometry: false)),
            ("TreesOfPortland", 3, QueryParameters(where: "1=1", outSR: .wgs84)),
            ("TreesOfPortland", 1, QueryParameters(outSR: .wgs84)),
            ("DamageAssessment", 0, QueryParameters()),
            ("DamageAssessment", 0, QueryParameters(outFields: ["*"], orderByFields: "OBJECTID DESC", resultRecordCount: 4)),
            ("TreesOfPortland", 0, QueryParameters(objectIds: [2, 4, 999], outSR: .webMercator)),
            ("TreesOfPortland", 0, QueryParameters(returnCountOnly: true)),
            ("TreesOfPortland", 0, QueryParameters(returnIdsOnly: true)),
            ("TreesOfPortland", 0, QueryParameters(returnExtentOnly: true)),
            ("TreesOfPortland", 0, QueryParameters(outStatistics: [StatisticDefinition(statisticType: .count, onStatisticField: "*")])),
        ]
        for (service, layer, parameters) in cases {
            let expected = try OrderedJSONEncoder().encodeText(try await core.query(service: service, layer: layer, parameters, as: .anonymous))
            let text = try await core.queryText(service: service, layer: layer, parameters, as: .anonymous)
            #expect(String(decoding: text, as: UTF8.self) == expected, "\(service) \(layer) \(parameters)")
        }
        // The stored rows of the samples are ones the writer copies as they are (else the test above would only
        // cover the decoding path).
        var copied = 0
        var scratch = StoredAttributesWriter.Scratch()
        for service in ["TreesOfPortland", "DamageAssessment"] {
            let model = try core.service(service)
            for layer in model.layers {
                let plan = try QueryPlan(layer: layer, parameters: QueryParameters(), policy: AccessPolicy(core: core, service: model, caller: .anonymous))
                let writer = try #require(StoredAttributesWriter(outFields: plan.outFields))
                let texts = try await core.database.read { db in try db.fetchValues("SELECT attributes FROM featureRow WHERE layerKey = \(layer.key)", as: String.self) }
                for var text in texts {
                    var out: [UInt8] = []
                    if text.withUTF8({ writer.encode(bytes: $0, into: &out, scratch: &scratch) }) { copied += 1 }
                }
            }
        }
        #expect(copied > 24, "the stored-text path is taken for the samples' stored rows")
    }

    /// Stored text that is not what the service writes (malformed UTF-8, a NUL, a point whose text is not its
    /// envelope's) is read by `queryText` as `query` reads it.
    @Test func queryTextReadsOddStoredTextAsQueryDoes() async throws {
        let core = try await Fixtures.core()
        let layer = try core.service("TreesOfPortland").layer(0)
        try await core.database.write { db in
            let ids = try db.fetchValues("SELECT id FROM featureRow WHERE layerKey = \(layer.key) ORDER BY objectId LIMIT 4", as: Int64.self)
            try #require(ids.count == 4)
            // Malformed UTF-8 in a string value; a NUL in one; a point text with a space; a point off its envelope.
            try db.execute("UPDATE featureRow SET attributes = replace(attributes, '\"Address\":\"', '\"Address\":\"' || CAST(X'C3' AS TEXT)) WHERE id = \(ids[0])")
            try db.execute("UPDATE featureRow SET attributes = replace(attributes, '\"Address\":\"', '\"Address\":\"a' || char(0) || 'b') WHERE id = \(ids[1])")
            try db.execute("UPDATE featureRow SET geometry = replace(geometry, ',', ', ') WHERE id = \(ids[2])")
            try db.execute("UPDATE featureRow SET minX = minX + 1, maxX = maxX + 1 WHERE id = \(ids[3])")
        }
        // The same answer, or the same error (the NUL cuts the stored text short: both refuse it).
        func answers(_ parameters: QueryParameters) async -> (query: String, queryText: String) {
            var query: String, queryText: String
            do { query = try OrderedJSONEncoder().encodeText(try await core.query(service: "TreesOfPortland", layer: 0, parameters, as: .anonymous)) }
            catch { query = "error: \(error)" }
            do { queryText = String(decoding: try await core.queryText(service: "TreesOfPortland", layer: 0, parameters, as: .anonymous), as: UTF8.self) }
            catch { queryText = "error: \(error)" }
            return (query, queryText)
        }
        for parameters in [QueryParameters(resultRecordCount: 6), QueryParameters(outFields: ["Address", "objectid"], resultRecordCount: 6),
                           QueryParameters(resultOffset: 2, resultRecordCount: 4), QueryParameters(objectIds: [1, 3, 4], outSR: .wgs84)] {
            let (query, queryText) = await answers(parameters)
            #expect(queryText == query, "\(parameters)")
        }
        // Without the NUL row (object 2) the answers are feature sets, the malformed UTF-8 repaired by both.
        #expect(await answers(QueryParameters(resultOffset: 2, resultRecordCount: 4)).query.hasPrefix("{\"objectIdFieldName\""))
        #expect(await answers(QueryParameters(objectIds: [1, 3, 4], outSR: .wgs84)).query.contains("\u{FFFD}"))
    }

    /// The cached head of an answer (the field descriptions and the layer's constant members) follows the
    /// request's output fields and spatial reference and is each layer's own: asked in turns, every answer is
    /// still what encoding `query`'s answer gives.
    @Test func cachedAnswerHeadsFollowOutFieldsAndLayer() async throws {
        let core = try await Fixtures.core()
        let forms: [QueryParameters] = [
            QueryParameters(resultRecordCount: 2),
            QueryParameters(outFields: ["objectid"], resultRecordCount: 2),
            QueryParameters(outSR: .wgs84, resultRecordCount: 2),
            QueryParameters(outFields: ["*"], resultRecordCount: 2),
        ]
        var heads: Set<String> = []
        for round in 0..<2 {
            for service in ["TreesOfPortland", "DamageAssessment"] {
                for layer in try core.service(service).layers {
                    for parameters in forms {
                        let expected = try OrderedJSONEncoder().encodeText(try await core.query(service: service, layer: layer.id, parameters, as: .anonymous))
                        let text = String(decoding: try await core.queryText(service: service, layer: layer.id, parameters, as: .anonymous), as: UTF8.self)
                        #expect(text == expected, "round \(round): \(service) \(layer.id) \(parameters)")
                        if let fields = text.range(of: ",\"features\":[") { heads.insert(String(text[..<fields.lowerBound])) }
                    }
                }
            }
        }
        #expect(heads.count >= 8, "the heads differ by layer and by output fields")
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
