import Foundation
@testable import Runtime
import Service
import Testing
import FeatureServiceModel
@testable import LocalFeatureService
import WebMap

/// The pieces of `RemoteFeatureService` that need no server: URLs, form encoding, request parameters.
@Suite struct RemoteEncodingTests {
    @Test func serviceURLsFromAnyFormOfTheFeatureServerURL() throws {
        for text in ["https://gis.example.com/arcgis/rest/services/Folder/Trees/FeatureServer",
                     "https://gis.example.com/arcgis/rest/services/Folder/Trees/FeatureServer/",
                     "https://gis.example.com/arcgis/rest/services/Folder/Trees/FeatureServer?f=json",
                     "https://gis.example.com/arcgis/rest/services/Folder/Trees/FeatureServer/3",
                     " https://gis.example.com/arcgis/rest/services/Folder/Trees/FeatureServer/3/?f=pjson "] {
            let urls = try #require(ServiceURLs(text), "\(text)")
            #expect(urls.featureServer == "https://gis.example.com/arcgis/rest/services/Folder/Trees/FeatureServer")
            #expect(urls.restRoot == "https://gis.example.com/arcgis/rest")
            #expect(urls.siteRoot == "https://gis.example.com/arcgis")
            #expect(urls.versionManagementServer == "https://gis.example.com/arcgis/rest/services/Folder/Trees/VersionManagementServer")
            #expect(urls.serviceName == "Folder/Trees")
            #expect(urls.origin == "https://gis.example.com")
        }
        let local = try #require(ServiceURLs("http://127.0.0.1:8080/arcgis/rest/services/Trees/FeatureServer"))
        #expect(local.origin == "http://127.0.0.1:8080")
        #expect(local.layer(2) == "http://127.0.0.1:8080/arcgis/rest/services/Trees/FeatureServer/2")
        #expect(local.conventionalTokenServices == ["http://127.0.0.1:8080/arcgis/rest/generateToken",
                                                    "http://127.0.0.1:8080/arcgis/tokens/generateToken",
                                                    "http://127.0.0.1:8080/arcgis/sharing/rest/generateToken"])
        #expect(ServiceURLs("http://host/arcgis/rest/services/A/MapServer") == nil)
        #expect(ServiceURLs("http://host/arcgis/rest/services/A/FeatureServer/0/query") == nil)
        #expect(ServiceURLs("file:///arcgis/rest/services/A/FeatureServer") == nil)
    }

    @Test func formEncodingEscapesEverythingButUnreservedCharacters() {
        #expect(FormParameters.escape("a+b & c=d; 100% é/{x}") == "a%2Bb%20%26%20c%3Dd%3B%20100%25%20%C3%A9%2F%7Bx%7D")
        var form = FormParameters([("f", "json"), ("where", "1=1")])
        form["where"] = "x > 1"
        form["gone"] = "y"
        form["gone"] = nil
        #expect(form.encoded == "f=json&where=x%20%3E%201")
    }

    @Test func queryParametersAreWrittenAsArcGISClientsWriteThem() {
        let box = Geometry.envelope(Envelope(xmin: 1, ymin: 2, xmax: 3, ymax: 4))
        let form = RequestEncoding.query(QueryParameters(objectIds: [3, 1], outFields: ["A", "B"], returnGeometry: false, geometry: box,
                                                         inSR: .wgs84, spatialRelation: .within, outSR: .webMercator, orderByFields: "A DESC",
                                                         resultOffset: 10, resultRecordCount: 5, gdbVersion: "crew.Fix1"))
        #expect(form["f"] == "json")
        #expect(form["where"] == nil)
        #expect(form["objectIds"] == "3,1")
        #expect(form["outFields"] == "A,B")
        #expect(form["returnGeometry"] == "false")
        let geometry = try? JSON.parse(form["geometry"] ?? "")
        #expect(geometry?["xmin"]?.double == 1 && geometry?["ymax"]?.double == 4)
        #expect(geometry?["spatialReference"]?["wkid"]?.int == 4326)
        #expect(form["geometryType"] == "esriGeometryEnvelope")
        #expect(form["inSR"] == "4326")
        #expect(form["spatialRel"] == "esriSpatialRelWithin")
        #expect(form["outSR"] == "102100")
        #expect(form["orderByFields"] == "A DESC")
        #expect(form["resultOffset"] == "10" && form["resultRecordCount"] == "5")
        #expect(form["gdbVersion"] == "crew.Fix1")
        #expect(form["returnCountOnly"] == nil && form["returnIdsOnly"] == nil)

        let everything = RequestEncoding.query(QueryParameters(returnCountOnly: true))
        #expect(everything["where"] == "1=1" && everything["outFields"] == "*" && everything["returnCountOnly"] == "true")
    }

    @Test func serviceLevelEditsAreOneJSONArray() throws {
        let add = EditFeature(attributes: Attributes([("Name", .string("x")), ("Count", .int(2))]), geometry: .point(Point(x: 1, y: 2)),
                              spatialReference: .wgs84)
        let (attachment, parent, deleted) = ("{5B3C9C7E-1D1A-4B7E-9F0A-000000000001}", "{5B3C9C7E-1D1A-4B7E-9F0A-000000000002}",
                                             "{5B3C9C7E-1D1A-4B7E-9F0A-000000000003}")
        let upload = AttachmentUpload(globalId: attachment, parentGlobalId: parent, name: "n.txt", contentType: "text/plain", data: Data("hi".utf8))
        let form = RequestEncoding.applyEdits([LayerEdits(id: 0, adds: [add], deletes: [5]),
                                               LayerEdits(id: 3, deleteGlobalIds: [deleted], attachments: AttachmentEdits(adds: [upload]))],
                                              options: EditOptions(rollbackOnFailure: false, useGlobalIds: true, gdbVersion: "crew.Fix1", sessionID: "{S}"))
        #expect(form["rollbackOnFailure"] == "false" && form["useGlobalIds"] == "true")
        #expect(form["gdbVersion"] == "crew.Fix1" && form["sessionID"] == "{S}")
        let edits = try JSON.parse(try #require(form["edits"]))
        #expect(edits[0]?["id"]?.int == 0)
        #expect(edits[0]?["adds"]?.array?.first?["attributes"]?["Count"]?.int == 2)
        #expect(edits[0]?["adds"]?.array?.first?["geometry"]?["spatialReference"]?["wkid"]?.int == 4326)
        #expect(edits[0]?["deletes"] == .array([.int(5)]))
        #expect(edits[0]?["updates"] == nil)
        #expect(edits[1]?["deletes"] == .array([.string(deleted)]))
        #expect(edits[1]?["attachments"]?["adds"]?.array?.first?["data"]?.string == "aGk=")
        // The server reads it back to the same edits.
        let parsed = try LayerEdits.parseServiceEdits(try #require(form["edits"]), useGlobalIds: true)
        #expect(parsed[0].adds == [add] && parsed[0].deletes == [5])
        #expect(parsed[1].deleteGlobalIds == [deleted] && parsed[1].attachments?.adds == [upload])
    }

    @Test func aTokenIsRenewedAMinuteBeforeItExpires() {
        let now = Date(timeIntervalSince1970: 1_000)
        #expect(!IssuedToken(token: "t", expires: 1_000_000 + 61_000).expiresSoon(now: now))
        #expect(IssuedToken(token: "t", expires: 1_000_000 + 59_000).expiresSoon(now: now))
        #expect(IssuedToken(token: "t", expires: 999_000).expiresSoon(now: now))
        #expect(!IssuedToken(token: "t", expires: nil).expiresSoon(now: now))
    }

    @Test func aServiceDroppedWithoutShutdownClosesItsClientItself() async throws {
        // AsyncHTTPClient stops a debug build when a client is freed before its shutdown; the service's deinit
        // shuts its own client down instead.
        for _ in 0..<3 { _ = try RemoteFeatureService(url: "http://127.0.0.1:9/arcgis/rest/services/A/FeatureServer") }
        try await Task.sleep(for: .milliseconds(100))
    }

    @Test func errorAnswersInEveryStyle() {
        func read(_ status: Int, _ body: String, _ type: String = "application/json") -> ArcGISAnswer.Reading {
            ArcGISAnswer.read(HTTPAnswer(status: status, contentType: type, body: Data(body.utf8)))
        }
        guard case .refusal(let plain) = read(200, #"{"error":{"code":400,"message":"Unable","details":["a","b"]}}"#) else {
            Issue.record("not a refusal"); return
        }
        #expect(plain.code == 400 && plain.details == ["a", "b"])
        guard case .refusal(let version) = read(200, #"{"success":false,"error":{"extendedCode":-2147217146,"message":"Version not found"}}"#) else {
            Issue.record("not a refusal"); return
        }
        #expect(version.code == 404 && version.extendedCode == -2147217146)
        #expect(RuntimeError.service(version, operation: "x").identifier == RuntimeError.Identifier.versionNotFound)
        guard case .refusal(let gateway) = read(504, "<html>Gateway Timeout</html>", "text/html") else { Issue.record("not a refusal"); return }
        #expect(gateway.code == 504)
        guard case .notJSON(let excerpt) = read(200, "<html>\n<body>hi</body>\n</html>", "text/html") else { Issue.record("not junk"); return }
        #expect(excerpt == "<html> <body>hi</body> </html>")
        guard case .document = read(200, #"[{"id":0}]"#) else { Issue.record("not a document"); return }
    }
}

fileprivate extension JSON {
    subscript(index: Int) -> JSON? {
        guard let items = array, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
