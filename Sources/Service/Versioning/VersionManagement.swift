import Foundation
import Rules
import FeatureServiceModel
import WebMap

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
            try db.fetchValue("SELECT guid FROM version WHERE service = \(service.name) AND branch = 0 LIMIT 1", as: String.self)
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
            try db.fetchRecords(VersionRecord.self, "SELECT * FROM version WHERE service = \(service.name) ORDER BY branch")
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
            let count = try db.fetchValue("SELECT count(*) FROM conflict WHERE versionId = \(record.id!)", as: Int.self) ?? 0
            return (record, count)
        }
        let sessions = self.sessions
        let locks = try await database.read { db in try sessions.snapshot(record.guid, in: db) }
        return record.info(locks: locks, hasConflicts: conflicts > 0)
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
            let existing = try db.fetchValues("SELECT qualifiedName FROM version WHERE service = \(service.name) ORDER BY branch", as: String.self)
            let candidate = VersionCandidate(name: versionName, owner: owner, existingNames: existing, access: accessPermission)
            let errors = VersionNameCheck.violations(of: candidate).filter { $0.severity == .error }
            if !errors.isEmpty {
                throw ServiceError(code: 400, message: "Unable to create the version '\(candidate.qualifiedName)'.",
                                   details: errors.map { "\($0.ruleId): \($0.message)" }, extendedCode: -2147217140)
            }
            let access = accessPermission.flatMap(VersionAccess.init(parameter:)) ?? .private
            let branch = (try db.fetchValue("SELECT max(branch) FROM version", as: Int64.self) ?? 0) + 1
            let ancestor = try db.fetchValue("SELECT defaultMoment FROM service WHERE name = \(service.name)", as: Int64.self) ?? 0
            let now = Self.nowMillis()
            var record = VersionRecord(id: nil, service: service.name, branch: branch, guid: GUIDText.make(), owner: owner, name: versionName,
                                       qualifiedName: candidate.qualifiedName, access: access.rawValue, description: description,
                                       ancestorMoment: ancestor, baseMoment: 0, createdDate: now, modifiedDate: now, reconcileDate: nil, postDate: nil)
            record.id = try db.insert(record, returning: "id")
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
            guard try sessions.snapshot(record.guid, in: db).areAllHeld(by: own, user: policy.caller.username) else {
                throw ServiceError.versionOperationFailed("Unable to delete the version.", "'\(record.qualifiedName)' is in use by another read or edit session.", extendedCode: -2147217148)
            }
            let keys = service.layers.map(\.key)
            try db.execute("DELETE FROM featureRow WHERE layerKey IN \(keys) AND branch = \(record.branch)")
            try db.execute("DELETE FROM head WHERE layerKey IN \(keys) AND branch = \(record.branch)")
            try db.execute("DELETE FROM attachmentRow WHERE layerKey IN \(keys) AND branch = \(record.branch)")
            // The version's conflicts go with it (SQLite's foreign key cascades too; said here for every store).
            try db.execute("DELETE FROM conflict WHERE versionId = \(record.id)")
            try db.execute("DELETE FROM version WHERE id = \(record.id)")
            return record.guid
        }
        try await database.write { db in try sessions.forget(guid, in: db) }
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
                let existing = try db.fetchValues("""
                    SELECT qualifiedName FROM version WHERE service = \(service.name) AND id <> \(record.id!) ORDER BY branch
                    """, as: String.self)
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
            try Self.updateVersion(db, record)
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
        let sessions = self.sessions
        let user = policy.caller.username
        try await database.write { db in
            try sessions.with(record.guid, in: db) { locks in
                if let editor = locks.editor, editor.session != session {
                    throw ServiceError.versionOperationFailed("Unable to start reading.", "'\(record.qualifiedName)' is being edited by another session.", extendedCode: -2147217148)
                }
                locks.readers[session] = user
            }
        }
        return .ok
    }

    /// `stopReading`: releases the session's shared lock (and its edit lock, when it still holds one).
    public func stopReading(service name: String, version: String, sessionId: String, as caller: Caller) async throws -> SuccessResponse {
        let (_, policy, record) = try await sessionTarget(name, version, caller)
        try policy.requireSignedIn()
        guard let session = Self.normalizedSession(sessionId) else { throw ServiceError.invalidParameter("sessionId is required.") }
        let sessions = self.sessions
        try await database.write { db in
            try sessions.with(record.guid, in: db) { locks in
                guard locks.readers[session] != nil else {
                    throw ServiceError.versionOperationFailed("Unable to stop reading.", "The session \(session) is not reading '\(record.qualifiedName)'.")
                }
                if locks.editor?.session == session {
                    throw ServiceError.versionOperationFailed("Unable to stop reading.", "The session \(session) is still editing '\(record.qualifiedName)': call stopEditing first.")
                }
                locks.readers[session] = nil
            }
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
            let moment = try db.fetchValue("SELECT lastMoment FROM service WHERE name = \(service.name)", as: Int64.self) ?? 0
            try sessions.with(record.guid, in: db) { locks in
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
                locks.editor = .init(session: session, user: user, startMoment: moment)
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
        let sessions = self.sessions
        let editor = try await database.read { db in try sessions.snapshot(record.guid, in: db).editor }
        guard let editor, editor.session == session else {
            throw ServiceError.versionOperationFailed("Unable to stop editing.", "The session \(session) is not editing '\(record.qualifiedName)'.")
        }
        // In one transaction: the discarded edits and the released lock go together.
        try await database.write { db in
            if !saveEdits { try Self.discard(db, service: service, branch: record.branch, after: editor.startMoment) }
            try sessions.with(record.guid, in: db) { locks in locks.editor = nil }
        }
        return .ok
    }

    /// Deletes a branch's rows written after `moment` and rebuilds their heads.
    static func discard(_ db: any StoreConnection, service: ServiceModel, branch: Int64, after moment: Int64) throws {
        for layer in service.layers {
            let objectIds = Set(try db.fetchValues("""
                SELECT DISTINCT objectId FROM featureRow WHERE layerKey = \(layer.key) AND branch = \(branch) AND moment > \(moment)
                """, as: Int64.self))
            guard !objectIds.isEmpty || branch != 0 else { continue }
            try db.execute("DELETE FROM featureRow WHERE layerKey = \(layer.key) AND branch = \(branch) AND moment > \(moment)")
            try RowStore.rebuildHeads(db, layerKey: layer.key, branch: branch, objectIds: objectIds)
            try db.execute("DELETE FROM attachmentRow WHERE layerKey = \(layer.key) AND branch = \(branch) AND moment > \(moment)")
            if branch == 0 && !objectIds.isEmpty {
                // DEFAULT changed: give the layer a new moment (caches keyed by it, and posts, see the change).
                let now = try nextMoment(db, service: service.name)
                try db.execute("UPDATE layer SET defaultMoment = \(now) WHERE key = \(layer.key)")
                try db.execute("UPDATE service SET defaultMoment = \(now) WHERE name = \(service.name)")
            }
        }
    }

    /// Reconcile and post need the edit session when one holds the version.
    func requireSessionIfLocked(_ record: VersionRecord, sessionId: String?) async throws {
        let sessions = self.sessions
        guard let editor = try await database.read({ db in try sessions.snapshot(record.guid, in: db).editor }) else { return }
        if Self.normalizedSession(sessionId) != editor.session {
            throw ServiceError.versionOperationFailed("The version is being edited by another session.",
                "'\(record.qualifiedName)' is locked for editing; pass that session's sessionId.", extendedCode: -2147217148)
        }
    }
}
