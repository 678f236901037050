import Foundation
import FeatureServiceModel
import WebMap

/// How two tables are joined by a relationship: this side's key field and the related side's.
struct RelationshipKeys: Sendable {
    let relationship: Relationship
    let table: TableInfo
    let localKey: String
    let related: TableInfo
    let relatedKey: String
}

extension ServiceGeodatabase {
    /// The key fields of `relationship` of `table`: its own `keyField`, and the related table's for the same
    /// relationship id (the origin's primary key and the destination's foreign key).
    func keys(of relationship: Relationship, table: TableInfo) async throws -> RelationshipKeys {
        let name = relationship.name ?? "relationship \(relationship.id.map(String.init) ?? "?")"
        guard let relatedId = relationship.relatedTableId, let related = try await loaded().popups.tables[relatedId] else {
            throw RuntimeError(RuntimeError.Identifier.relationshipNotFound, "\(table.title): the related table of '\(name)' is not part of the service.", layer: table.reference)
        }
        let mirror = related.metadata.relationships.first { $0.id == relationship.id && $0.relatedTableId == table.id }
        guard let localKey = relationship.keyField ?? mirror?.keyField, let relatedKey = mirror?.keyField ?? relationship.keyField else {
            throw RuntimeError(RuntimeError.Identifier.relationshipNotFound, "\(table.title): relationship '\(name)' names no key fields.", layer: table.reference)
        }
        return RelationshipKeys(relationship: relationship, table: table, localKey: table.field(localKey)?.name ?? localKey,
                                related: related, relatedKey: related.field(relatedKey)?.name ?? relatedKey)
    }

    /// The records related to `feature`, local edits overlaid.
    func relatedFeatures(of feature: TableFeature, table: TableInfo, relationship: Relationship) async throws -> [TableFeature] {
        let keys = try await keys(of: relationship, table: table)
        guard let value = feature[keys.localKey], !value.isNull else { return [] }
        return try await queryFeatures(FeatureQuery(where: "\(keys.relatedKey) = \(Self.literal(value))"), tableID: keys.related.id)
    }

    /// A where-clause literal for a value (text quoted, quotes doubled).
    static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .null: return "NULL"
        }
    }

    // MARK: Attachments

    func attachments(of feature: TableFeature, table: TableInfo) async throws -> [AttachmentInfo] {
        guard table.metadata.hasAttachments else { return [] }
        guard let objectId = feature.objectId.map({ resolvedObjectId($0, tableID: table.id) }) else { return [] }
        let local = edits[table.id] ?? TableEdits()
        var list: [AttachmentInfo] = []
        if objectId > 0 {
            let version = try await gdbVersion
            list = try await call("Listing attachments of feature \(objectId)", table) {
                try await self.service.attachments(layer: table.id, objectId: objectId, gdbVersion: version)
            }
            let deleted = Set(local.attachmentDeletes.filter { $0.parentObjectId == objectId }.map(\.attachmentId))
            list.removeAll { deleted.contains($0.id) }
        }
        let parentGlobal = table.globalIdField.flatMap { feature[$0]?.string } ?? ""
        for staged in local.attachmentAdds where staged.parentObjectId == objectId {
            list.append(AttachmentInfo(id: staged.temporaryId, globalId: staged.globalId, parentGlobalId: parentGlobal, name: staged.name,
                                       contentType: staged.contentType, size: Int64(staged.data.count), keywords: nil))
        }
        return list
    }

    func attachmentData(of feature: TableFeature, attachmentId given: Int64, table: TableInfo) async throws -> Data {
        guard let objectId = feature.objectId.map({ resolvedObjectId($0, tableID: table.id) }) else {
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(table.title): the feature was never added.", layer: table.reference)
        }
        if let staged = edits[table.id]?.attachmentAdds.first(where: { $0.temporaryId == given && $0.parentObjectId == objectId }) { return staged.data }
        let attachmentId = given < 0 ? appliedTemporaryAttachmentIds[FeatureKey(tableID: table.id, objectId: given)] ?? given : given
        let version = try await gdbVersion
        return try await call("Fetching attachment \(attachmentId) of feature \(objectId)", table) {
            try await self.service.attachmentData(layer: table.id, objectId: objectId, attachmentId: attachmentId, gdbVersion: version)
        }
    }

    func addAttachment(to feature: TableFeature, name: String, contentType: String, data: Data, table: TableInfo) async throws -> Int64 {
        let operation = "Adding attachment '\(name)'"
        let current = try await requireAttachmentEdit(feature, table: table, operation: operation)
        guard let objectId = current.objectId else { throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation): the feature was never added.") }
        let id = nextTemporaryId
        nextTemporaryId -= 1
        let parentGlobal = table.globalIdField.flatMap { current[$0]?.string }
        edits[table.id, default: TableEdits()].attachmentAdds.append(
            StagedAttachment(temporaryId: id, parentObjectId: objectId, parentGlobalIdHint: parentGlobal, globalId: GUIDText.make(), name: name, contentType: contentType, data: data))
        return id
    }

    func deleteAttachment(of feature: TableFeature, attachmentId given: Int64, table: TableInfo) async throws {
        let operation = "Deleting attachment \(given)"
        let current = try await requireAttachmentEdit(feature, table: table, operation: operation)
        guard let objectId = current.objectId else { return }
        // A temporary id of an attachment add that was applied stays usable: it names the service's attachment.
        let attachmentId = given < 0 ? appliedTemporaryAttachmentIds[FeatureKey(tableID: table.id, objectId: given)] ?? given : given
        if attachmentId < 0 {
            let before = edits[table.id]?.attachmentAdds.count ?? 0
            edits[table.id]?.attachmentAdds.removeAll { $0.temporaryId == attachmentId }
            if (edits[table.id]?.attachmentAdds.count ?? 0) == before {
                throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation) of feature \(objectId): there is no local attachment \(attachmentId).", layer: table.reference, objectId: objectId)
            }
            return
        }
        let list = try await attachments(of: current, table: table)
        guard let info = list.first(where: { $0.id == attachmentId }) else {
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation) of feature \(objectId) of \(table.title): it has no attachment \(attachmentId).",
                               layer: table.reference, objectId: objectId)
        }
        edits[table.id, default: TableEdits()].attachmentDeletes.append(StagedAttachmentDelete(parentObjectId: objectId, attachmentId: attachmentId, globalId: info.globalId))
    }

    /// Attachment edits need attachments, the update capability and an editable version.
    private func requireAttachmentEdit(_ feature: TableFeature, table: TableInfo, operation: String) async throws -> TableFeature {
        try await requireEditableVersion(operation, table: table)
        guard table.metadata.hasAttachments else {
            // Refused here, nothing sent: not a service's answer (runtime/service-error), the table lacking what the edit needs.
            throw RuntimeError(RuntimeError.Identifier.cannotUpdate, "\(operation) to \(table.title): the \(table.kindWord) has no attachments (hasAttachments is false).",
                               layer: table.reference)
        }
        guard let objectId = feature.objectId else {
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation) to \(table.title): the feature was never added.", layer: table.reference)
        }
        let current = try await existingFeature(objectId, table: table, operation: operation)
        if (current.objectId ?? 0) > 0 { try requireCapability(.update, table: table, operation: operation) }
        return current
    }
}
