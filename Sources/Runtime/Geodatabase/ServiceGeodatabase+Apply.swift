import Foundation
import FeatureServiceModel
import WebMap

/// The outcome of one local edit after `applyEdits`.
public struct FeatureEditResult: Sendable, Equatable {
    /// The id the feature had locally (negative for adds).
    public var localObjectId: Int64?
    /// The service's object id (replacing a temporary id).
    public var objectId: Int64?
    public var globalId: String?
    public var success: Bool
    /// The service's edit error code (1000-1023) and description.
    public var errorCode: Int?
    public var errorDescription: String?
}

/// The results of one table's edits after `applyEdits`.
public struct TableEditResults: Sendable, Equatable {
    public var tableID: Int
    public var tableName: String
    public var adds: [FeatureEditResult]
    public var updates: [FeatureEditResult]
    public var deletes: [FeatureEditResult]
    public var attachmentAdds: [FeatureEditResult]
    public var attachmentDeletes: [FeatureEditResult]

    public var succeeded: Bool { (adds + updates + deletes + attachmentAdds + attachmentDeletes).allSatisfy(\.success) }
}

extension ServiceGeodatabase {
    /// Sends the local edits of all connected tables as one service-level applyEdits with rollback: either all
    /// land or none does. On success the local edits are cleared and the answer maps every temporary id to the
    /// service's; on failure (a refused feature, a service or network error) nothing is cleared and the error
    /// says which edit failed and why, so that the crew can fix it and apply again.
    @discardableResult
    public func applyEdits() async throws -> [TableEditResults] {
        let loaded = try await loaded()
        if let sent = unansweredApply { try await settle(sent, loaded: loaded) }
        let pending = edits.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        guard !pending.isEmpty else { return [] }
        let tables = try pending.map { entry -> TableInfo in
            guard let table = loaded.popups.tables[entry.key] else { throw RuntimeError(RuntimeError.Identifier.serviceError, "No table \(entry.key).") }
            return table
        }
        let hasAttachments = pending.contains { !$0.value.attachmentAdds.isEmpty || !$0.value.attachmentDeletes.isEmpty }
        let useGlobalIds = tables.allSatisfy { $0.globalIdField != nil } && (loaded.description.supportsGlobalIds || hasAttachments)
        if hasAttachments && !useGlobalIds {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "Applying edits: attachment edits need global ids, which this service or table does not support.")
        }
        var request: [LayerEdits] = []
        for (table, entry) in zip(tables, pending) {
            request.append(Self.layerEdits(entry.value, table: table, useGlobalIds: useGlobalIds))
        }
        let options = EditOptions(rollbackOnFailure: true, useGlobalIds: useGlobalIds, gdbVersion: try await gdbVersion)
        let answer: [LayerEditResults]
        do { answer = try await service.applyEdits(request, options: options) } catch {
            let failure = RuntimeError.wrapping(error, operation: "Applying \(localEditCount) local edits (kept; nothing was applied)")
            if failure.identifier == RuntimeError.Identifier.unreachable && useGlobalIds {
                // The request may have landed with its answer lost: the next apply finds out first.
                unansweredApply = Dictionary(uniqueKeysWithValues: pending.map { ($0.key, $0.value) })
                throw RuntimeError(RuntimeError.Identifier.unreachable,
                                   "Applying \(localEditCount) local edits: no answer from the service (\(failure.message)). The edits are kept; the next applyEdits asks the service whether they landed before sending them again.",
                                   serviceCode: failure.serviceCode)
            }
            throw failure
        }
        var results: [TableEditResults] = []
        for (table, entry) in zip(tables, pending) {
            guard let layerAnswer = answer.first(where: { $0.id == table.id }) else {
                throw RuntimeError(RuntimeError.Identifier.serviceError, "Applying edits: the service answered no results for \(table.title); the local edits are kept.")
            }
            results.append(Self.results(entry.value, layerAnswer, table: table))
        }
        if let failure = Self.firstRefusal(results) {
            let table = tables.first { $0.id == failure.table }
            let which = failure.result.localObjectId.map(String.init) ?? "?"
            let title = table?.title ?? "table \(failure.table)"
            let why = failure.result.errorDescription ?? "no reason given"
            throw RuntimeError(RuntimeError.Identifier.serviceError,
                               "Applying edits: the service refused feature \(which) of \(title): \(why) (code \(failure.result.errorCode ?? 0)). Nothing was applied; the local edits are kept.",
                               serviceCode: failure.result.errorCode, layer: table?.reference, objectId: failure.result.localObjectId)
        }
        guard results.allSatisfy(\.succeeded) else {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "Applying edits: the service rolled everything back (code 1003); the local edits are kept.", serviceCode: 1003)
        }
        for table in tables { edits[table.id] = nil }
        for result in results {
            for add in result.adds { if let local = add.localObjectId, let real = add.objectId { appliedTemporaryIds[FeatureKey(tableID: result.tableID, objectId: local)] = real } }
            for add in result.attachmentAdds {
                if let local = add.localObjectId, let real = add.objectId { appliedTemporaryAttachmentIds[FeatureKey(tableID: result.tableID, objectId: local)] = real }
            }
        }
        return results
    }

    /// After an apply whose answer never came: the service is asked whether it landed (one of its adds' global
    /// ids exists, else one of its deleted features is gone: the apply was all or nothing). If so, its edits are
    /// dropped from the local edits (a feature edited again since keeps the newer edit) and its temporary ids
    /// resolve to the service's; if not, everything is sent again. Only updates: sending them again is harmless.
    private func settle(_ sent: [Int: TableEdits], loaded: Loaded) async throws {
        var landed: Bool?
        search: for (tableID, tableEdits) in sent.sorted(by: { $0.key < $1.key }) {
            guard let table = loaded.popups.tables[tableID] else { continue }
            if let field = table.globalIdField {
                let ids = tableEdits.orderedAdds.compactMap { $0.attributes[field]?.string }
                if !ids.isEmpty {
                    let found = try await globalIdsOnService(ids, field: field, table: table)
                    landed = !found.isEmpty
                    if landed == true {
                        for add in tableEdits.orderedAdds {
                            if let local = add.objectId, let id = add.attributes[field]?.string, let real = found[id] {
                                appliedTemporaryIds[FeatureKey(tableID: tableID, objectId: local)] = real
                            }
                        }
                    }
                    break search
                }
            }
            if let deleted = tableEdits.orderedDeletes.first?.objectId {
                let parameters = QueryParameters(objectIds: [deleted], returnGeometry: false, gdbVersion: try await gdbVersion)
                landed = try await call("Checking whether the last apply landed", table) { try await self.service.queryCount(layer: tableID, parameters) } == 0
                break search
            }
        }
        unansweredApply = nil
        guard landed == true else { return }
        for (tableID, tableEdits) in sent {
            edits[tableID]?.forget(tableEdits)
            if edits[tableID]?.isEmpty == true { edits[tableID] = nil }
        }
    }

    /// Which of `ids` (global ids) the table has on the service, with their object ids.
    private func globalIdsOnService(_ ids: [String], field: String, table: TableInfo) async throws -> [String: Int64] {
        let list = ids.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }.joined(separator: ",")
        let parameters = QueryParameters(where: "\(field) IN (\(list))", outFields: [table.objectIdField, field], returnGeometry: false,
                                         gdbVersion: try await gdbVersion)
        let set = try await call("Checking whether the last apply landed", table) { try await self.service.queryFeatures(layer: table.id, parameters) }
        var found: [String: Int64] = [:]
        for feature in set.features {
            guard let id = feature.attributes[field]?.string, case .int(let objectId)? = feature.attributes[table.objectIdField] else { continue }
            found[GUIDText.normalize(id) ?? id] = objectId
        }
        var answer: [String: Int64] = [:]
        for id in ids { if let objectId = found[GUIDText.normalize(id) ?? id] { answer[id] = objectId } }
        return answer
    }

    /// The first edit the service refused for a reason of its own (not 1003, "rolled back" because another failed).
    private static func firstRefusal(_ results: [TableEditResults]) -> (table: Int, result: FeatureEditResult)? {
        for tableResults in results {
            let all: [FeatureEditResult] = tableResults.adds + tableResults.updates + tableResults.deletes + tableResults.attachmentAdds + tableResults.attachmentDeletes
            if let refused = all.first(where: { !$0.success && $0.errorCode != EditError.rolledBack.code }) { return (tableResults.tableID, refused) }
        }
        return nil
    }

    private static func layerEdits(_ local: TableEdits, table: TableInfo, useGlobalIds: Bool) -> LayerEdits {
        func outgoing(_ feature: TableFeature, keepObjectId: Bool) -> EditFeature {
            var attributes = feature.attributes
            if !keepObjectId { attributes[table.objectIdField] = nil }
            if !useGlobalIds, let global = table.globalIdField, !keepObjectId { attributes[global] = nil }
            return EditFeature(attributes: attributes, geometry: feature.geometry, spatialReference: feature.geometry == nil ? nil : table.spatialReference)
        }
        var deletes: [Int64] = []
        var deleteGlobalIds: [String] = []
        for feature in local.orderedDeletes {
            if useGlobalIds, let global = table.globalIdField, let id = feature.attributes[global]?.string { deleteGlobalIds.append(id) } else if let id = feature.objectId { deletes.append(id) }
        }
        var attachments: AttachmentEdits?
        if !local.attachmentAdds.isEmpty || !local.attachmentDeletes.isEmpty {
            let parentGlobal: (Int64) -> String? = { id in
                let feature = id < 0 ? local.adds[id] : (local.updates[id] ?? nil)
                return table.globalIdField.flatMap { feature?.attributes[$0]?.string }
            }
            attachments = AttachmentEdits(
                adds: local.attachmentAdds.map { staged in
                    AttachmentUpload(globalId: staged.globalId, parentGlobalId: parentGlobal(staged.parentObjectId) ?? staged.parentGlobalIdHint,
                                     name: staged.name, contentType: staged.contentType, data: staged.data)
                },
                deletes: local.attachmentDeletes.map(\.globalId))
        }
        return LayerEdits(id: table.id, adds: local.orderedAdds.map { outgoing($0, keepObjectId: false) },
                          updates: local.orderedUpdates.map { outgoing($0, keepObjectId: true) },
                          deletes: deletes, deleteGlobalIds: deleteGlobalIds, attachments: attachments)
    }

    private static func results(_ local: TableEdits, _ answer: LayerEditResults, table: TableInfo) -> TableEditResults {
        func map(_ features: [TableFeature], _ results: [EditResult]) -> [FeatureEditResult] {
            zip(features, results + Array(repeating: EditResult(objectId: nil, globalId: nil, success: false, error: .general("no result")), count: max(0, features.count - results.count))).map { feature, result in
                FeatureEditResult(localObjectId: feature.objectId, objectId: result.objectId ?? (feature.objectId.map { $0 > 0 ? $0 : nil } ?? nil),
                                  globalId: result.globalId, success: result.success, errorCode: result.error?.code, errorDescription: result.error?.description)
            }
        }
        let attachmentAnswer = answer.attachments
        return TableEditResults(
            tableID: table.id, tableName: table.name,
            adds: map(local.orderedAdds, answer.addResults), updates: map(local.orderedUpdates, answer.updateResults),
            deletes: map(local.orderedDeletes, answer.deleteResults),
            attachmentAdds: zip(local.attachmentAdds, attachmentAnswer?.addResults ?? []).map { staged, result in
                FeatureEditResult(localObjectId: staged.temporaryId, objectId: result.objectId, globalId: result.globalId, success: result.success,
                                  errorCode: result.error?.code, errorDescription: result.error?.description)
            },
            attachmentDeletes: zip(local.attachmentDeletes, attachmentAnswer?.deleteResults ?? []).map { staged, result in
                FeatureEditResult(localObjectId: staged.attachmentId, objectId: result.objectId, globalId: result.globalId, success: result.success,
                                  errorCode: result.error?.code, errorDescription: result.error?.description)
            })
    }
}
