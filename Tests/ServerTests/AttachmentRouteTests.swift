import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

@Suite struct AttachmentRouteTests {
    static let layer = "/arcgis/rest/services/TreesOfPortland/FeatureServer/0"

    @Test func addListFetchQueryAndDeleteAnAttachment() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let bytes = Data((0..<300).map { UInt8($0 % 251) })
            let (headers, body) = Form.multipart([("f", "json"), ("token", token)], file: ("attachment", "bark.jpg", "image/jpeg", bytes))
            let added = try await client.execute(uri: "\(Self.layer)/1/addAttachment", method: .post, headers: headers, body: body).json
            let result = added["addAttachmentResult"]
            #expect(result?["success"]?.bool == true, "\(added)")
            let attachmentId = result?["objectId"]?.int ?? -1

            let list = try await client.get("\(Self.layer)/1/attachments", [("f", "json")])
            let info = list["attachmentInfos"]?.array?.first { $0["id"]?.int == attachmentId }
            #expect(info?["name"]?.string == "bark.jpg")
            #expect(info?["contentType"]?.string == "image/jpeg")
            #expect(info?["size"]?.int == 300)

            let fetched = try await client.execute(uri: "\(Self.layer)/1/attachments/\(attachmentId)", method: .get)
            #expect(fetched.headers[.contentType] == "image/jpeg")
            #expect(Data(fetched.body.readableBytesView) == bytes)

            let groups = try await client.get("\(Self.layer)/queryAttachments", [("objectIds", "1,2")])
            #expect(groups["attachmentGroups"]?.array?.contains { $0["parentObjectId"]?.int == 1 } == true)

            let deleted = try await client.post("\(Self.layer)/1/deleteAttachments", [("attachmentIds", "\(attachmentId)"), ("token", token)])
            #expect(deleted["deleteAttachmentResults"]?[0]?["success"]?.bool == true)
            let gone = try await client.execute(uri: "\(Self.layer)/1/attachments/\(attachmentId)", method: .get)
            #expect(try gone.json.errorCode == 404)
        }
    }

    @Test func uploadRefusals() async throws {
        try await Fixtures.app().test(.router) { client in
            let (headers, body) = Form.multipart([("f", "json")], file: ("attachment", "a.txt", "text/plain", Data("x".utf8)))
            let anonymous = try await client.execute(uri: "\(Self.layer)/1/addAttachment", method: .post, headers: headers, body: body).json
            #expect(anonymous.errorCode == 499)
            let token = try await client.token()
            let noFile = try await client.post("\(Self.layer)/1/addAttachment", [("token", token)])
            #expect(noFile.errorCode == 400)
            let noAttachments = try await client.get("/arcgis/rest/services/TreesOfPortland/FeatureServer/1/1/attachments")
            #expect(noAttachments.errorCode == 400)
            let badBoundary = try await client.execute(uri: "\(Self.layer)/query", method: .post,
                                                       headers: [.contentType: "multipart/form-data"], body: ByteBuffer(string: "x"))
            #expect(try badBoundary.json.errorCode == 400)
        }
    }
}
