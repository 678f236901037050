import Foundation
import GRDB
import Rules

extension VersionRecord {
    func info(locks: SessionRegistry.VersionLocks? = nil, hasConflicts: Bool? = nil) -> VersionInfo {
        VersionInfo(
            versionName: qualifiedName, versionGuid: guid, description: description,
            access: (VersionAccess(rawValue: access) ?? .private).esriName,
            creationDate: createdDate, modifiedDate: modifiedDate, reconcileDate: reconcileDate, postDate: postDate,
            commonAncestorDate: isDefault ? modifiedDate : ancestorMoment,
            isBeingEdited: locks.map { $0.editor != nil }, isBeingRead: locks.map { !$0.readers.isEmpty },
            isLocked: locks.map { $0.editor != nil || !$0.readers.isEmpty },
            lockOwner: locks.map { $0.editor?.user ?? ($0.readers.values.first ?? nil) ?? "" }, hasConflicts: hasConflicts)
    }
}

extension ServiceCore {
    private func versioned(_ name: String, _ caller: Caller) throws -> (ServiceModel, AccessPolicy) {
        let service = try self.service(name)
        guard service.isBranchVersioned else {
            throw ServiceError(code: 404, message: "Service not found.", details: ["'\(service.name)' has no VersionManagementServer: it is not branch versioned."])
        }
        return (service, AccessPolicy(core: self, service: service, caller: caller))
    }

    static func normalizedSession(_ id: String?) -> String? {
        guard let id = id?.trimmingCharacters(in: .whitespaces), !id.isEmpty else { return nil }
        return GUIDText.normalize(id) ?? id
    }

    /// `VersionManagementServer` root.
    public func versionManagementInfo(service name: String, as caller: Caller) async throws -> VersionManagementInfo {
        let (service, policy) = try versioned(name, caller)
        try policy.requireQuery()
        let guid = try await database.read { db in
            try VersionRecord.filter(VersionRecord.Columns.service == service.name && VersionRecord.Columns.branch == 0).fetchOne(db)?.guid
        }
        return VersionManagementInfo(name: service.name, currentVersion: 11.1, defaultVersionName: "sde.DEFAULT", defaultVersionGuid: guid ?? "",
                                     capabilities: "create,delete,reconcile,post,alter,differences,conflicts,inspectConflicts,restoreRows,deleteForwardEdits")
    }

    /// `versions` / `versionInfos`: the versions the caller may see (`canView`, the check every other path
    /// uses): other users' private versions only for the service owner and administrators. `ownerFilter`
    /// keeps one owner's. `includeHidden` is accepted as ArcGIS sends it and changes nothing: a caller
    /// privileged on a private version lists it anyway, and nobody else may learn that it exists.
    public func versionInfos(service name: String, ownerFilter: String? = nil, includeHidden: Bool = false, as caller: Caller) async throws -> VersionInfos {
        let (service, policy) = try versioned(name, caller)
        try policy.requireQuery()
        let records = try await database.read { db in
            try VersionRecord.filter(VersionRecord.Columns.service == service.name).order(VersionRecord.Columns.branch).fetchAll(db)
        }
        let visible = records.filter { record in
            guard policy.canView(record) else { return false }
            if let ownerFilter, !ownerFilter.isEmpty { return record.owner.caseInsensitiveCompare(ownerFilter) == .orderedSame }
            return true
        }
        return VersionInfos(versions: visible.map { $0.info() }, success: true)
    }

    /// `versions/<guid>`: the version with its lock state. Unknown and invisible versions: 404 alike.
    public func versionInfo(service name: String, version: String, as caller: Caller) async throws -> VersionInfo {
        let (service, policy) = try versioned(name, caller)
        try policy.requireQuery()
        let (record, conflicts) = try await database.read { db in
            let record = try Self.resolveVersion(db, service: service, name: version, policy: policy)
            let count = try ConflictRecord.filter(ConflictRecord.Columns.versionId == record.id!).fetchCount(db)
            return (record, count)
        }
        return record.info(locks: sessions.snapshot(record.guid), hasConflicts: conflicts > 0)
    }

    /// `create`: a new branch version owned by the caller, named `owner.versionName`. The name is checked
    /// with the version/ rules (`VersionNameCheck`, the same code the linter and the runtime use);
    /// `accessPermission` defaults to private. Creating a version inserts exactly one row, whatever the
    /// data size.
    public func createVersion(service name: String, versionName: String, description: String = "", accessPermission: String? = nil,
                              as caller: Caller) async throws -> CreateVersionResponse {
        let (service, policy) = try versioned(name, caller)
        try policy.requireSignedIn()
        let owner = policy.actingName
        let record: VersionRecord = try await database.write { db in
            let existing = try String.fetchAll(db, VersionRecord.filter(VersionRecord.Columns.service == service.name).select(VersionRecord.Columns.qualifiedName, as: String.self))
            let candidate = VersionCandidate(name: versionName, owner: owner, existingNames: existing, access: accessPermission)
            let errors = VersionNameCheck.violations(of: candidate).filter { $0.severity == .error }
            if !errors.isEmpty {
                throw ServiceError(code: 400, message: "Unable to create the version '\(candidate.qualifiedName)'.",
                                   details: errors.map { "\($0.ruleId): \($0.message)" }, extendedCode: -2147217140)
            }
            let access = accessPermission.flatMap(VersionAccess.init(parameter:)) ?? .private
            let branch = (try Int64.fetchOne(db, sql: "SELECT max(branch) FROM version") ?? 0) + 1
            let ancestor = try ServiceRecord.fetchOne(db, key: service.name)?.defaultMoment ?? 0
            let now = Self.nowMillis()
            var record = VersionRecord(id: nil, service: service.name, branch: branch, guid: GUIDText.make(), owner: owner, name: versionName,
                                       qualifiedName: candidate.qualifiedName, access: access.rawValue, description: description,
                                       ancestorMoment: ancestor, baseMoment: 0, createdDate: now, modifiedDate: now, reconcileDate: nil, postDate: nil)
            try record.insert(db)
            return record
        }
        return CreateVersionResponse(versionInfo: record.info(), success: true)
    }

    /// `delete`: the owner, the service owner or an administrator deletes a version (never DEFAULT, never
    /// while another session holds a lock on it). `sessionId` names the caller's own session: its read or
    /// edit lock does not block the delete (the ArcGIS API for Python deletes a version it still reads)
    /// and ends with the version. Its rows go with it.
    public func deleteVersion(service name: String, version: String, sessionId: String? = nil, as caller: Caller) async throws -> SuccessResponse {
        let (service, policy) = try versioned(name, caller)
        try policy.requireSignedIn()
        let sessions = self.sessions
        let own = Self.normalizedSession(sessionId)
        let guid: String = try await database.write { db in
            let record = try Self.resolveVersion(db, service: service, name: version, policy: policy)
            guard !record.isDefault else { throw ServiceError.versionOperationFailed("Unable to delete the version.", "sde.DEFAULT cannot be deleted.") }
            guard policy.isPrivileged(on: record) else {
                throw ServiceError.notPermitted("Only the owner of '\(record.qualifiedName)', the service owner and administrators may delete it.")
            }
            guard sessions.snapshot(record.guid).areAllHeld(by: own, user: policy.caller.username) else {
                throw ServiceError.versionOperationFailed("Unable to delete the version.", "'\(record.qualifiedName)' is in use by another read or edit session.", extendedCode: -2147217148)
            }
            let keys = service.layers.map(\.key)
            try FeatureRowRecord.filter(keys.contains(FeatureRowRecord.Columns.layerKey) && FeatureRowRecord.Columns.branch == record.branch).deleteAll(db)
            try HeadRecord.filter(keys.contains(HeadRecord.Columns.layerKey) && HeadRecord.Columns.branch == record.branch).deleteAll(db)
            try AttachmentRowRecord.filter(keys.contains(AttachmentRowRecord.Columns.layerKey) && AttachmentRowRecord.Columns.branch == record.branch).deleteAll(db)
            _ = try record.delete(db)
            return record.guid
        }
        sessions.forget(guid)
        return .ok
    }

    /// `alter`: rename (checked with the version/ rules), describe or change the access of a version. The
    /// owner, the service owner or an administrator; DEFAULT keeps its name.
    public func alterVersion(service name: String, version: String, versionName: String? = nil, description: String? = nil,
                             accessPermission: String? = nil, as caller: Caller) async throws -> SuccessResponse {
        let (service, policy) = try versioned(name, caller)
        try policy.requireSignedIn()
        try await database.write { db in
            var record = try Self.resolveVersion(db, service: service, name: version, policy: policy)
            guard policy.isPrivileged(on: record) else {
                throw ServiceError.notPermitted("Only the owner of '\(record.qualifiedName)', the service owner and administrators may alter it.")
            }
            if let access = accessPermission {
                let candidate = VersionCandidate(name: record.name, owner: record.owner, access: access)
                if let violation = VersionNameCheck.violations(of: candidate).first(where: { $0.ruleId == "version/access-invalid" }) {
                    throw ServiceError(code: 400, message: "Unable to alter the version.", details: ["\(violation.ruleId): \(violation.message)"])
                }
                record.access = (VersionAccess(parameter: access) ?? .private).rawValue
            }
            if let newName = versionName, newName != record.name {
                guard !record.isDefault else { throw ServiceError.versionOperationFailed("Unable to alter the version.", "sde.DEFAULT cannot be renamed.") }
                let existing = try String.fetchAll(db, VersionRecord.filter(VersionRecord.Columns.service == service.name && Column("id") != record.id!)
                    .select(VersionRecord.Columns.qualifiedName, as: String.self))
                let candidate = VersionCandidate(name: newName, owner: record.owner, existingNames: existing)
                let errors = VersionNameCheck.violations(of: candidate).filter { $0.severity == .error }
                if !errors.isEmpty {
                    throw ServiceError(code: 400, message: "Unable to rename the version to '\(candidate.qualifiedName)'.", details: errors.map { "\($0.ruleId): \($0.message)" })
                }
                record.name = newName
                record.qualifiedName = candidate.qualifiedName
            }
            if let description { record.description = description }
            record.modifiedDate = Self.nowMillis()
            try record.update(db)
        }
        return .ok
    }

    // MARK: Sessions

    private func sessionTarget(_ name: String, _ version: String, _ caller: Caller) async throws -> (ServiceModel, AccessPolicy, VersionRecord) {
        let (service, policy) = try versioned(name, caller)
        let record = try await database.read { db in try Self.resolveVersion(db, service: service, name: version, policy: policy) }
        return (service, policy, record)
    }

    /// `startReading`: a shared lock for `sessionId`. Refused while another session edits the version.
    public func startReading(service name: String, version: String, sessionId: String, as caller: Caller) async throws -> SuccessResponse {
        let (_, policy, record) = try await sessionTarget(name, version, caller)
        try policy.requireSignedIn()
        guard let session = Self.normalizedSession(sessionId) else { throw ServiceError.invalidParameter("sessionId is required.") }
        try sessions.with(record.guid) { locks in
            if let editor = locks.editor, editor.session != session {
                throw ServiceError.versionOperationFailed("Unable to start reading.", "'\(record.qualifiedName)' is being edited by another session.", extendedCode: -2147217148)
            }
            locks.readers[session] = policy.caller.username
        }
        return .ok
    }

    /// `stopReading`: releases the session's shared lock (and its edit lock, when it still holds one).
    public func stopReading(service name: String, version: String, sessionId: String, as caller: Caller) async throws -> SuccessResponse {
        let (_, policy, record) = try await sessionTarget(name, version, caller)
        try policy.requireSignedIn()
        guard let session = Self.normalizedSession(sessionId) else { throw ServiceError.invalidParameter("sessionId is required.") }
        try sessions.with(record.guid) { locks in
            guard locks.readers[session] != nil else {
                throw ServiceError.versionOperationFailed("Unable to stop reading.", "The session \(session) is not reading '\(record.qualifiedName)'.")
            }
            if locks.editor?.session == session {
                throw ServiceError.versionOperationFailed("Unable to stop reading.", "The session \(session) is still editing '\(record.qualifiedName)': call stopEditing first.")
            }
            locks.readers[session] = nil
        }
        return .ok
    }

    /// `startEditing`: the exclusive lock. Only for a session that reads the version, and only when no
    /// other session reads or edits it; the caller must be allowed to edit the version.
    public func startEditing(service name: String, version: String, sessionId: String, as caller: Caller) async throws -> SuccessResponse {
        let (service, policy, record) = try await sessionTarget(name, version, caller)
        try policy.requireEdit(record)
        guard let session = Self.normalizedSession(sessionId) else { throw ServiceError.invalidParameter("sessionId is required.") }
        let sessions = self.sessions
        let user = policy.caller.username
        // Inside a write transaction: edits check the lock inside theirs, so none slips in between the
        // moment read here and the lock being taken.
        try await database.write { db in
            let moment = try ServiceRecord.fetchOne(db, key: service.name)?.lastMoment ?? 0
            try sessions.with(record.guid) { locks in
                guard locks.readers[session] != nil else {
                    throw ServiceError.versionOperationFailed("Unable to start editing.", "The session \(session) must call startReading on '\(record.qualifiedName)' first.")
                }
                if let editor = locks.editor {
                    if editor.session == session { return }
                    throw ServiceError.versionOperationFailed("Unable to start editing.", "'\(record.qualifiedName)' is already being edited by another session.", extendedCode: -2147217148)
                }
                if locks.readers.keys.contains(where: { $0 != session }) {
                    throw ServiceError.versionOperationFailed("Unable to start editing.", "Another session is reading '\(record.qualifiedName)': an exclusive lock needs it alone.", extendedCode: -2147217148)
                }
                locks.editor = (session, user, moment)
            }
        }
        return .ok
    }

    /// `stopEditing`: `saveEdits` true keeps the session's edits; false discards every edit written to the
    /// version since startEditing. The shared (reading) lock remains.
    public func stopEditing(service name: String, version: String, sessionId: String, saveEdits: Bool, as caller: Caller) async throws -> SuccessResponse {
        let (service, policy, record) = try await sessionTarget(name, version, caller)
        try policy.requireSignedIn()
        guard let session = Self.normalizedSession(sessionId) else { throw ServiceError.invalidParameter("sessionId is required.") }
        let editor = sessions.snapshot(record.guid).editor
        guard let editor, editor.session == session else {
            throw ServiceError.versionOperationFailed("Unable to stop editing.", "The session \(session) is not editing '\(record.qualifiedName)'.")
        }
        if !saveEdits {
            try await database.write { db in try Self.discard(db, service: service, branch: record.branch, after: editor.startMoment) }
        }
        sessions.with(record.guid) { locks in locks.editor = nil }
        return .ok
    }

    /// Deletes a branch's rows written after `moment` and rebuilds their heads.
    static func discard(_ db: Database, service: ServiceModel, branch: Int64, after moment: Int64) throws {
        for layer in service.layers {
            let objectIds = try Int64.fetchSet(db, FeatureRowRecord
                .filter(FeatureRowRecord.Columns.layerKey == layer.key && FeatureRowRecord.Columns.branch == branch && FeatureRowRecord.Columns.moment > moment)
                .select(FeatureRowRecord.Columns.objectId, as: Int64.self))
            guard !objectIds.isEmpty || branch != 0 else { continue }
            try FeatureRowRecord.filter(FeatureRowRecord.Columns.layerKey == layer.key && FeatureRowRecord.Columns.branch == branch
                                        && FeatureRowRecord.Columns.moment > moment).deleteAll(db)
            try RowStore.rebuildHeads(db, layerKey: layer.key, branch: branch, objectIds: objectIds)
            try AttachmentRowRecord.filter(AttachmentRowRecord.Columns.layerKey == layer.key && AttachmentRowRecord.Columns.branch == branch
                                           && AttachmentRowRecord.Columns.moment > moment).deleteAll(db)
            if branch == 0 && !objectIds.isEmpty {
                // DEFAULT changed: give the layer a new moment (caches keyed by it, and posts, see the change).
                let now = try nextMoment(db, service: service.name)
                try db.execute(sql: "UPDATE layer SET defaultMoment = ? WHERE key = ?", arguments: [now, layer.key])
                try db.execute(sql: "UPDATE service SET defaultMoment = ? WHERE name = ?", arguments: [now, service.name])
            }
        }
    }

    /// Reconcile and post need the edit session when one holds the version.
    func requireSessionIfLocked(_ record: VersionRecord, sessionId: String?) throws {
        guard let editor = sessions.snapshot(record.guid).editor else { return }
        if Self.normalizedSession(sessionId) != editor.session {
            throw ServiceError.versionOperationFailed("The version is being edited by another session.",
                "'\(record.qualifiedName)' is locked for editing; pass that session's sessionId.", extendedCode: -2147217148)
        }
    }
}
