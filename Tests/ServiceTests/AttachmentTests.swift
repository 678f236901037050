import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

@Suite struct AttachmentTests {
    @Test func addFetchQueryDelete() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let bytes = Data((0..<1000).map { UInt8($0 % 256) })
        let added = try await core.addAttachment(service: "TreesOfPortland", layer: 0, objectId: 2, name: "bark.png", contentType: "image/png", data: bytes, as: who.editor01)
        let result = try #require(added.addAttachmentResult)
        #expect(result.success)
        let id = try #require(result.objectId)
        let content = try await core.attachmentData(service: "TreesOfPortland", layer: 0, objectId: 2, attachmentId: id, as: .anonymous)
        #expect(content.data == bytes && content.contentType == "image/png" && content.name == "bark.png")
        let list = try await core.attachments(service: "TreesOfPortland", layer: 0, objectId: 2, as: .anonymous)
        #expect(list.attachmentInfos.map(\.size) == [1000])
        let groups = try await core.queryAttachments(service: "TreesOfPortland", layer: 0, where: "OBJECTID < 5", as: .anonymous)
        #expect(groups.attachmentGroups.map(\.parentObjectId) == [2])

        let updated = try await core.updateAttachment(service: "TreesOfPortland", layer: 0, objectId: 2, attachmentId: id, name: "bark2.png",
                                                      contentType: "image/png", data: Data([9]), as: who.editor01)
        #expect(updated.updateAttachmentResult?.success == true)
        #expect(try await core.attachmentData(service: "TreesOfPortland", layer: 0, objectId: 2, attachmentId: id, as: .anonymous).data == Data([9]))

        let wrongParent = try await core.deleteAttachments(service: "TreesOfPortland", layer: 0, objectId: 3, attachmentIds: [id], as: who.editor01)
        #expect(wrongParent.deleteAttachmentResults.first?.error?.code == 1010)
        let deleted = try await core.deleteAttachments(service: "TreesOfPortland", layer: 0, objectId: 2, attachmentIds: [id], as: who.editor01)
        #expect(deleted.deleteAttachmentResults.first?.success == true)
        await expectServiceError(404) { _ = try await core.attachmentData(service: "TreesOfPortland", layer: 0, objectId: 2, attachmentId: id, as: .anonymous) }
        // Layers without attachments, missing features, anonymous writers.
        await expectServiceError(400) { _ = try await core.attachments(service: "TreesOfPortland", layer: 1, objectId: 1, as: .anonymous) }
        await expectServiceError(404) { _ = try await core.attachments(service: "TreesOfPortland", layer: 0, objectId: 9999, as: .anonymous) }
        let missing = try await core.addAttachment(service: "TreesOfPortland", layer: 0, objectId: 9999, name: "x", contentType: "text/plain", data: Data(), as: who.editor01)
        #expect(missing.addAttachmentResult?.error?.code == 1008)
        await expectServiceError(499) {
            _ = try await core.addAttachment(service: "TreesOfPortland", layer: 0, objectId: 2, name: "x", contentType: "text/plain", data: Data(), as: .anonymous)
        }
    }

    @Test func attachmentsAreVersioned() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let version = try await core.createVersion(service: "DamageAssessment", versionName: "Photos", as: who.editor01).versionInfo.versionName
        let added = try await core.addAttachment(service: "DamageAssessment", layer: 0, objectId: 1, name: "roof.jpg", contentType: "image/jpeg",
                                                 data: Data([1, 2]), options: EditOptions(gdbVersion: version), as: who.editor01)
        #expect(added.addAttachmentResult?.success == true)
        #expect(try await core.attachments(service: "DamageAssessment", layer: 0, objectId: 1, gdbVersion: version, as: who.editor01).attachmentInfos.count == 1)
        #expect(try await core.attachments(service: "DamageAssessment", layer: 0, objectId: 1, as: who.editor01).attachmentInfos.isEmpty)
        _ = try await core.post(service: "DamageAssessment", version: version, as: who.editor01)
        let posted = try await core.attachments(service: "DamageAssessment", layer: 0, objectId: 1, as: who.editor01).attachmentInfos
        #expect(posted.map(\.name) == ["roof.jpg"])
        let data = try await core.attachmentData(service: "DamageAssessment", layer: 0, objectId: 1, attachmentId: posted[0].id, as: .anonymous)
        #expect(data.data == Data([1, 2]))
    }
}
