import Foundation
import FeatureServiceModel
import WebMap

/// Thrown inside a reconcile transaction to roll it back when it must abort on conflicts.
private struct ReconcileAbort: Error { var moment: Int64 }

extension ServiceCore {
    /// `reconcile`: finds the objects changed both in the version and in DEFAULT since the common ancestor
    /// (conflicts: update-update, update-delete, delete-update, by object or by attribute), resolves them in
    /// favour of the version while listing them in `conflicts`, merges non-conflicting attribute changes
    /// (byAttribute), then moves the common ancestor to now. `abortIfConflicts` leaves everything as it was
    /// when there is a conflict; `withPost` posts once reconciled.
    public func reconcile(service name: String, version: String, sessionId: String? = nil, abortIfConflicts: Bool = false,
                          conflictDetection: ConflictDetection = .byObject, withPost: Bool = false, as caller: Caller) async throws -> ReconcileResponse {
        let (service, record) = try await namedVersionToChange(service: name, version: version, sessionId: sessionId, as: caller,
                                                               refusedForDefault: ("Unable to reconcile.", "sde.DEFAULT cannot be reconciled with itself."))
        do {
            let (hasConflicts, moment) = try await database.write { db -> (Bool, Int64) in
                let moment = try Self.nextMoment(db, service: service.name)
                var version = try Self.version(db, id: record.id!) ?? record
                try db.execute("DELETE FROM conflict WHERE versionId = \(version.id!)")
                var conflictCount = 0
                try Self.forEachReconcileCase(db, service: service, version: version, detection: conflictDetection) { layer, found in
                    switch found.outcome {
                    case .conflict(let kind, let fields):
                        conflictCount += 1
                        try Self.recordConflict(db, kind: kind, fields: fields, objectId: found.objectId, layer: layer, version: version)
                    case .merge(let theirsChanged):
                        // No conflict by attribute: merge DEFAULT's changes into the version's row.
                        let (mine, theirs) = (found.mine, found.theirs)
                        var merged = try RowStore.decodeAttributes(mine.attributes)
                        let theirsAttributes = try RowStore.decodeAttributes(theirs.attributes)
                        for field in theirsChanged where field != "SHAPE" { merged[field] = theirsAttributes[field] ?? .null }
                        let geometry = theirsChanged.contains("SHAPE") ? try RowStore.decodeGeometry(theirs.geometry) : try RowStore.decodeGeometry(mine.geometry)
                        try RowStore.write(db, layerKey: layer.key, branch: version.branch, moment: moment,
                                           row: .init(objectId: found.objectId, globalId: mine.globalId, isDelete: false, attributes: merged, geometry: geometry))
                    case .none:
                        break
                    }
                }
                if conflictCount > 0 && abortIfConflicts { throw ReconcileAbort(moment: version.ancestorMoment) }
                version.ancestorMoment = moment
                version.reconcileDate = Self.nowMillis()
                version.modifiedDate = version.reconcileDate!
                try Self.updateVersion(db, version)
                // withPost: post in the same transaction, so that no other post can slip in between.
                if withPost { _ = try Self.postRows(db, service: service, versionId: version.id!) }
                return (conflictCount > 0, moment)
            }
            return ReconcileResponse(success: true, hasConflicts: hasConflicts, moment: moment, didPost: withPost)
        } catch let abort as ReconcileAbort {
            // Record the conflicts found, without changing the version (a separate, small transaction).
            try await recordConflictsOnly(service: service, version: record, detection: conflictDetection)
            return ReconcileResponse(success: false, hasConflicts: true, moment: abort.moment, didPost: false)
        }
    }

    /// What reconcile, post and restoreRows change: a named version (never DEFAULT: `refusedForDefault` says why)
    /// that the signed-in caller may edit, and that no other session is editing.
    private func namedVersionToChange(service name: String, version: String, sessionId: String?, as caller: Caller,
                                      refusedForDefault: (message: String, detail: String)) async throws -> (ServiceModel, VersionRecord) {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        let record = try await database.read { db in try Self.resolveVersion(db, service: service, name: version, policy: policy) }
        guard !record.isDefault else { throw ServiceError.versionOperationFailed(refusedForDefault.message, refusedForDefault.detail) }
        try policy.requireEdit(record)
        try await requireSessionIfLocked(record, sessionId: sessionId)
        return (service, record)
    }

    /// After an aborted reconcile, lists the conflicts it found so that `conflicts` can show them.
    private func recordConflictsOnly(service: ServiceModel, version: VersionRecord, detection: ConflictDetection) async throws {
        try await database.write { db in
            try db.execute("DELETE FROM conflict WHERE versionId = \(version.id!)")
            try Self.forEachReconcileCase(db, service: service, version: version, detection: detection) { layer, found in
                guard case .conflict(let kind, let fields) = found.outcome else { return }
                try Self.recordConflict(db, kind: kind, fields: fields, objectId: found.objectId, layer: layer, version: version)
            }
        }
    }

    /// `post`: writes the version's pending rows into DEFAULT at a new moment. Refused when DEFAULT has
    /// changed since the version's last reconcile (reconcile first). The caller must be allowed to edit
    /// the version; posting is how edits reach a protected DEFAULT without editing it directly.
    public func post(service name: String, version: String, sessionId: String? = nil, as caller: Caller) async throws -> PostResponse {
        let (service, record) = try await namedVersionToChange(service: name, version: version, sessionId: sessionId, as: caller,
                                                               refusedForDefault: ("Unable to post.", "sde.DEFAULT cannot be posted to itself."))
        let recordId = record.id!
        let moment = try await database.write { db in try Self.postRows(db, service: service, versionId: recordId) }
        return PostResponse(success: true, moment: moment)
    }

    /// Writes a version's pending rows into DEFAULT at a new moment, inside the caller's transaction.
    /// Refused when DEFAULT has changed since the version's last reconcile.
    static func postRows(_ db: any StoreConnection, service: ServiceModel, versionId: Int64) throws -> Int64 {
        guard var version = try Self.version(db, id: versionId),
              let defaultMoment = try db.fetchValue("SELECT defaultMoment FROM service WHERE name = \(service.name)", as: Int64.self) else {
            throw ServiceError.versionNotFound("\(versionId)")
        }
        guard defaultMoment <= version.ancestorMoment else {
            throw ServiceError.versionOperationFailed("Unable to post: reconcile required.",
                "sde.DEFAULT has changed since '\(version.qualifiedName)' was last reconciled; reconcile it, then post.", extendedCode: -2147217137)
        }
        let moment = try Self.nextMoment(db, service: service.name)
        var wroteDefault = false
        for layer in service.layers {
            let pending = try Self.pendingRows(db, layerKey: layer.key, version: version)
            for row in pending.values {
                try RowStore.write(db, layerKey: layer.key, branch: 0, moment: moment,
                                   row: .init(objectId: row.objectId, globalId: row.globalId, isDelete: row.isDelete,
                                              attributes: try RowStore.decodeAttributes(row.attributes), geometry: try RowStore.decodeGeometry(row.geometry)))
            }
            // By moment, then id: of two states written at one moment, the later written wins.
            let attachments = try db.fetchRecords(AttachmentRowRecord.self, """
                SELECT * FROM attachmentRow WHERE layerKey = \(layer.key) AND branch = \(version.branch) AND moment > \(version.baseMoment) \
                ORDER BY moment, id
                """)
            var newest: [Int64: AttachmentRowRecord] = [:]
            for row in attachments { newest[row.attachmentId] = row }
            for var row in newest.values.sorted(by: { $0.attachmentId < $1.attachmentId }) {
                row.id = nil
                row.branch = 0
                row.moment = moment
                try db.insert(row)
            }
            if !pending.isEmpty || !newest.isEmpty {
                wroteDefault = true
                try db.execute("UPDATE layer SET defaultMoment = \(moment) WHERE key = \(layer.key)")
            }
        }
        if wroteDefault { try db.execute("UPDATE service SET defaultMoment = \(moment) WHERE name = \(service.name)") }
        let now = Self.nowMillis()
        version.ancestorMoment = moment
        version.baseMoment = moment
        version.postDate = now
        version.modifiedDate = now
        try Self.updateVersion(db, version)
        try db.execute("DELETE FROM conflict WHERE versionId = \(version.id!)")
        return moment
    }

    /// `differences`: the version's pending changes against DEFAULT at the common ancestor, per layer.
    public func differences(service name: String, version: String, resultType: DifferenceResultType = .objectIds, layers: [Int]? = nil,
                            as caller: Caller) async throws -> DifferencesResponse {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireQuery()
        return try await database.read { db in
            let record = try Self.resolveVersion(db, service: service, name: version, policy: policy)
            var result: [LayerDifferences] = []
            for layer in service.layers where layers == nil || layers!.contains(layer.id) {
                guard !record.isDefault else { break }
                let pending = try Self.pendingRows(db, layerKey: layer.key, version: record)
                var entry = LayerDifferences(layerId: layer.id, insertIds: [], updateIds: [], deleteIds: [])
                var inserts: [Feature] = [], updates: [Feature] = [], deletes: [Feature] = []
                let plan = try QueryPlan(layer: layer, parameters: QueryParameters(), policy: policy)
                func feature(_ row: FeatureRowRecord) throws -> Feature {
                    try plan.feature(attributes: row.attributes, geometry: row.geometry, withGeometry: !layer.isTable)
                }
                for objectId in pending.keys.sorted() {
                    let row = pending[objectId]!
                    let ancestor = try RowStore.defaultRow(db, layerKey: layer.key, objectId: objectId, atOrBefore: record.ancestorMoment)
                    let existed = ancestor.map { !$0.isDelete } ?? false
                    if row.isDelete {
                        guard existed, let ancestor else { continue }
                        entry.deleteIds.append(objectId)
                        if resultType == .features { deletes.append(try feature(ancestor)) }
                    } else if existed {
                        entry.updateIds.append(objectId)
                        if resultType == .features { updates.append(try feature(row)) }
                    } else {
                        entry.insertIds.append(objectId)
                        if resultType == .features { inserts.append(try feature(row)) }
                    }
                }
                if resultType == .features {
                    entry.inserts = inserts
                    entry.updates = updates
                    entry.deletes = deletes
                }
                if !(entry.insertIds.isEmpty && entry.updateIds.isEmpty && entry.deleteIds.isEmpty) { result.append(entry) }
            }
            return DifferencesResponse(differences: result, success: true)
        }
    }

    /// `conflicts`: the conflicts found by the last reconcile, with the branch, ancestor and DEFAULT
    /// states of each object.
    public func conflicts(service name: String, version: String, as caller: Caller) async throws -> ConflictsResponse {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireQuery()
        return try await database.read { db in
            let record = try Self.resolveVersion(db, service: service, name: version, policy: policy)
            let stored = try db.fetchRecords(ConflictRecord.self, "SELECT * FROM conflict WHERE versionId = \(record.id!) ORDER BY objectId, id")
            var result: [LayerConflicts] = []
            for layer in service.layers {
                let mine = stored.filter { $0.layerKey == layer.key }
                guard !mine.isEmpty else { continue }
                let plan = try QueryPlan(layer: layer, parameters: QueryParameters(), policy: policy)
                func feature(_ row: FeatureRowRecord?) throws -> Feature? {
                    guard let row, !row.isDelete else { return nil }
                    return try plan.feature(attributes: row.attributes, geometry: row.geometry, withGeometry: !layer.isTable)
                }
                var entry = LayerConflicts(layerId: layer.id, updateUpdateConflicts: [], updateDeleteConflicts: [], deleteUpdateConflicts: [])
                for conflict in mine {
                    let fields = (try? JSON.parse(conflict.fields).array?.compactMap(\.string)) ?? []
                    let item = ConflictEntry(
                        objectId: conflict.objectId, fields: fields, inspected: conflict.inspected,
                        branchVersion: try feature(RowStore.visibleRow(db, layerKey: layer.key, objectId: conflict.objectId, view: VersionView(record))),
                        ancestorVersion: try feature(RowStore.defaultRow(db, layerKey: layer.key, objectId: conflict.objectId, atOrBefore: conflict.ancestorMoment)),
                        defaultVersion: try feature(RowStore.visibleRow(db, layerKey: layer.key, objectId: conflict.objectId, view: .defaultVersion)))
                    switch ConflictKind(rawValue: conflict.kind) ?? .updateUpdate {
                    case .updateUpdate: entry.updateUpdateConflicts.append(item)
                    case .updateDelete: entry.updateDeleteConflicts.append(item)
                    case .deleteUpdate: entry.deleteUpdateConflicts.append(item)
                    }
                }
                result.append(entry)
            }
            return ConflictsResponse(conflicts: result, success: true)
        }
    }

    /// `inspectConflicts`: marks (or unmarks) conflicts as inspected. `objectIds` by layer id; nil marks all.
    public func inspectConflicts(service name: String, version: String, objectIds: [Int: [Int64]]? = nil, inspected: Bool = true,
                                 as caller: Caller) async throws -> SuccessResponse {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        try await database.write { db in
            let record = try Self.resolveVersion(db, service: service, name: version, policy: policy)
            try policy.requireEdit(record)
            let all = try db.fetchRecords(ConflictRecord.self, "SELECT * FROM conflict WHERE versionId = \(record.id!) ORDER BY id")
            for conflict in all {
                if let objectIds {
                    guard let layer = service.layers.first(where: { $0.key == conflict.layerKey }),
                          objectIds[layer.id]?.contains(conflict.objectId) == true else { continue }
                }
                try db.execute("UPDATE conflict SET inspected = \(inspected) WHERE id = \(conflict.id)")
            }
        }
        return .ok
    }

    /// `restoreRows`: puts objects of a version back to their state in DEFAULT at the common ancestor
    /// (undoing the version's change to them), as new rows.
    public func restoreRows(service name: String, version: String, layer layerId: Int, objectIds: [Int64], sessionId: String? = nil,
                            as caller: Caller) async throws -> SuccessResponse {
        let layer = try self.service(name).layer(layerId)
        let (service, record) = try await namedVersionToChange(service: name, version: version, sessionId: sessionId, as: caller,
                                                               refusedForDefault: ("Unable to restore rows.", "restoreRows applies to a named version, not sde.DEFAULT."))
        let moment = try await database.write { db -> Int64 in
            let moment = try Self.nextMoment(db, service: service.name)
            for objectId in objectIds {
                if let ancestor = try RowStore.defaultRow(db, layerKey: layer.key, objectId: objectId, atOrBefore: record.ancestorMoment) {
                    try RowStore.write(db, layerKey: layer.key, branch: record.branch, moment: moment,
                                       row: .init(objectId: objectId, globalId: ancestor.globalId, isDelete: ancestor.isDelete,
                                                  attributes: try RowStore.decodeAttributes(ancestor.attributes), geometry: try RowStore.decodeGeometry(ancestor.geometry)))
                } else if let mine = try RowStore.visibleRow(db, layerKey: layer.key, objectId: objectId, view: VersionView(record)), !mine.isDelete {
                    // Inserted in the version: restoring means it goes away.
                    try RowStore.write(db, layerKey: layer.key, branch: record.branch, moment: moment,
                                       row: .init(objectId: objectId, globalId: mine.globalId, isDelete: true,
                                                  attributes: try RowStore.decodeAttributes(mine.attributes), geometry: try RowStore.decodeGeometry(mine.geometry)))
                }
            }
            try db.execute("UPDATE version SET modifiedDate = \(Self.nowMillis()) WHERE id = \(record.id)")
            return moment
        }
        return SuccessResponse(success: true, moment: moment)
    }

    /// `deleteForwardEdits`: inside an edit session, discards the session's edits written after `moment`.
    public func deleteForwardEdits(service name: String, version: String, sessionId: String, moment: Int64, as caller: Caller) async throws -> SuccessResponse {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        let record = try await database.read { db in try Self.resolveVersion(db, service: service, name: version, policy: policy) }
        let sessions = self.sessions
        let editor = try await database.read { db in try sessions.snapshot(record.guid, in: db).editor }
        guard let editor, editor.session == Self.normalizedSession(sessionId) else {
            throw ServiceError.versionOperationFailed("Unable to delete forward edits.", "The session is not editing '\(record.qualifiedName)'.")
        }
        try await database.write { db in try Self.discard(db, service: service, branch: record.branch, after: max(moment, editor.startMoment)) }
        return SuccessResponse(success: true, moment: moment)
    }
}
