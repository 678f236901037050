import Foundation
import FeatureServiceModel
import WebMap

extension AttachmentInfo {
    init(_ row: AttachmentRowRecord) {
        self.init(id: row.attachmentId, globalId: row.globalId, parentGlobalId: row.parentGlobalId, name: row.name,
                  contentType: row.contentType, size: row.size, keywords: row.keywords)
    }
}

extension ServiceCore {
    private func attachmentLayer(_ serviceName: String, _ layerId: Int, _ caller: Caller) throws -> (ServiceModel, LayerModel, AccessPolicy) {
        let service = try self.service(serviceName)
        let layer = try service.layer(layerId)
        guard layer.metadata.hasAttachments else { throw ServiceError.notSupported("\(layer.title) does not have attachments.") }
        return (service, layer, AccessPolicy(core: self, service: service, caller: caller))
    }

    /// `<layer>/<oid>/attachments`.
    public func attachments(service name: String, layer layerId: Int, objectId: Int64, gdbVersion: String? = nil, as caller: Caller) async throws -> AttachmentInfoList {
        let (service, layer, policy) = try attachmentLayer(name, layerId, caller)
        try policy.requireQuery()
        return try await database.read { db in
            let view = VersionView(try Self.resolveVersion(db, service: service, name: gdbVersion, policy: policy))
            guard let parent = try RowStore.visibleRow(db, layerKey: layer.key, objectId: objectId, view: view), !parent.isDelete else {
                throw ServiceError.objectNotFound(Int(objectId), layer: layer.title)
            }
            return AttachmentInfoList(attachmentInfos: try AttachmentStore.visible(db, layerKey: layer.key, parentObjectId: objectId, view: view).map(AttachmentInfo.init))
        }
    }

    /// `<layer>/queryAttachments`: the attachments of the features matching `objectIds` and/or `where`.
    public func queryAttachments(service name: String, layer layerId: Int, objectIds: [Int64]? = nil, where clause: String? = nil,
                                 gdbVersion: String? = nil, as caller: Caller) async throws -> AttachmentGroups {
        let (service, layer, policy) = try attachmentLayer(name, layerId, caller)
        try policy.requireQuery()
        let plan = try QueryPlan(layer: layer, parameters: QueryParameters(where: clause, objectIds: objectIds, returnIdsOnly: true), policy: policy)
        return try await database.read { db in
            let view = VersionView(try Self.resolveVersion(db, service: service, name: gdbVersion, policy: policy))
            let ids = try plan.run(db, view: view).objectIds ?? []
            var groups: [AttachmentGroups.Group] = []
            for id in ids {
                let rows = try AttachmentStore.visible(db, layerKey: layer.key, parentObjectId: id, view: view)
                guard let first = rows.first else { continue }
                groups.append(.init(parentObjectId: id, parentGlobalId: first.parentGlobalId, attachmentInfos: rows.map(AttachmentInfo.init)))
            }
            return AttachmentGroups(attachmentGroups: groups)
        }
    }

    /// `<layer>/<oid>/attachments/<aid>`: the attachment's bytes.
    public func attachmentData(service name: String, layer layerId: Int, objectId: Int64, attachmentId: Int64, gdbVersion: String? = nil,
                               as caller: Caller) async throws -> AttachmentContent {
        let (service, layer, policy) = try attachmentLayer(name, layerId, caller)
        try policy.requireQuery()
        return try await database.read { db in
            let view = VersionView(try Self.resolveVersion(db, service: service, name: gdbVersion, policy: policy))
            guard let row = try AttachmentStore.visible(db, layerKey: layer.key, attachmentId: attachmentId, view: view), row.parentObjectId == objectId,
                  let bytes = try db.fetchValue("SELECT bytes FROM attachmentData WHERE id = \(row.dataId)", as: Data.self) else {
                throw ServiceError(code: 404, message: "Attachment not found.", details: ["\(layer.title) feature \(objectId) has no attachment \(attachmentId)."])
            }
            return AttachmentContent(name: row.name, contentType: row.contentType, data: bytes)
        }
    }

    /// `<layer>/<oid>/addAttachment`.
    public func addAttachment(service name: String, layer layerId: Int, objectId: Int64, name fileName: String, contentType: String, data: Data,
                              keywords: String? = nil, options: EditOptions = EditOptions(), as caller: Caller) async throws -> AttachmentEditResponse {
        let (service, layer, policy) = try attachmentLayer(name, layerId, caller)
        guard layer.capabilities.canUpdate || layer.capabilities.canAdd else {
            throw ServiceError.notSupported("\(layer.title) cannot be edited (capabilities: \(layer.metadata.capabilities.description)).")
        }
        let result = try await editTransaction(service: service, policy: policy, options: options, layers: [layer]) { writer in
            guard case .success(let parent) = try writer.target(objectId: objectId, globalId: nil, layer: layer) else {
                return EditResult(objectId: nil, globalId: nil, success: false, error: .attachmentAdd("\(layer.title) has no feature with object id \(objectId)."))
            }
            return try writer.addAttachment(AttachmentUpload(parentGlobalId: parent.globalId, name: fileName, contentType: contentType, data: data, keywords: keywords), layer: layer)
        }
        return AttachmentEditResponse(addAttachmentResult: result, updateAttachmentResult: nil)
    }

    /// `<layer>/<oid>/updateAttachment`.
    public func updateAttachment(service name: String, layer layerId: Int, objectId: Int64, attachmentId: Int64, name fileName: String, contentType: String,
                                 data: Data, options: EditOptions = EditOptions(), as caller: Caller) async throws -> AttachmentEditResponse {
        let (service, layer, policy) = try attachmentLayer(name, layerId, caller)
        let result = try await editTransaction(service: service, policy: policy, options: options, layers: [layer]) { writer in
            guard let current = try AttachmentStore.visible(writer.db, layerKey: layer.key, attachmentId: attachmentId, view: writer.view),
                  current.parentObjectId == objectId else {
                return EditResult(objectId: attachmentId, globalId: nil, success: false,
                                  error: EditError(code: 1009, description: "Updating an attachment failed: feature \(objectId) has no attachment \(attachmentId)."))
            }
            return try writer.updateAttachment(AttachmentUpload(globalId: current.globalId, name: fileName, contentType: contentType, data: data), layer: layer)
        }
        return AttachmentEditResponse(addAttachmentResult: nil, updateAttachmentResult: result)
    }

    /// `<layer>/<oid>/deleteAttachments`.
    public func deleteAttachments(service name: String, layer layerId: Int, objectId: Int64, attachmentIds: [Int64], options: EditOptions = EditOptions(),
                                  as caller: Caller) async throws -> DeleteAttachmentsResponse {
        let (service, layer, policy) = try attachmentLayer(name, layerId, caller)
        let results = try await editTransaction(service: service, policy: policy, options: options, layers: [layer]) { writer in
            try attachmentIds.map { id -> EditResult in
                guard let current = try AttachmentStore.visible(writer.db, layerKey: layer.key, attachmentId: id, view: writer.view),
                      current.parentObjectId == objectId else {
                    return EditResult(objectId: id, globalId: nil, success: false, error: .attachmentDelete("feature \(objectId) has no attachment \(id)."))
                }
                return try writer.deleteAttachment(globalId: current.globalId, layer: layer)
            }
        }
        return DeleteAttachmentsResponse(deleteAttachmentResults: results)
    }
}
